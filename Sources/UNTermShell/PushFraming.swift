import UserNotificationsModel

/// The push socket's wire format as a pure decoder: bytes in, frames out, no I/O, so it can be
/// fuzzed on its own and fed by any reading loop.
///
/// A client sends `UNTERM-PUSH 1\n`, then requests: per payload any `HEADER NAME VALUE\n`
/// lines (APNs headers for that payload only), at most one `BUNDLE ID\n` line (the app it is
/// for, over the payload's own: `unterm push --bundle`; clients without it send none),
/// `PAYLOAD SIZE NAME\n` and SIZE bytes; the
/// center's `LIST`, `REMOVE ID` and `CLEAR` lines (`CenterCommands`); and `END\n` when it is
/// done. A line holds at most `maximumLineBytes` bytes; SIZE is decimal digits, at most
/// `maximumPayloadBytes`. Anything else ends the connection with a refusal.
package struct PushFrameDecoder: Sendable {
  /// What the client sent, frame by frame.
  package enum Frame: Equatable, Sendable {
    /// A payload, the name it was sent under and the headers sent before it, and the app a
    /// `BUNDLE` line named.
    case payload(name: String, bytes: [UInt8], headers: APNsHeaders, bundle: String? = nil)
    /// A question or an order for the session's center.
    case center(CenterCommands.Command)
    /// The client is done.
    case end
    /// The stream broke the protocol: the reply line to send before closing.
    case refused(String)
  }

  /// The first line a client sends.
  package static let greeting = "UNTERM-PUSH 1"
  /// The longest line, newline excluded.
  package static let maximumLineBytes = 4096

  package let maximumPayloadBytes: Int
  private var buffer: [UInt8] = []
  /// Where unread bytes start in `buffer`.
  private var start = 0
  /// Whether the greeting has arrived.
  package private(set) var isGreeted = false
  /// A payload header read, its body not yet complete.
  private var pending: (name: String, size: Int)?
  /// Headers sent for the next payload.
  private var headers = APNsHeaders()
  /// The app named for the next payload.
  private var bundle: String?
  /// Whether the stream is over (after `END` or a refusal): no more frames come.
  package private(set) var isFinished = false

  package init(maximumPayloadBytes: Int) {
    self.maximumPayloadBytes = maximumPayloadBytes
  }

  /// Bytes received; nothing is kept once the stream is over.
  package mutating func append(_ bytes: some Sequence<UInt8>) {
    guard !isFinished else { return }
    if start > 0 && start >= buffer.count / 2 {
      buffer.removeSubrange(..<start)
      start = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// The bytes received and not yet decoded.
  package var unreadCount: Int { buffer.count - start }

  /// The next complete frame, or `nil` until more bytes arrive (or for good once finished).
  package mutating func next() -> Frame? {
    guard !isFinished else { return nil }
    if let (name, size) = pending {
      guard unreadCount >= size else { return nil }
      let bytes = Array(buffer[start..<(start + size)])
      start += size
      pending = nil
      defer {
        headers = APNsHeaders()
        bundle = nil
      }
      return .payload(name: name, bytes: bytes, headers: headers, bundle: bundle)
    }
    guard let line = nextLine() else {
      return unreadCount > Self.maximumLineBytes
        ? finish(.refused("ERROR bad request (a line over \(Self.maximumLineBytes) bytes)")) : nil
    }
    guard isGreeted else {
      guard line == Self.greeting else { return finish(.refused("ERROR not an unterm push client")) }
      isGreeted = true
      return next()
    }
    if line == "END" { return finish(.end) }
    if let command = CenterCommands.Command(line: line) {
      headers = APNsHeaders()
      bundle = nil
      return .center(command)
    }
    if line.hasPrefix("BUNDLE ") {
      let id = line.dropFirst("BUNDLE ".count)
      guard CategoryRegistry.isBundleIdentifier(id) else {
        return finish(
          .refused("ERROR bad request (BUNDLE takes a bundle identifier: letters, digits, dots and hyphens)"))
      }
      bundle = String(id)
      return next()
    }
    if let (field, value) = Self.headerLine(line) {
      headers[field] = value
      return next()
    }
    guard let header = Self.payloadHeader(line, limit: maximumPayloadBytes) else {
      return finish(
        .refused(
          "ERROR bad request (expected PAYLOAD SIZE NAME, HEADER NAME VALUE, BUNDLE ID, LIST, REMOVE ID or CLEAR, at most \(maximumPayloadBytes) bytes)"
        ))
    }
    pending = header
    return next()
  }

  /// `PAYLOAD SIZE NAME`: the name and the size, when the size is digits within the limit.
  package static func payloadHeader(_ line: String, limit: Int) -> (name: String, size: Int)? {
    guard line.hasPrefix("PAYLOAD ") else { return nil }
    let rest = line.dropFirst("PAYLOAD ".count)
    guard let space = rest.firstIndex(of: " ") else { return nil }
    let digits = rest[..<space]
    // At most 9 digits before converting: nothing longer can be within the limit, and no
    // conversion can overflow.
    guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
      let size = Int(digits), size <= limit
    else { return nil }
    return (String(rest[rest.index(after: space)...]), size)
  }

  /// `HEADER NAME VALUE` with a header UNTerm knows: the header and its value.
  package static func headerLine(_ line: String) -> (APNsHeaders.Field, String)? {
    let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    guard fields.count == 3, fields[0] == "HEADER", let field = APNsHeaders.Field(rawValue: String(fields[1])) else {
      return nil
    }
    return (field, String(fields[2]))
  }

  /// The next line without its newline, decoded as UTF-8 (invalid bytes become U+FFFD).
  private mutating func nextLine() -> String? {
    let window = buffer[start..<min(buffer.count, start + Self.maximumLineBytes + 1)]
    guard let newline = window.firstIndex(of: 0x0A) else { return nil }
    let line = String(decoding: buffer[start..<newline], as: UTF8.self)
    start = newline + 1
    return line
  }

  private mutating func finish(_ frame: Frame) -> Frame {
    isFinished = true
    pending = nil
    headers = APNsHeaders()
    bundle = nil
    buffer = []
    start = 0
    return frame
  }
}
