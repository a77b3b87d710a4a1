import Foundation
import Testing
import UserNotifications

@Suite("Attachment checks")
struct AttachmentTests {
  private func file(_ name: String, _ bytes: [UInt8]) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("unterm-att-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let url = dir.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url
  }

  private let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 32)

  @Test func recognizesTypeFromContent() throws {
    let attachment = try UNNotificationAttachment(identifier: "", url: try file("picture.png", png))
    #expect(attachment.type == "public.png")
    #expect(!attachment.identifier.isEmpty)
  }

  @Test func remoteURLIsRejected() {
    #expect(throws: UNError.self) {
      try UNNotificationAttachment(identifier: "x", url: URL(string: "https://example.com/a.png")!)
    }
  }

  @Test func mislabelledContentIsRejected() throws {
    let url = try file("fake.png", Array("this is not a picture".utf8))
    do {
      _ = try UNNotificationAttachment(identifier: "x", url: url)
      Issue.record("expected an error")
    } catch let error as UNError {
      #expect(error.code == .attachmentUnrecognizedType)
    }
  }

  @Test func imagesOverTenMegabytesAreRejected() throws {
    let url = try file("big.png", png + Array(repeating: 0, count: 10_000_001))
    do {
      _ = try UNNotificationAttachment(identifier: "x", url: url)
      Issue.record("expected an error")
    } catch let error as UNError {
      #expect(error.code == .attachmentInvalidFileSize)
    }
  }

  @Test(arguments: [
    ([0xFF, 0xD8, 0xFF, 0xE0] as [UInt8], UNAttachmentFormat.jpeg),
    (Array("GIF89a".utf8), .gif),
    (Array("RIFF\0\0\0\0WAVE".utf8), .wav),
    (Array("ID3\u{3}".utf8), .mp3),
    ([0, 0, 0, 0x18] + Array("ftypmp42".utf8), .mp4),
    ([0, 0, 0, 0x18] + Array("ftypM4A ".utf8), .m4a),
  ])
  func sniffsFormats(bytes: [UInt8], format: UNAttachmentFormat) {
    #expect(UNAttachmentFormat(sniffing: bytes) == format)
  }
}
