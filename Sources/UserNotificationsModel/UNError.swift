import Foundation

/// The error domain of UserNotifications errors.
// swift-format-ignore: AlwaysUseLowerCamelCase
public let UNErrorDomain = "UNErrorDomain"

/// An error from the UserNotifications framework.
public struct UNError: Error, CustomStringConvertible, Hashable, Sendable {
  /// The codes Apple's framework uses.
  public enum Code: Int, Sendable, Hashable {
    case notificationsNotAllowed = 1
    case attachmentInvalidURL = 100
    case attachmentUnrecognizedType = 101
    case attachmentInvalidFileSize = 102
    case attachmentNotInDataStore = 103
    case attachmentMoveIntoDataStoreFailed = 104
    case attachmentCorrupt = 105
    case notificationInvalidNoDate = 1400
    case notificationInvalidNoContent = 1401
    case contentProvidingObjectNotAllowed = 1500
    case contentProvidingInvalid = 1501
    case badgeInputInvalid = 1600
  }

  /// What went wrong.
  public let code: Code
  /// A sentence for a person, naming the file or value at fault.
  public let reason: String

  public init(_ code: Code, _ reason: String = "") {
    self.code = code
    self.reason = reason
  }

  public static var attachmentInvalidURL: Code { .attachmentInvalidURL }
  public static var attachmentUnrecognizedType: Code { .attachmentUnrecognizedType }
  public static var attachmentInvalidFileSize: Code { .attachmentInvalidFileSize }
  public static var attachmentCorrupt: Code { .attachmentCorrupt }

  public var errorCode: Int { code.rawValue }

  public var localizedDescription: String { description }

  public var description: String {
    reason.isEmpty ? "UNErrorDomain error \(code.rawValue)" : reason
  }
}

extension UNError.Code {
  /// Lets `catch UNError.attachmentInvalidURL` match, as it does on iOS.
  public static func ~= (code: UNError.Code, error: any Error) -> Bool {
    (error as? UNError)?.code == code
  }
}
