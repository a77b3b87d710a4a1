import CMediaDecode
import CMediaFixtures
import Testing
import UNTermTestSupport

/// The PNG decoder's own inflate (cmd_inflate.c) against zlib: the same bytes from every valid
/// stream, whatever pieces its input comes in and its output is taken in (each is a place it
/// stops and resumes), and a refusal wherever zlib refuses.
@Suite struct InflateTests {
  /// Our verdict: the bytes, or nil when the stream is refused. The output is taken from the
  /// decoder's window and, separately, written straight into one buffer piece after piece (as
  /// a large PNG's inflating thread writes rows); both ways must agree.
  static func ours(
    _ stream: [UInt8], inputPiece: Int = 1 << 20, outputPiece: Int = 4096, capacity: Int = 1 << 22
  ) -> [UInt8]? {
    func inflate(direct: Int32) -> [UInt8]? {
      var out = [UInt8](repeating: 0, count: capacity)
      var written = 0
      var error = [CChar](repeating: 0, count: 128)
      let status = cmd_inflate_zlib(
        stream, stream.count, inputPiece, outputPiece, direct, &out, out.count, &written, &error, error.count)
      return status == Int32(CMD_OK) ? Array(out[..<written]) : nil
    }
    let taken = inflate(direct: 0)
    let direct = inflate(direct: 1)
    #expect(
      taken == direct,
      "taken: \(taken.map { "\($0.count) bytes" } ?? "refused"), direct: \(direct.map { "\($0.count) bytes" } ?? "refused") (pieces \(inputPiece)/\(outputPiece))"
    )
    return taken
  }

  /// zlib's verdict on the same stream, decoded in one call.
  static func zlib(_ stream: [UInt8], capacity: Int = 1 << 22) -> [UInt8]? {
    var out = [UInt8](repeating: 0, count: capacity)
    var written = 0
    return cmf_zlib_inflate(stream, stream.count, &out, out.count, &written) == 0 ? Array(out[..<written]) : nil
  }

  static func deflate(_ bytes: [UInt8], level: Int32, strategy: Int32) throws -> [UInt8] {
    var out: UnsafeMutablePointer<UInt8>?
    var length = 0
    try #require(cmf_zlib_deflate(bytes, bytes.count, level, strategy, &out, &length) == 0)
    defer { cmf_free(out) }
    return Array(UnsafeBufferPointer(start: out, count: length))
  }

  /// Kinds of data that give zlib's every block type and code shape.
  static func samples(_ generator: inout SeededGenerator) -> [(name: String, bytes: [UInt8])] {
    let noise = (0..<70_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let fewSymbols = (0..<50_000).map { _ in UInt8.random(in: 0...3, using: &generator) }
    let text = Array(String(repeating: "নমস্কার, the quick brown fox اردو ", count: 900).utf8)
    // Blocks of noise repeated 20 to 32 KiB later: the longest distances zlib uses.
    var far: [UInt8] = []
    for _ in 0..<12 {
      let block = (0..<3000).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let gap = (0..<Int.random(in: 20_000...29_000, using: &generator)).map { _ in
        UInt8.random(in: 0...255, using: &generator)
      }
      far += block + gap + block
    }
    let runs = [UInt8](repeating: 7, count: 40_000) + [1, 2, 3] + [UInt8](repeating: 0, count: 9000)
    return [
      ("noise", noise), ("four symbols", fewSymbols), ("text", text), ("far matches", far), ("runs", runs),
      ("empty", []),
    ]
  }

  @Test func everyBlockTypeAndCodeShapeDecodesAsZlibMadeIt() throws {
    let seed = TestSeed()
    var generator = seed.generator
    // Stored (level 0), fixed codes, Huffman only, run lengths, filtered and dynamic blocks.
    let settings: [(level: Int32, strategy: Int32)] = [(0, 0), (1, 0), (6, 0), (9, 0), (6, 4), (6, 2), (6, 3), (6, 1)]
    for (name, bytes) in Self.samples(&generator) {
      for (level, strategy) in settings {
        let stream = try Self.deflate(bytes, level: level, strategy: strategy)
        for (input, output) in [(1 << 20, 65536), (1, 1), (7, 12_001), (4096, 3)] {
          let decoded = Self.ours(stream, inputPiece: input, outputPiece: output)
          #expect(
            decoded == bytes, "\(name), level \(level), strategy \(strategy), pieces \(input)/\(output); \(seed)")
        }
      }
    }
  }

  /// A zlib stream written bit by bit: a stored block of `history` bytes, then a final block of
  /// fixed codes with one longest match (258) at `distance`.
  static func farMatchStream(history: [UInt8], distance: Int) -> [UInt8] {
    var writer = BitWriter()
    writer.bytes = [0x78, 0x01]
    writer.put(0, 1)  // not the last block
    writer.put(0, 2)  // stored
    writer.alignToByte()
    writer.bytes += [UInt8(history.count & 0xFF), UInt8(history.count >> 8)]
    writer.bytes += [UInt8(~history.count & 0xFF), UInt8((~history.count >> 8) & 0xFF)]
    writer.bytes += history
    writer.put(1, 1)  // the last block
    writer.put(1, 2)  // fixed codes
    writer.putCode(0b1100_0101, 8)  // length symbol 285: 258
    // Distance code 29 (24,577 and 13 extra bits), or the code below it for shorter ones.
    let code = distance > 24_576 ? 29 : 28
    let base = code == 29 ? 24_577 : 16_385
    writer.putCode(UInt32(code), 5)
    writer.put(UInt32(distance - base), 13)
    writer.putCode(0, 7)  // end of block
    writer.alignToByte()
    // The trailer (which neither decoder checks) of what the stream gives when it is valid.
    let output =
      distance <= history.count ? history + (0..<258).map { history[history.count - distance + $0] } : history
    writer.bytes += adler32(output)
    return writer.bytes
  }

  @Test func theLongestMatchAtTheFarthestDistanceDecodesAndOnePastTheOutputIsRefused() throws {
    let seed = TestSeed()
    var generator = seed.generator
    let history = (0..<32_768).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let stream = Self.farMatchStream(history: history, distance: 32_768)
    let expected = history + history[..<258]
    #expect(Self.zlib(stream) == expected, "\(seed)")
    for (input, output) in [(1 << 20, 65536), (1, 1), (5, 32_769)] {
      #expect(Self.ours(stream, inputPiece: input, outputPiece: output) == expected, "\(input)/\(output); \(seed)")
    }
    // The same match with one byte less behind it reaches before the stream's start.
    let short = Self.farMatchStream(history: Array(history.dropFirst()), distance: 32_768)
    #expect(Self.zlib(short) == nil)
    #expect(Self.ours(short) == nil)
  }

  @Test func everyFlippedBitAndEveryCutGetsZlibsVerdict() throws {
    let seed = TestSeed()
    var generator = seed.generator
    let text = Array(String(repeating: "Paeth, Sub, Up, Average; ", count: 40).utf8)
    let noise = (0..<200).map { _ in UInt8.random(in: 0...255, using: &generator) }
    for (level, strategy) in [(Int32(9), Int32(0)), (6, 4), (0, 0)] {
      let stream = try Self.deflate(text + noise + text, level: level, strategy: strategy)
      for index in 0..<stream.count {
        for bit in 0..<8 {
          var broken = stream
          broken[index] ^= UInt8(1 << bit)
          // 16 KiB of output at most (a flipped length can ask for more: both refuse that).
          let verdict = Self.zlib(broken, capacity: 1 << 14)
          #expect(Self.ours(broken, capacity: 1 << 14) == verdict, "byte \(index) bit \(bit), level \(level); \(seed)")
          #expect(
            Self.ours(broken, inputPiece: 3, outputPiece: 5, capacity: 1 << 14) == verdict,
            "byte \(index) bit \(bit) in pieces; \(seed)")
        }
      }
      for cut in 0..<stream.count {
        #expect(Self.ours(Array(stream[..<cut]), capacity: 1 << 14) == nil, "cut at \(cut), level \(level)")
      }
    }
  }

  @Test func malformedHeadersAndCodesAreRefusedAsZlibRefusesThem() throws {
    let valid = try Self.deflate(Array("abcabcabc".utf8), level: 9, strategy: 0)
    var cases: [(String, [UInt8])] = [
      ("header check", [0x78, 0x02] + valid.dropFirst(2)),
      ("method 7", [0x77, 0x85] + valid.dropFirst(2)),
      ("window of 2^16", [0x88, 0x1C] + valid.dropFirst(2)),
      ("preset dictionary", [0x78, 0xBB] + valid.dropFirst(2)),
      ("block type 3", [0x78, 0x01, 0x07, 0, 0, 0, 0]),
      ("stored lengths that disagree", [0x78, 0x01, 0x01, 0x03, 0x00, 0xFC, 0xFE, 1, 2, 3, 0, 0, 0, 0]),
    ]
    // A dynamic block with 287 literal/length codes (at most 286 are allowed).
    var writer = BitWriter()
    writer.bytes = [0x78, 0x01]
    writer.put(1, 1)
    writer.put(2, 2)
    writer.put(30, 5)
    writer.put(0, 5)
    writer.put(0, 4)
    writer.bytes += [0, 0, 0, 0, 0, 0, 0, 0]
    cases.append(("287 length codes", writer.bytes))
    for (name, stream) in cases {
      #expect(Self.zlib(stream) == nil, "zlib: \(name)")
      #expect(Self.ours(stream) == nil, "ours: \(name)")
    }
    #expect(Self.ours(valid) == Array("abcabcabc".utf8))
  }

  static func adler32(_ bytes: [UInt8]) -> [UInt8] {
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in bytes {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    let value = b << 16 | a
    return [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
  }
}

/// Bits into bytes the way DEFLATE packs them: values lowest bit first, Huffman codes highest
/// bit first.
struct BitWriter {
  var bytes: [UInt8] = []
  private var pending: UInt32 = 0
  private var count = 0

  mutating func put(_ value: UInt32, _ bits: Int) {
    for i in 0..<bits {
      pending |= ((value >> UInt32(i)) & 1) << UInt32(count)
      count += 1
      if count == 8 { flush() }
    }
  }

  mutating func putCode(_ code: UInt32, _ bits: Int) {
    for i in stride(from: bits - 1, through: 0, by: -1) { put((code >> UInt32(i)) & 1, 1) }
  }

  mutating func alignToByte() {
    if count > 0 { flush() }
  }

  private mutating func flush() {
    bytes.append(UInt8(pending & 0xFF))
    pending = 0
    count = 0
  }
}
