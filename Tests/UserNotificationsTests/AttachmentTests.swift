import Foundation
import Testing
import UserNotificationsModel

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

  private let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0, count: 32)

  @Test func theTypeComesFromTheFileName() throws {
    let attachment = try UNNotificationAttachment(identifier: "", url: try file("picture.png", png))
    #expect(attachment.type == "public.png")
    #expect(attachment.contentMismatch == nil)
    #expect(!attachment.identifier.isEmpty)
  }

  @Test func theTypeHintWinsOverTheName() throws {
    let attachment = try UNNotificationAttachment(
      identifier: "x", url: try file("download.bin", jpeg),
      options: [UNNotificationAttachmentOptionsTypeHintKey: "public.jpeg"])
    #expect(attachment.type == "public.jpeg")
    #expect(attachment.contentMismatch == nil)
  }

  @Test func remoteURLIsRejected() {
    #expect(throws: UNError.self) {
      try UNNotificationAttachment(identifier: "x", url: URL(string: "https://example.com/a.png")!)
    }
  }

  /// Issue 17.3: the bytes decide nothing. A file named .png holding text is attached as a PNG
  /// (iOS types it by its name); the mismatch is the diagnostic.
  @Test func contentOfAnotherTypeIsAttachedAsItsNameSays() throws {
    let text = try UNNotificationAttachment(identifier: "x", url: try file("fake.png", Array("not a picture".utf8)))
    #expect(text.type == "public.png")
    #expect(text.contentFormat == nil)
    #expect(
      text.contentMismatch
        == "the file name says PNG but the content is not PNG (its first bytes match no supported format)")
    let jpegNamedPNG = try UNNotificationAttachment(identifier: "y", url: try file("photo.png", jpeg))
    #expect(jpegNamedPNG.type == "public.png")
    #expect(jpegNamedPNG.contentMismatch == "the file name says PNG but the content is JPEG")
    let hinted = try UNNotificationAttachment(
      identifier: "z", url: try file("photo.jpg", png),
      options: [UNNotificationAttachmentOptionsTypeHintKey: "public.mp3"])
    #expect(hinted.type == "public.mp3")
    #expect(hinted.contentMismatch == "the type hint says MP3 but the content is PNG")
  }

  /// A PNG with no extension and no hint: iOS cannot type it, whatever its bytes say.
  @Test(arguments: ["picture", "picture.bin", "picture.webp"])
  func aNameThatNamesNoTypeIsUnrecognized(name: String) throws {
    let url = try file(name, png)
    do {
      _ = try UNNotificationAttachment(identifier: "x", url: url)
      Issue.record("expected an error")
    } catch let error as UNError {
      #expect(error.code == .attachmentUnrecognizedType)
      #expect(error.reason.contains("names no supported type"), "\(error.reason)")
      #expect(error.reason.contains("UNNotificationAttachmentOptionsTypeHintKey"))
    }
  }

  @Test func anUnknownTypeHintIsUnrecognized() throws {
    let url = try file("picture.png", png)
    #expect(
      throws: UNError(
        .attachmentUnrecognizedType, "\(url.path): the type hint \"public.webp\" is not a supported attachment type")
    ) {
      try UNNotificationAttachment(
        identifier: "x", url: url, options: [UNNotificationAttachmentOptionsTypeHintKey: "public.webp"])
    }
  }

  /// The size limit is the named type's: a PNG named .mp3 is held to audio's 5 MB.
  @Test func theLimitIsTheNamedTypes() throws {
    let url = try file("big.mp3", png + Array(repeating: 0, count: 6_000_000))
    do {
      _ = try UNNotificationAttachment(identifier: "x", url: url)
      Issue.record("expected an error")
    } catch let error as UNError {
      #expect(error.code == .attachmentInvalidFileSize)
      #expect(error.reason.contains("at most 5000000 bytes for audio"), "\(error.reason)")
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
