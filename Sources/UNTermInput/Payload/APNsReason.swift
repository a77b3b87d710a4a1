import Foundation

/// Every reason APNs gives when it refuses a request, with the `:status` it comes with: one
/// table for lint (which finds the ones a payload and its headers can earn) and for UNTerm's
/// APNs endpoint (which answers with them). Apple's list: "Handling notification responses
/// from APNs",
/// https://developer.apple.com/documentation/usernotifications/handling-notification-responses-from-apns
/// (the `reason` key of the response's JSON body).
package enum APNsReason: String, CaseIterable, Sendable {
  case badCollapseId = "BadCollapseId"
  case badDeviceToken = "BadDeviceToken"
  case badExpirationDate = "BadExpirationDate"
  case badMessageId = "BadMessageId"
  case badPriority = "BadPriority"
  case badTopic = "BadTopic"
  case deviceTokenNotForTopic = "DeviceTokenNotForTopic"
  case duplicateHeaders = "DuplicateHeaders"
  case idleTimeout = "IdleTimeout"
  case invalidPushType = "InvalidPushType"
  case missingDeviceToken = "MissingDeviceToken"
  case missingTopic = "MissingTopic"
  case payloadEmpty = "PayloadEmpty"
  case topicDisallowed = "TopicDisallowed"
  case badCertificate = "BadCertificate"
  case badCertificateEnvironment = "BadCertificateEnvironment"
  case expiredProviderToken = "ExpiredProviderToken"
  case forbidden = "Forbidden"
  case invalidProviderToken = "InvalidProviderToken"
  case missingProviderToken = "MissingProviderToken"
  case unrelatedKeyIdInToken = "UnrelatedKeyIdInToken"
  case badEnvironmentKeyIdInToken = "BadEnvironmentKeyIdInToken"
  case badPath = "BadPath"
  case methodNotAllowed = "MethodNotAllowed"
  case expiredToken = "ExpiredToken"
  case unregistered = "Unregistered"
  case payloadTooLarge = "PayloadTooLarge"
  case tooManyProviderTokenUpdates = "TooManyProviderTokenUpdates"
  case tooManyRequests = "TooManyRequests"
  case internalServerError = "InternalServerError"
  case serviceUnavailable = "ServiceUnavailable"
  case shutdown = "Shutdown"

  /// The HTTP status APNs answers with.
  package var status: Int { Self.table[self]?.status ?? 400 }

  /// Apple's description of the reason.
  package var meaning: String { Self.table[self]?.meaning ?? rawValue }

  /// `400 BadPriority`.
  package var response: String { "\(status) \(rawValue)" }

  /// The reason named `name`, ignoring case ("badtopic").
  package init?(named name: String) {
    guard let reason = Self.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
      return nil
    }
    self = reason
  }

  /// Apple's table: the status and description of each reason.
  private static let table: [APNsReason: (status: Int, meaning: String)] = [
    .badCollapseId: (400, "The collapse identifier exceeds the maximum allowed size."),
    .badDeviceToken: (
      400,
      "The specified device token is invalid. Verify that the request contains a valid token and that the token matches the environment."
    ),
    .badExpirationDate: (400, "The apns-expiration value is invalid."),
    .badMessageId: (400, "The apns-id value is invalid."),
    .badPriority: (400, "The apns-priority value is invalid."),
    .badTopic: (400, "The apns-topic value is invalid."),
    .deviceTokenNotForTopic: (400, "The device token doesn't match the specified topic."),
    .duplicateHeaders: (400, "One or more headers are repeated."),
    .idleTimeout: (400, "Idle timeout."),
    .invalidPushType: (400, "The apns-push-type value is invalid."),
    .missingDeviceToken: (400, "The device token isn't specified in the request :path."),
    .missingTopic: (400, "The apns-topic header of the request isn't specified and is required."),
    .payloadEmpty: (400, "The message payload is empty."),
    .topicDisallowed: (400, "Pushing to this topic is not allowed."),
    .badCertificate: (403, "The certificate is invalid."),
    .badCertificateEnvironment: (403, "The client certificate is for the wrong environment."),
    .expiredProviderToken: (403, "The provider token is stale and a new token should be generated."),
    .forbidden: (403, "The specified action is not allowed."),
    .invalidProviderToken: (
      403,
      "The provider token is not valid, or the token signature can't be verified."
    ),
    .missingProviderToken: (
      403,
      "No provider certificate was used to connect to APNs, and the authorization header is missing or no provider token is specified."
    ),
    .unrelatedKeyIdInToken: (
      403,
      "The key ID in the provider token isn't related to the key ID of the token used in the first push of this connection."
    ),
    .badEnvironmentKeyIdInToken: (
      403, "The key ID in the provider token is unrelated to this connection's environment."
    ),
    .badPath: (404, "The request contained an invalid :path value."),
    .methodNotAllowed: (405, "The specified :method value isn't POST."),
    .expiredToken: (410, "The device token has expired."),
    .unregistered: (410, "The device token is inactive for the specified topic."),
    .payloadTooLarge: (413, "The message payload is too large."),
    .tooManyProviderTokenUpdates: (429, "The provider's authentication token is being updated too often."),
    .tooManyRequests: (429, "Too many requests were made consecutively to the same device token."),
    .internalServerError: (500, "An internal server error occurred."),
    .serviceUnavailable: (503, "The service is unavailable."),
    .shutdown: (503, "The APNs server is shutting down."),
  ]
}
