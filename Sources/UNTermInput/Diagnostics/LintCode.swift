/// Every finding `lint` (and the loaders behind it) can report, with its severity and what it
/// means. This is the one list: `unterm lint --explain CODE`, README's table of codes and the
/// rules of machine-readable reports are all read from it, and a finding can only be made with
/// one of these codes.
///
/// To add a code: add a case with its kebab-case raw value, and its entry in `info`; the
/// compiler asks for the entry, and a test asks for README's row.
package enum LintCode: String, CaseIterable, Sendable, Hashable {
  // Files
  case unreadableFile = "unreadable-file"
  case invalidFile = "invalid-file"
  case invalidJSON = "invalid-json"
  case invalidUTF8 = "invalid-utf8"
  case tooDeep = "too-deep"
  case duplicateKey = "duplicate-key"
  case scriptSyntax = "script-syntax"
  case scriptMissingFile = "script-missing-file"
  case missingSnapshot = "missing-snapshot"
  // Shapes and values, in every kind of file
  case typeMismatch = "type-mismatch"
  case missingKey = "missing-key"
  case unknownKey = "unknown-key"
  case invalidValue = "invalid-value"
  case numberOutOfRange = "number-out-of-range"
  // Payloads
  case payloadTooLarge = "payload-too-large"
  case notAnObject = "not-an-object"
  case missingAps = "missing-aps"
  case unknownApsKey = "unknown-aps-key"
  case unknownAlertKey = "unknown-alert-key"
  case unknownSoundKey = "unknown-sound-key"
  case liveActivityKey = "live-activity-key"
  // Live Activity pushes (aps.event)
  case activityStartIncomplete = "activity-start-incomplete"
  case activityTimestamp = "activity-timestamp"
  case activityNull = "activity-null"
  case activityDateEpoch = "activity-date-epoch"
  case activityDates = "activity-dates"
  case deprecatedSummaryArg = "deprecated-summary-arg"
  case legacyAlertKey = "legacy-alert-key"
  case localizationKey = "localization-key"
  case locArgsMismatch = "loc-args-mismatch"
  case locArgsWithoutKey = "loc-args-without-key"
  case boolFlag = "bool-flag"
  case invalidFlag = "invalid-flag"
  case criticalEntitlement = "critical-entitlement"
  case unknownInterruptionLevel = "unknown-interruption-level"
  case relevanceScoreRange = "relevance-score-range"
  case unknownCategory = "unknown-category"
  case mutableContentWithoutAlert = "mutable-content-without-alert"
  case contentAvailableWithAlert = "content-available-with-alert"
  case nothingToShow = "nothing-to-show"
  case controlCharacters = "control-characters"
  // The APNs request's headers
  case unknownApnsHeader = "unknown-apns-header"
  case invalidPushType = "invalid-push-type"
  case pushTypeMismatch = "push-type-mismatch"
  case pushTypeNotShown = "push-type-not-shown"
  case badPriority = "bad-priority"
  case badCollapseID = "bad-collapse-id"
  case badExpiration = "bad-expiration"
  case expiredPush = "expired-push"
  case badTopic = "bad-topic"
  case topicMismatch = "topic-mismatch"
  // Attachments
  case attachmentWithoutMutableContent = "attachment-without-mutable-content"
  case remoteAttachment = "remote-attachment"
  case attachmentRejected = "attachment-rejected"
  case attachmentMislabelled = "attachment-mislabelled"
  // Categories
  case emptyIdentifier = "empty-identifier"
  case emptyTitle = "empty-title"
  case unknownOption = "unknown-option"
  case unsupportedFormat = "unsupported-format"
  case duplicateCategory = "duplicate-category"
  case duplicateActionIdentifier = "duplicate-action-identifier"
  case tooManyActions = "too-many-actions"
  case bannerShowsTwoActions = "banner-shows-two-actions"
  case stackSummaryFormat = "stack-summary-format"
  case textInputIncomplete = "text-input-incomplete"
  // Content extensions
  case conflictingKeys = "conflicting-keys"
  case invalidPlist = "invalid-plist"
  case wrongExtensionPoint = "wrong-extension-point"
  case largeSizeRatio = "large-size-ratio"
  case invalidElement = "invalid-element"
  case buttonWithoutAction = "button-without-action"
  case buttonNotInteractive = "button-not-interactive"
  case templateUnclosed = "template-unclosed"
  case templateUnknownField = "template-unknown-field"
  case templateMissingKey = "template-missing-key"
  case duplicateExtensionCategory = "duplicate-extension-category"
  case extensionCategoryUnregistered = "extension-category-unregistered"
  case extensionSize = "extension-size"
  case extensionOverflow = "extension-overflow"
  case extensionInitialOverflow = "extension-initial-overflow"
  case extensionWithoutPayload = "extension-without-payload"
  // The app's strings
  case invalidStrings = "invalid-strings"
  case duplicateStringKey = "duplicate-string-key"
  case undefinedPluralVariable = "undefined-plural-variable"
  case missingLocalization = "missing-localization"
  case locArgsKindMismatch = "loc-args-kind-mismatch"

  /// What a code means.
  package struct Info: Sendable {
    /// The code the row is for.
    package var code: LintCode
    /// The severity a finding with this code has (the default level of a report's rule).
    /// `extension-overflow` and `extension-without-payload` are raised to errors by `lint --strict`.
    package var severity: Severity
    /// One line: what was found.
    package var summary: String
    /// A few sentences: why it matters on iOS and what to do about it.
    package var help: String
    /// The reason APNs refuses such a request with, when it does.
    package var apns: APNsReason?
    /// What a finding about a value points at: its key (a missing value, a wrong type, a key
    /// that should not be there: the default), or the value (a value of the right type that is
    /// not allowed).
    package var anchor: FindingAnchor

    init(
      _ code: LintCode, _ severity: Severity, _ summary: String, _ help: String, apns: APNsReason? = nil,
      anchor: FindingAnchor = .key
    ) {
      self.code = code
      self.severity = severity
      self.summary = summary
      self.help = help
      self.apns = apns
      self.anchor = anchor
    }
  }

  package var severity: Severity { info.severity }
  /// One line; a refusal APNs makes names its status and reason, as APNs answers.
  package var summary: String { info.summary + (info.apns.map { " APNs: \($0.response)." } ?? "") }
  package var help: String { info.help }
  /// The reason APNs refuses such a request with, when it does.
  package var apnsReason: APNsReason? { info.apns }
  package var anchor: FindingAnchor { info.anchor }

  /// This code's severity, summary, help, APNs reason and anchor, from `LintCode.table`.
  package var info: Info {
    guard let info = Self.infoByCode[self] else { preconditionFailure("\(rawValue) is missing from LintCode.table") }
    return info
  }

  private static let infoByCode = Dictionary(uniqueKeysWithValues: table.map { ($0.code, $0) })
}
