import CMediaFixtures
import Foundation
import Testing
import UNTermTestSupport

/// What downloads and decodes cost `unterm render` as a whole process: its peak memory (taken
/// by `unterm-peak`, which forks the command and reads its rusage) against a text-only render,
/// and its time against the service budget. Loose bounds that separate streaming from holding a
/// whole body or picture; the benchmark prints the real figures. (The times are printed: that a
/// download stopped at a limit or at its budget is read from the trace.)
@Suite("Media footprint of unterm render", .serialized, .hangGuard)
struct MediaFootprintTests {
  struct Run {
    var status: Int
    var peakMiB: Double
    var seconds: Double
    var stderr: String
  }

  /// `unterm render ARGS` under `unterm-peak`.
  private func render(_ arguments: [String]) throws -> Run {
    let peak = Fixtures.productsDirectory.appendingPathComponent("unterm-peak").path
    let child = try ChildProcess(
      peak, [Fixtures.unterm, "render", "--size", "80x24", "--color", "never"] + arguments,
      environment: ChildProcess.environment())
    try child.wait()
    let text = child.errors
    guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("unterm-peak: ") }) else {
      throw Failure(description: "no figures from unterm-peak: \(text)")
    }
    var fields: [String: Double] = [:]
    for pair in line.dropFirst("unterm-peak: ".count).split(separator: " ") {
      let parts = pair.split(separator: "=")
      if parts.count == 2, let value = Double(parts[1]) { fields[String(parts[0])] = value }
    }
    return Run(
      status: Int(fields["status"] ?? -1), peakMiB: (fields["peak_kib"] ?? 0) / 1024,
      seconds: (fields["elapsed_ms"] ?? 0) / 1000, stderr: text)
  }

  struct Failure: Error, CustomStringConvertible { var description: String }

  private func payload(in dir: URL, _ name: String, image: String?) throws -> String {
    let url = image.map { #","image-url":"\#($0)""# } ?? ""
    let file = dir.appendingPathComponent(name)
    try Data(#"{"aps":{"alert":{"title":"Photo","body":"From the beach"},"mutable-content":1}\#(url)}"#.utf8)
      .write(to: file)
    return file.path
  }

  @Test func endlessAndOversizedDownloadsHoldNoBodyAndEndWithinTheBudget() throws {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
    let server = try LoopbackHTTPServer(routes: [
      "/endless": .init(contentType: "image/png", body: signature, stream: .endless, declaredLength: .none),
      "/claims-200MB": .init(
        contentType: "image/png", body: signature, stream: .endless, declaredLength: .claim(200_000_000)),
      "/drip": .init(contentType: "image/png", body: signature, stream: .drip(interval: 0.1), declaredLength: .none),
      "/small": .init(contentType: "image/png", body: TestImages.png(width: 8, height: 8) { _, _ in (200, 80, 40) }),
    ])
    let dir = try Fixtures.temporaryDirectory()
    let text = try render(["--trace", try payload(in: dir, "text.json", image: nil)])
    #expect(text.status == 0, "\(text.stderr)")
    // What a download costs without a body to hold: libcurl and the libraries it opens on the
    // first download (a text-only render maps none of them), and an 8 × 8 picture.
    let small = try render(["--trace", try payload(in: dir, "small.json", image: server.url("/small"))])
    #expect(small.status == 0 && small.stderr.contains("attached"), "\(small.stderr)")
    // The limits must stop the first two before any budget a busy machine could run out of; the
    // drip only its 3 s budget can stop.
    for (path, budget, reason) in [
      ("/endless", "300s", "bytes: the body passes the 10000000-byte limit for images"),
      ("/claims-200MB", "300s", "the server says 200000000 bytes; images may be at most 10000000 bytes"),
      ("/drip", "3s", "budget ran out"),
    ] {
      let run = try render([
        "--service-timeout", budget, "--trace", try payload(in: dir, "remote.json", image: server.url(path)),
      ])
      print(
        "\(path): \(run.seconds) s, \(run.peakMiB) MiB (text only: \(text.seconds) s, \(text.peakMiB) MiB;"
          + " a small download: \(small.seconds) s, \(small.peakMiB) MiB)")
      #expect(run.status == 0, "\(path): \(run.stderr)")
      #expect(run.stderr.contains(reason), "\(path): \(run.stderr)")
      // Within a few MB of a small download, nowhere near the 10 MB limit, let alone the body.
      #expect(run.peakMiB - small.peakMiB < 8, "\(path): \(run.peakMiB) MiB against \(small.peakMiB) MiB")
      // The budget is a hard deadline: the drip (a minute long) is cut off, however late a busy
      // machine gets there.
      #expect(path != "/drip" || run.seconds < 30, "\(path): \(run.seconds) s")
    }
  }

  @Test func largePicturesAreDecodedWithoutHoldingThem() throws {
    // 4000 × 3000: as RGBA 48 MB. Decoded to a thumbnail, a PNG and a baseline JPEG are never
    // held: rows stream into the reducer, the JPEG at libjpeg's 1/8 scale. A progressive JPEG
    // is held as libjpeg holds one, its whole coefficient buffer (36 MB at 4:2:0: 281,250
    // blocks of 128 bytes), since its scans refine every block in turn; never its pixels.
    let dir = try Fixtures.temporaryDirectory()
    func write(_ name: String, _ status: Int32, _ bytes: UnsafeMutablePointer<UInt8>?, _ count: Int) throws {
      guard status == 0, let bytes else { throw Failure(description: "cannot make \(name)") }
      defer { cmf_free(bytes) }
      try Data(bytes: bytes, count: count).write(to: dir.appendingPathComponent(name))
    }
    var out: UnsafeMutablePointer<UInt8>?
    var length = 0
    var message = [CChar](repeating: 0, count: 200)
    let baseline = cmf_encode_jpeg(nil, 4000, 3000, 3, 85, Int32(CMF_JPEG_BASELINE), &out, &length, &message, 200)
    try write("big.jpg", baseline, out, length)
    let progressive = cmf_encode_jpeg(nil, 4000, 3000, 3, 85, Int32(CMF_JPEG_PROGRESSIVE), &out, &length, &message, 200)
    try write("big-progressive.jpg", progressive, out, length)
    try write("big.png", cmf_encode_png_gradient(4000, 3000, &out, &length), out, length)
    let text = try render([try payload(in: dir, "text.json", image: nil)])
    for (name, limit) in [("big.jpg", 16.0), ("big.png", 16), ("big-progressive.jpg", 36 + 8)] {
      let run = try render(["--trace", try payload(in: dir, "\(name).json", image: name)])
      #expect(run.status == 0 && run.stderr.contains("attached"), "\(name): \(run.stderr)")
      #expect(run.peakMiB - text.peakMiB < limit, "\(name): \(run.peakMiB) MiB against \(text.peakMiB) MiB")
    }
  }

  @Test func untermStartsWithoutTheNetworkingStack() throws {
    // The download path opens libcurl itself when an http(s) attachment comes, and unterm's
    // modules import UserNotificationsModel, not the UserNotifications facade that re-exports
    // FoundationNetworking for an app's code: so no build of unterm, a debug `swift build`
    // included, loads FoundationNetworking or libcurl (and its thirty libraries) at start.
    func lines(_ arguments: [String], environment: [String: String] = [:]) throws -> (out: [String], err: [String]) {
      let child = try ChildProcess("/usr/bin/env", arguments, environment: ChildProcess.environment(environment))
      try child.wait()
      return (
        child.output.split(separator: "\n").map(String.init), child.errors.split(separator: "\n").map(String.init)
      )
    }
    // What the dynamic loader maps for `unterm --version`, as it reports each library it starts.
    let trace = try lines([Fixtures.unterm, "--version"], environment: ["LD_DEBUG": "libs"])
    #expect(trace.out.first?.hasPrefix("unterm ") == true, "\(trace.out)")
    let loaded = trace.err.compactMap { line -> String? in
      guard let range = line.range(of: "calling init: ") else { return nil }
      return String(line[range.upperBound...])
    }
    #expect(loaded.contains { $0.contains("/libc.so") }, "the loader's trace names no libc: \(trace.err.prefix(5))")
    let networking = loaded.filter { $0.contains("libFoundationNetworking") || $0.contains("libcurl") }
    #expect(
      networking.isEmpty,
      """
      unterm --version loads \(networking); objects of unterm that autolink FoundationNetworking: \
      \(autolinkingNetworking()) (a module that imports UserNotifications instead of \
      UserNotificationsModel, or an object left from a build before the split: build clean)
      """)
    // Nor does unterm call libcurl directly: a static link needs none of it.
    let needed = Set(
      try lines(["nm", "-D", "--undefined-only", Fixtures.unterm]).out.compactMap {
        $0.split(separator: " ").last.map(String.init)
      })
    #expect(!needed.isEmpty)
    #expect(!needed.contains { $0.hasPrefix("curl_") })
  }

  /// The objects SwiftPM linked into unterm whose autolink entries ask for FoundationNetworking.
  private func autolinkingNetworking() -> [String] {
    let list = Fixtures.productsDirectory.appendingPathComponent("unterm.product/Objects.LinkFileList")
    guard let text = try? String(contentsOf: list, encoding: .utf8) else { return ["(no \(list.path))"] }
    let entry = Data("-lFoundationNetworking".utf8)
    return text.split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "'\"")) }
      .filter { (try? Data(contentsOf: URL(fileURLWithPath: $0)))?.range(of: entry) != nil }
      .map {
        URL(fileURLWithPath: $0).deletingLastPathComponent().lastPathComponent + "/"
          + URL(fileURLWithPath: $0).lastPathComponent
      }
  }
}
