import Foundation

/// Reads a binary property list (`bplist00`): the trailer, the offset table and the objects,
/// every offset and size checked against the file.
struct BinaryReader {
  let bytes: [UInt8]
  var offsetSize = 0
  var referenceSize = 0
  var objectCount = 0
  var offsets: [Int] = []
  /// Objects being read, to catch a container that contains itself.
  var reading: Set<Int> = []
  /// Objects read so far: an object shared by many containers is read once for each, so the
  /// total is capped (a few shared arrays would otherwise multiply to billions).
  var visited = 0
  static let maximumVisits = 1_000_000

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  func fail(_ message: String, at offset: Int) -> PlistError {
    PlistError(message: "binary property list: \(message) (byte \(offset))", place: .offset(offset))
  }

  func unsigned(at offset: Int, size: Int) throws(PlistError) -> Int {
    guard size >= 1, size <= 8, offset >= 0, offset + size <= bytes.count else {
      throw fail("a number runs past the end of the file", at: offset)
    }
    var value: UInt64 = 0
    for i in 0..<size { value = value << 8 | UInt64(bytes[offset + i]) }
    guard value <= UInt64(Int.max) else { throw fail("a number is out of range", at: offset) }
    return Int(value)
  }

  mutating func read() throws(PlistError) -> PlistNode {
    guard bytes.count >= 8 + 32 + 1 else { throw fail("the file is too short", at: 0) }
    let trailer = bytes.count - 32
    offsetSize = Int(bytes[trailer + 6])
    referenceSize = Int(bytes[trailer + 7])
    guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
      throw fail("the trailer's integer sizes are invalid", at: trailer + 6)
    }
    objectCount = try unsigned(at: trailer + 8, size: 8)
    let top = try unsigned(at: trailer + 16, size: 8)
    let tableStart = try unsigned(at: trailer + 24, size: 8)
    guard objectCount >= 1, objectCount <= bytes.count else {
      throw fail("the trailer's object count \(objectCount) is invalid", at: trailer + 8)
    }
    guard top < objectCount else { throw fail("the top object \(top) does not exist", at: trailer + 16) }
    guard tableStart >= 8, tableStart <= trailer, objectCount <= (trailer - tableStart) / offsetSize else {
      throw fail("the offset table lies outside the file", at: trailer + 24)
    }
    offsets.reserveCapacity(objectCount)
    for i in 0..<objectCount {
      let offset = try unsigned(at: tableStart + i * offsetSize, size: offsetSize)
      guard offset >= 8, offset < tableStart else {
        throw fail("object \(i)'s offset \(offset) is invalid", at: tableStart)
      }
      offsets.append(offset)
    }
    return try object(top, depth: 1)
  }

  /// The length in a marker's low nibble, or the integer object after it when the nibble is 15.
  func length(marker offset: Int) throws(PlistError) -> (count: Int, start: Int) {
    let nibble = Int(bytes[offset] & 0x0F)
    guard nibble == 0x0F else { return (nibble, offset + 1) }
    guard offset + 1 < bytes.count, bytes[offset + 1] & 0xF0 == 0x10 else {
      throw fail("a length is not an integer", at: offset + 1)
    }
    let size = 1 << Int(bytes[offset + 1] & 0x0F)
    let count = try unsigned(at: offset + 2, size: size)
    return (count, offset + 2 + size)
  }

  /// The object a reference names, read by its marker's type.
  mutating func object(_ reference: Int, depth: Int) throws(PlistError) -> PlistNode {
    guard reference >= 0, reference < objectCount else {
      throw fail("a reference to object \(reference) is invalid", at: 0)
    }
    let offset = offsets[reference]
    guard depth <= PropertyList.maximumDepth else {
      throw fail("nesting deeper than \(PropertyList.maximumDepth) levels", at: offset)
    }
    guard offset < bytes.count else { throw fail("object \(reference) lies outside the file", at: offset) }
    visited += 1
    guard visited <= Self.maximumVisits else {
      throw fail("more than \(Self.maximumVisits) objects (shared objects count once for each use)", at: offset)
    }
    let marker = bytes[offset]
    let place = PlistPlace.offset(offset)
    switch marker >> 4 {
    case 0x0:
      switch marker {
      case 0x08: return PlistNode(value: .bool(false), place: place)
      case 0x09: return PlistNode(value: .bool(true), place: place)
      default: return PlistNode(value: .other("null"), place: place)
      }
    case 0x1:
      return PlistNode(value: try integer(at: offset), place: place)
    case 0x2:
      return PlistNode(value: try real(at: offset), place: place)
    case 0x3:
      return PlistNode(value: .other("a date"), place: place)
    case 0x4:
      let (count, start) = try length(marker: offset)
      guard count <= bytes.count - start else { throw fail("data runs past the end", at: offset) }
      return PlistNode(value: .other("data"), place: place)
    case 0x5:
      return PlistNode(value: .string(try asciiString(at: offset)), place: place)
    case 0x6:
      return PlistNode(value: .string(try utf16String(at: offset)), place: place)
    case 0xA, 0xD:
      guard reading.insert(reference).inserted else { throw fail("object \(reference) contains itself", at: offset) }
      defer { reading.remove(reference) }
      return PlistNode(value: try container(at: offset, depth: depth), place: place)
    case 0x8:
      return PlistNode(value: .other("a UID"), place: place)
    default:
      throw fail("unknown object type 0x\(String(marker, radix: 16))", at: offset)
    }
  }

  /// An integer object: 1, 2, 4 or 8 big-endian bytes (8 of them signed).
  private func integer(at offset: Int) throws(PlistError) -> PlistNode.Value {
    let size = 1 << Int(bytes[offset] & 0x0F)
    guard size <= 8, offset + 1 + size <= bytes.count else { throw fail("an integer runs past the end", at: offset) }
    var value: UInt64 = 0
    for i in 0..<size { value = value << 8 | UInt64(bytes[offset + 1 + i]) }
    let n = Int64(bitPattern: value)
    return .integer(n, text: String(n))
  }

  /// A real object: a big-endian 4- or 8-byte float, which must be finite.
  private func real(at offset: Int) throws(PlistError) -> PlistNode.Value {
    let size = 1 << Int(bytes[offset] & 0x0F)
    guard size == 4 || size == 8, offset + 1 + size <= bytes.count else {
      throw fail("a real number is invalid", at: offset)
    }
    var bits: UInt64 = 0
    for i in 0..<size { bits = bits << 8 | UInt64(bytes[offset + 1 + i]) }
    let value = size == 8 ? Double(bitPattern: bits) : Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
    guard value.isFinite else { throw fail("a real number is not finite", at: offset) }
    return .real(value, text: "\(value)")
  }

  /// An ASCII string object.
  private func asciiString(at offset: Int) throws(PlistError) -> String {
    let (count, start) = try length(marker: offset)
    guard count <= bytes.count - start else { throw fail("a string runs past the end", at: offset) }
    let slice = bytes[start..<(start + count)]
    guard slice.allSatisfy({ $0 < 0x80 }) else { throw fail("an ASCII string holds a byte over 127", at: offset) }
    return String(decoding: slice, as: UTF8.self)
  }

  /// A UTF-16 string object: big-endian code units, with no lone surrogate.
  private func utf16String(at offset: Int) throws(PlistError) -> String {
    let (count, start) = try length(marker: offset)
    guard count <= (bytes.count - start) / 2 else { throw fail("a string runs past the end", at: offset) }
    var units: [UInt16] = []
    units.reserveCapacity(count)
    for i in 0..<count { units.append(UInt16(bytes[start + 2 * i]) << 8 | UInt16(bytes[start + 2 * i + 1])) }
    var text = String.UnicodeScalarView()
    var iterator = units.makeIterator()
    var utf16 = UTF16()
    loop: while true {
      switch utf16.decode(&iterator) {
      case .scalarValue(let s): text.append(s)
      case .emptyInput: break loop
      case .error: throw fail("a string holds a lone surrogate", at: offset)
      }
    }
    return String(text)
  }

  /// An array or dictionary object: its references, then the objects they name (a
  /// dictionary's keys, which must be strings and differ, then its values).
  private mutating func container(at offset: Int, depth: Int) throws(PlistError) -> PlistNode.Value {
    let (count, start) = try length(marker: offset)
    let isDictionary = bytes[offset] >> 4 == 0xD
    let references = isDictionary ? count * 2 : count
    guard count <= objectCount, references <= (bytes.count - start) / referenceSize else {
      throw fail("a container runs past the end", at: offset)
    }
    var refs: [Int] = []
    for i in 0..<references { refs.append(try unsigned(at: start + i * referenceSize, size: referenceSize)) }
    if !isDictionary {
      var items: [PlistNode] = []
      for r in refs { items.append(try object(r, depth: depth + 1)) }
      return .array(items)
    }
    var members: [PlistNode.Member] = []
    var seen: [String: PlistPlace] = [:]
    for i in 0..<count {
      let key = try object(refs[i], depth: depth + 1)
      guard let name = key.string else { throw fail("a dictionary key is not a string", at: offset) }
      if let first = seen[name] {
        var error = fail("duplicate key \"\(name.prefix(40))\"", at: offset)
        error.firstKey = first
        throw error
      }
      seen[name] = key.place
      members.append(
        PlistNode.Member(key: name, keyPlace: key.place, value: try object(refs[count + i], depth: depth + 1)))
    }
    return .dictionary(members)
  }
}
