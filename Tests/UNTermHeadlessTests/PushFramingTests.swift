import Testing
import UserNotificationsModel

@testable import UNTermShell

/// The refusal of a request line the protocol does not have (a limit of 1000 bytes).
private let bad =
  "ERROR bad request (expected PAYLOAD SIZE NAME, HEADER NAME VALUE, BUNDLE ID, LIST, REMOVE ID or CLEAR, at most 1000 bytes)"

/// The push socket's wire format, decoded without a socket.
@Suite("Push socket framing")
struct PushFramingTests {
  typealias Frame = PushFrameDecoder.Frame

  /// All frames of a stream fed in pieces of `piece` bytes.
  private func frames(_ text: String, piece: Int = .max, limit: Int = 1000) -> [Frame] {
    var decoder = PushFrameDecoder(maximumPayloadBytes: limit)
    var out: [Frame] = []
    let bytes = Array(text.utf8)
    var offset = 0
    repeat {
      let end = min(bytes.count, offset + min(piece, bytes.count))
      decoder.append(bytes[offset..<end])
      offset = end
      while let frame = decoder.next() { out.append(frame) }
    } while offset < bytes.count
    return out
  }

  @Test func aConversationDecodesTheSameWhateverThePieces() {
    let stream =
      "UNTERM-PUSH 1\nHEADER apns-priority 5\nHEADER apns-collapse-id a b\nPAYLOAD 5 a.json\n{\"a\"}"
      + "PAYLOAD 0 empty name.json\nLIST\nHEADER apns-topic t\nREMOVE req 1\nCLEAR\nEND\nPAYLOAD 3 late\nabc"
    var headers = APNsHeaders()
    headers[.priority] = "5"
    headers[.collapseID] = "a b"
    // Headers are for the next payload only; a center command drops any sent before it.
    let expected: [Frame] = [
      .payload(name: "a.json", bytes: Array("{\"a\"}".utf8), headers: headers),
      .payload(name: "empty name.json", bytes: [], headers: APNsHeaders()), .center(.list), .center(.remove("req 1")),
      .center(.clear), .end,
    ]
    for piece in [1, 2, 3, 7, 64, .max] { #expect(frames(stream, piece: piece) == expected, "pieces of \(piece)") }
  }

  @Test(arguments: [
    ("HELLO\n", "ERROR not an unterm push client"),
    ("UNTERM-PUSH 1\nPAYLOAD x a\n", bad),
    ("UNTERM-PUSH 1\nPAYLOAD -1 a\n", bad),
    ("UNTERM-PUSH 1\nPAYLOAD +5 a\n", bad),
    ("UNTERM-PUSH 1\nPAYLOAD 1001 a\n", bad),
    (
      "UNTERM-PUSH 1\nPAYLOAD 99999999999999999999999 a\n",
      bad
    ),
    ("UNTERM-PUSH 1\nPAYLOAD 5\n", bad),
    ("UNTERM-PUSH 1\nHEADER apns-unknown 1\n", bad),
    ("UNTERM-PUSH 1\nHEADER apns-priority\n", bad),
    ("UNTERM-PUSH 1\nREMOVE \n", bad),
    ("UNTERM-PUSH 1\nGET / HTTP/1.1\n", bad),
    ("UNTERM-PUSH 1\n" + String(repeating: "x", count: 5000), "ERROR bad request (a line over 4096 bytes)"),
  ])
  func protocolErrorsEndTheStreamWithAReply(stream: String, reply: String) {
    #expect(frames(stream) == [.refused(reply)])
    #expect(frames(stream + "\nUNTERM-PUSH 1\nEND\n") == [.refused(reply)])
  }

  @Test func aPayloadWaitsForAllItsBytes() {
    var decoder = PushFrameDecoder(maximumPayloadBytes: 100)
    decoder.append(Array("UNTERM-PUSH 1\nPAYLOAD 4 x\nab".utf8))
    #expect(decoder.next() == nil)
    decoder.append(Array("cd".utf8))
    #expect(decoder.next() == .payload(name: "x", bytes: Array("abcd".utf8), headers: APNsHeaders()))
    #expect(decoder.next() == nil)
    #expect(!decoder.isFinished)
  }
}
