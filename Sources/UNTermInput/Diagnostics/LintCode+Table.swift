/// Every lint code's severity, one-line summary, help, the reason APNs refuses it with and what
/// its findings point at: one row per code, in the order the codes are declared. A test checks
/// that every code has exactly one row (`LintCodeTableTests`); `lint --explain`, SARIF's rules and
/// the generated reference pages read it.
extension LintCode {
  static let table: [Info] = [
    Info(
      .unreadableFile, .error, "A file named on the command line (or by a descriptor) is missing or cannot be read.",
      "Check the path and the permissions. lint exits 66 when a file is missing or unreadable."),
    Info(
      .invalidFile, .error, "A file cannot be loaded as what it was given as (a theme, for example).",
      "The message names the place and the problem; fix the file so it loads."),
    Info(
      .invalidJSON, .error, "The file is not valid JSON.",
      "APNs and simctl refuse a body that is not JSON. The finding gives the line and column of the first problem."),
    Info(
      .invalidUTF8, .error, "The file is not valid UTF-8 (or holds a lone surrogate escape).",
      "APNs payloads are UTF-8 JSON; UTF-16 and UTF-32 files, invalid byte sequences and unpaired \\ud800-style escapes are refused."
    ),
    Info(
      .tooDeep, .error, "The JSON nests deeper than 32 levels.",
      "Notification payloads are small and shallow; UNTerm refuses deeper nesting before parsing so hostile input cannot exhaust the stack."
    ),
    Info(
      .duplicateKey, .error, "An object has the same key twice.",
      "JSON parsers disagree on which value wins, so the payload can mean different things to your server, APNs and the device. Keep one."
    ),
    Info(
      .scriptSyntax, .error, "A session script (.session) has a syntax error.",
      "The finding gives the line and column; `unterm run --help` lists the commands and their arguments."),
    Info(
      .scriptMissingFile, .error, "A file, folder or theme a session script names does not exist.",
      "Paths in a script are relative to the script's folder. unterm run would stop at that line with exit 66; fix the path or add the file."
    ),
    Info(
      .missingSnapshot, .warning, "A script's snapshot file does not exist yet.",
      "The next unterm run records NAME.txt beside the script; with the CI environment variable set, that run fails. Record it (unterm run) and commit it."
    ),
    Info(
      .typeMismatch, .error, "A value has the wrong type (a number where a string is expected, for example).",
      "iOS ignores or rejects a value of the wrong type; the message says which type is expected."),
    Info(
      .missingKey, .error, "A required key is missing.",
      "The message names the key and what it must hold."),
    Info(
      .unknownKey, .warning, "A key is not one UNTerm or iOS reads; it is ignored.",
      "Often a misspelling (the message suggests the closest known key). Keys are case-sensitive."),
    Info(
      .invalidValue, .error, "A value is of the right type but not an allowed value.",
      "The message gives the allowed values or range.", anchor: .value),
    Info(
      .numberOutOfRange, .error, "A number is outside the range its key accepts, or too large to be represented.",
      "Every number UNTerm reads from a file has a documented range (README, \"Numbers in input files\"); the message names the key and the range. A number no 64-bit integer or double can hold cannot mean what it says.",
      anchor: .value),
    Info(
      .payloadTooLarge, .error, "The payload is over 4096 bytes (5120 for a VoIP push).",
      "APNs refuses larger payloads with 413 PayloadTooLarge. Every byte of the file counts, as sent, except a top-level apns-headers object, which is not part of the payload; move large content to a download in a service extension.",
      apns: .payloadTooLarge),
    Info(
      .notAnObject, .error, "The payload is not a JSON object.",
      "A payload is an object with an \"aps\" dictionary; custom keys go next to it."),
    Info(
      .missingAps, .error, "The payload has no \"aps\" dictionary.",
      "APNs and simctl require one; it holds the alert, badge, sound and the flags iOS reads."),
    Info(
      .unknownApsKey, .warning, "A key inside \"aps\" is not one iOS knows; it is ignored.",
      "Custom data belongs next to \"aps\", not inside it. The message suggests the closest known key."),
    Info(
      .unknownAlertKey, .warning, "A key inside aps.alert is not one iOS knows; it is ignored.",
      "The alert dictionary takes title, subtitle, body and their loc-key / loc-args forms, and launch-image."),
    Info(
      .unknownSoundKey, .warning, "A key inside a critical-sound dictionary is not one iOS knows; it is ignored.",
      "A sound dictionary takes critical, name and volume."),
    Info(
      .liveActivityKey, .note, "A Live Activity key appears in a notification payload.",
      "Keys such as content-state, timestamp and event update Live Activities; they produce no banner and UNTerm ignores them."
    ),
    Info(
      .activityStartIncomplete, .error, "A Live Activity start lacks an alert, attributes-type or attributes.",
      "APNs accepts such a push with 200, and the device drops it: a start must name the app's ActivityAttributes type (attributes-type), give its static data (attributes) and the first content-state, and carry an alert so the person is not surprised."
    ),
    Info(
      .activityTimestamp, .warning, "A Live Activity update or end has no timestamp, or one in milliseconds.",
      "aps.timestamp is the Unix time in seconds the server sent the push; the device keeps only the newest update by it and drops an older one. Without it an update cannot be ordered; a value in milliseconds reads as a date thousands of years ahead, after which every real update looks older and is dropped."
    ),
    Info(
      .activityNull, .warning, "A content-state or attributes value is null.",
      "The device decodes content-state into the app's ContentState with JSONDecoder: null decodes only into an optional property, and a non-optional one makes the whole update fail. Leave an optional value out instead of sending null.",
      anchor: .value),
    Info(
      .activityDateEpoch, .note, "A number in content-state would be a Date decades ahead (or is in milliseconds).",
      "iOS decodes content-state with JSONDecoder's default date strategy: a Date is a number of seconds since 2001-01-01 00:00:00 UTC, not 1970. A Unix time sent for a Date lands 31 years late (a countdown shows years), and milliseconds thousands of years late. If the field is a Date, send timeIntervalSinceReferenceDate (Unix time − 978307200); if it is a count, ignore this note.",
      anchor: .value),
    Info(
      .activityDates, .warning,
      "A stale-date or dismissal-date is before the push's timestamp, or a dismissal-date is over 4 hours after it.",
      "A stale-date in the past makes the activity stale at once; a dismissal-date in the past removes the ended activity at once; one more than 4 hours after the end is cut to 4 hours. Dates are Unix seconds.",
      anchor: .value),
    Info(
      .deprecatedSummaryArg, .note, "aps.alert.summary-arg is deprecated.",
      "iOS ignores it since iOS 15 (as summary-arg-count): a collapsed stack shows its newest notification with the others' cards behind it, no summary text. UNTerm uses it only with --stack-summary ios12, the iOS 12 to 14 summary."
    ),
    Info(
      .legacyAlertKey, .note, "A pre-iOS 10 alert key is used.",
      "action and action-loc-key are ignored by current iOS; actions come from the registered category."),
    Info(
      .localizationKey, .note, "Alert text comes from the app's Localizable.strings (a loc-key).",
      "Without the app's strings, UNTerm uses the key itself as the format, as iOS does when the key is missing: its %@ specifiers are filled from the loc-args, and arguments without a specifier do not appear. The device shows the localized text.",
      anchor: .value),
    Info(
      .locArgsMismatch, .warning, "A loc-key's placeholders and its loc-args disagree in number.",
      "iOS fills %@ and %n$@ placeholders from the args; missing arguments show as empty and extra ones are dropped.",
      anchor: .value),
    Info(
      .locArgsWithoutKey, .warning, "loc-args are given without the matching loc-key.",
      "The arguments have no effect without the key they fill."),
    Info(
      .boolFlag, .warning, "A flag is a JSON boolean where APNs expects the number 1.",
      "content-available, mutable-content and critical are documented as the number 1; send 1, or leave the key out."),
    Info(
      .invalidFlag, .warning, "A flag has a number other than 1.",
      "iOS treats content-available and mutable-content as set only when they are 1.", anchor: .value),
    Info(
      .criticalEntitlement, .note, "The notification asks for a critical alert.",
      "Critical alerts need Apple's com.apple.developer.usernotifications.critical-alerts entitlement; without it iOS plays a normal sound."
    ),
    Info(
      .unknownInterruptionLevel, .warning, "aps.interruption-level is not a known level.",
      "iOS falls back to \"active\". The levels are passive, active, time-sensitive and critical.", anchor: .value),
    Info(
      .relevanceScoreRange, .warning, "aps.relevance-score is outside 0 to 1.",
      "iOS clamps it; only Live Activity updates use larger values.", anchor: .value),
    Info(
      .unknownCategory, .warning, "The payload's category is not registered.",
      "On iOS the notification then shows with no action buttons and no error. Identifiers match case-sensitively; the message suggests the closest registered one.",
      anchor: .value),
    Info(
      .mutableContentWithoutAlert, .warning, "mutable-content is 1 but the notification has no alert text.",
      "iOS runs a service extension only for notifications with a title, subtitle or body."),
    Info(
      .contentAvailableWithAlert, .warning, "content-available is 1 together with an alert, sound or badge.",
      "A background update should carry only content-available (apns-push-type background, priority 5); otherwise it is sent as a visible alert."
    ),
    Info(
      .nothingToShow, .warning, "The notification has no alert text, sound, badge or content-available.",
      "iOS shows nothing and wakes nothing for it."),
    Info(
      .controlCharacters, .warning, "Alert text holds control characters or bidi embeddings, overrides or isolates.",
      "UNTerm shows them as visible placeholders; on a device they are invisible, and a bidi override can make text read differently from what it says (\"Trojan Source\"). Left-to-right and right-to-left marks, ordinary in right-to-left text, and line breaks are not reported.",
      anchor: .value),
    Info(
      .unknownApnsHeader, .warning,
      "The apns-headers object has a key that is not an APNs header UNTerm reads, or a value of the wrong type.",
      "apns-headers takes apns-push-type, apns-priority, apns-collapse-id, apns-expiration and apns-topic, as strings (the priority and the expiration may be numbers). The message suggests the closest name."
    ),
    Info(
      .invalidPushType, .error, "apns-push-type is not a push type APNs knows.",
      "The types are alert, background, location, voip, complication, fileprovider, mdm, liveactivity and pushtotalk.",
      apns: .invalidPushType, anchor: .value),
    Info(
      .pushTypeMismatch, .error,
      "apns-push-type does not match the payload: a background push with an alert, sound or badge, or an alert push with only content-available.",
      "Apple: the header must accurately reflect the contents of the payload; on a mismatch APNs may return an error, delay the notification or drop it. Background pushes carry only content-available.",
      apns: .invalidPushType, anchor: .value),
    Info(
      .pushTypeNotShown, .note, "The push type is not one the notification center shows.",
      "voip, location, complication, fileprovider, mdm, liveactivity and pushtotalk pushes go to the app's frameworks (PushKit, Core Location, ActivityKit…), not to the notification center; UNTerm shows nothing for them.",
      anchor: .value),
    Info(
      .badPriority, .error, "apns-priority is not 10, 5 or 1, or is 10 (the default) for a background push.",
      "Background pushes, and pushes with only content-available, must use priority 5 (or 1): Apple calls priority 10 an error for them.",
      apns: .badPriority, anchor: .value),
    Info(
      .badCollapseID, .error, "apns-collapse-id is longer than 64 bytes.",
      "The collapse identifier merges notifications: one with the same identifier replaces the delivered one. APNs takes at most 64 bytes of UTF-8.",
      apns: .badCollapseId, anchor: .value),
    Info(
      .badExpiration, .error, "apns-expiration is not a UNIX time in whole seconds.",
      "The expiration is the UTC date, in seconds since 1970, after which APNs discards the push; 0 delivers once, at once, and is never stored.",
      apns: .badExpirationDate, anchor: .value),
    Info(
      .expiredPush, .warning, "The push's apns-expiration has passed: APNs discards it and the device never shows it.",
      "lint compares with the current time, a session with its own clock (a script's virtual one); UNTerm does not deliver an expired push.",
      anchor: .value),
    Info(
      .badTopic, .error, "apns-topic is not a bundle identifier, or lacks the suffix its push type needs.",
      "The topic is the app's bundle identifier; VoIP pushes add .voip, Live Activities .push-type.liveactivity, location pushes .location-query and so on.",
      apns: .badTopic, anchor: .value),
    Info(
      .topicMismatch, .error, "apns-topic names another app than the payload's Simulator Target Bundle.",
      "A device token belongs to one app: APNs refuses a topic that is not that app's.",
      apns: .deviceTokenNotForTopic, anchor: .value),
    Info(
      .attachmentWithoutMutableContent, .warning, "An attachment URL is given but aps.mutable-content is not 1.",
      "Attachments are added by a service extension, which runs only when mutable-content is 1."),
    Info(
      .remoteAttachment, .note, "The attachment is downloaded at delivery.",
      "The service extension downloads http(s) attachments within its time budget (--service-timeout); lint does not fetch them.",
      anchor: .value),
    Info(
      .attachmentRejected, .warning, "The attachment would be rejected; the notification would show without it.",
      "The file must exist inside the media folder (--media-dir, default the payload's folder), be a supported image, audio or movie type, and be within iOS's size limits.",
      anchor: .value),
    Info(
      .attachmentMislabelled, .warning, "The attachment's content does not match its file name or type hint.",
      "The file name or the type hint says one format and the magic bytes another. iOS types an attachment by its type hint, else by its file name's extension, and attaches it as that type: an image whose bytes are another format shows as unreadable. Name the file for what it holds, or give the right type hint.",
      anchor: .value),
    Info(
      .emptyIdentifier, .error, "A category or action identifier is empty.",
      "Payloads and responses name categories and actions by identifier; an empty one cannot be matched.",
      anchor: .value),
    Info(
      .emptyTitle, .warning, "An action has no title.",
      "Its button would be blank.", anchor: .value),
    Info(
      .unknownOption, .error, "An action or category option is not one iOS has.",
      "Action options: authenticationRequired, destructive, foreground. Category options: customDismissAction, allowInCarPlay, hiddenPreviewsShowTitle, hiddenPreviewsShowSubtitle, allowAnnouncement.",
      anchor: .value),
    Info(
      .unsupportedFormat, .warning, "A summary or placeholder format uses a specifier iOS does not fill.",
      "hiddenPreviewsBodyPlaceholder takes only %u (the count); categorySummaryFormat takes %u and %@ (the count and the summary argument).",
      anchor: .value),
    Info(
      .duplicateCategory, .error, "Two categories have the same identifier.",
      "Only one of them can be registered; the other is silently lost.", anchor: .value),
    Info(
      .duplicateActionIdentifier, .error, "An action identifier is used by more than one action.",
      "Apple requires action identifiers to be unique across all categories; a response could not say which action was chosen.",
      anchor: .value),
    Info(
      .tooManyActions, .warning, "A category has more than 10 actions.",
      "iOS shows at most 10 in the expanded view; the rest never appear."),
    Info(
      .bannerShowsTwoActions, .note, "A category has more than two actions.",
      "Where space is short (a banner) iOS shows only the first two; put the most used first."),
    Info(
      .stackSummaryFormat, .note, "A category has a categorySummaryFormat, which current iOS does not show.",
      "iOS 12 to 14 wrote it under a collapsed stack, with the summary-arg of the notifications behind; since iOS 15 the arguments are ignored (Apple's header: \"summaryArgument is ignored\") and a stack shows its newest notification with the others' cards behind it, no summary text. UNTerm shows the iOS 12 to 14 summary only with --stack-summary ios12."
    ),
    Info(
      .textInputIncomplete, .warning, "A text-input action has no send-button title or no placeholder.",
      "The field's button would be blank, or the empty field would give the user no hint."),
    Info(
      .conflictingKeys, .error, "A descriptor gives both NSExtensionAttributes and infoPlist.",
      "Give the attributes inline or point at the extension's Info.plist, not both."),
    Info(
      .invalidPlist, .error, "An Info.plist cannot be read as a property list dictionary.",
      "Point infoPlist (or --extension) at the content extension's Info.plist."),
    Info(
      .wrongExtensionPoint, .warning, "The Info.plist is not a notification content extension's.",
      "NSExtensionPointIdentifier should be com.apple.usernotifications.content-extension.", anchor: .value),
    Info(
      .largeSizeRatio, .warning, "UNNotificationExtensionInitialContentSizeRatio is very large.",
      "The ratio is height ÷ width of the view while it loads; a large one makes a tall blank view before the content arrives.",
      anchor: .value),
    Info(
      .invalidElement, .error, "An element of a described content view has no kind, or more than one.",
      "Each element is an object with exactly one of image, label, spacer, progress or button."),
    Info(
      .buttonWithoutAction, .warning, "A button in a described view has no action identifier.",
      "Pressing it would send nothing to the app."),
    Info(
      .buttonNotInteractive, .warning, "A button is drawn but the extension takes no input.",
      "Buttons respond only when UNNotificationExtensionUserInteractionEnabled is true."),
    Info(
      .templateUnclosed, .warning, "A template has \"{{\" without a closing \"}}\".",
      "The text is shown as written.", anchor: .value),
    Info(
      .templateUnknownField, .warning, "A template names a field that does not exist.",
      "Templates read title, subtitle, body, categoryIdentifier, threadIdentifier and userInfo.KEY.", anchor: .value),
    Info(
      .templateMissingKey, .warning, "A template reads a userInfo path the payloads measured do not have.",
      "The view shows an empty text (a progress bar 0 %) where the value would be: a typo in the path, or a payload that lacks the key. The message suggests the closest path the payloads hold, and names the payloads without it when only some lack it.",
      anchor: .value),
    Info(
      .duplicateExtensionCategory, .error, "Two content extensions claim the same category.",
      "On iOS extensions must not share a category; which one runs would be undefined.", anchor: .value),
    Info(
      .extensionCategoryUnregistered, .warning, "A content extension serves a category that is not registered.",
      "No notification reaches the extension. Matching is case-sensitive; the message suggests the closest registered category.",
      anchor: .value),
    Info(
      .extensionSize, .note, "A content extension's measured heights on one device.",
      "The initial (loading) height, the preferred height, the budget and what is cut; --json carries them as numbers."
    ),
    Info(
      .extensionOverflow, .warning,
      "A content extension's view is taller than the device's budget (an error with --strict).",
      "UNTerm holds content views to 320 pt on iPhone and 352 pt on iPad; iOS would clip the rest. Shorten the view, or use --strict in CI to hold the design to the budget."
    ),
    Info(
      .extensionInitialOverflow, .note, "A content extension's loading view is taller than the budget.",
      "The initial height is the notification's width × UNNotificationExtensionInitialContentSizeRatio."),
    Info(
      .extensionWithoutPayload, .warning,
      "A content extension was measured without a payload of its category (an error with --strict).",
      "Its templates are filled from nothing, so the view is as short as it can be and its height proves nothing about the design. Give lint a payload of the category beside --extension."
    ),
    Info(
      .invalidStrings, .error,
      "The app's strings (a .strings, .stringsdict, .xcstrings file or an .lproj folder) cannot be read.",
      "The finding gives the line and column (the byte offset in a binary property list) of the first problem. Xcode would not build the app with it, and UNTerm does not load it (exit 65)."
    ),
    Info(
      .duplicateStringKey, .warning, "A key is defined twice in a text .strings file.",
      "Xcode compiles it with a warning and the later value wins, as UNTerm shows it; one of the two translations is lost."
    ),
    Info(
      .undefinedPluralVariable, .warning, "A .stringsdict format names a %#@variable@ it does not define.",
      "Foundation leaves the reference as written, so the text shows %#@name@. Add the variable's plural rule or fix its name."
    ),
    Info(
      .missingLocalization, .warning, "A payload's loc-key is not in the app's strings for a language.",
      "On a device in that language iOS shows the key itself (as its own format) instead of a sentence. Add the key to that language's strings, or to the development language that the app falls back to."
    ),
    Info(
      .locArgsKindMismatch, .warning,
      "A numeric format specifier (%d, %f, a plural variable) takes a loc-arg that is not a number, or %s or %p takes one.",
      "loc-args arrive as strings. UNTerm shows the text as it is; a device formats the string object's address as a number, or reads it as a C string. Use %@ for text, and numbers written as digits for numeric specifiers and plurals."
    ),
  ]
}
