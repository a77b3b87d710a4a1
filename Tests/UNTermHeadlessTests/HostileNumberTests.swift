import Foundation
import Testing
import UNTermTestSupport
import UserNotificationsModel
import UserNotificationsUI

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermRender
@testable import UNTermState

/// Every number a file can hold, fed the numbers an attacker or a typo writes (1e17, 1e308, an
/// overflowing 1e400, -1, 0, a 23-digit integer, NaN and Infinity): each is refused with one
/// line naming the file, the key and the range (exit 65; lint `number-out-of-range`), or taken
/// when it is in range. Nothing traps: a huge content-size ratio used to end `lint` and `render`
/// with SIGILL in the points-to-rows projection.
@Suite("Hostile numbers in every input file")
struct HostileNumberTests {
  /// What a written value must do.
  enum Outcome: Sendable {
    /// In range: the command succeeds.
    case accepted
    /// Out of range: `FILE:LINE:COL: error: KEY must be RANGE, not VALUE [PATH]`, at the value.
    case outOfRange
    /// Not a number at all in this format (JSON has no NaN): a one-line error, exit 65.
    case malformed
  }

  /// Which command reads the file, as a user runs it.
  enum Reader: Sendable {
    case payload, descriptor, theme, script
  }

  /// One numeric field: the file that holds it, where the error points (the value), the range
  /// in words.
  struct Field: Sendable, CustomTestStringConvertible {
    var number: InputNumber
    var fileName: String
    var reader: Reader
    /// The file's text with `$` where the number goes.
    var template: String
    /// The value's `LINE:COL`, counted by hand: where the error points.
    var position: String
    /// The JSON path the error ends with; nil in a script, which has none.
    var path: String?
    /// The key as the message names it.
    var key: String
    /// The accepted values in words, as README and the message give them.
    var range: String
    var values: [(String, Outcome)]

    var testDescription: String { "\(key) in \(fileName)" }
  }

  /// The hostile values for a number in JSON; `zero` says whether 0 is in range.
  static func json(zero: Outcome) -> [(String, Outcome)] {
    [
      ("1e17", .outOfRange), ("1e308", .outOfRange), ("1e400", .outOfRange), ("-1", .outOfRange),
      ("-1e308", .outOfRange), ("99999999999999999999999", .outOfRange), ("2147483648", .outOfRange),
      ("0", zero), ("NaN", .malformed), ("Infinity", .malformed), ("-Infinity", .malformed),
    ]
  }

  static let descriptorHead =
    #"{"NSExtensionAttributes":{"UNNotificationExtensionCategory":"message","UNNotificationExtensionInitialContentSizeRatio":0.5},"view":{"elements":["#

  static let fields: [Field] = [
    Field(
      number: .badge, fileName: "badge.json", reader: .payload, template: #"{"aps":{"alert":"x","badge":$}}"#,
      position: "1:29", path: "aps.badge", key: "badge", range: "a whole number from 0 to 2147483647",
      values: json(zero: .accepted) + [("1.5", .outOfRange), ("2147483647", .accepted)]),
    Field(
      number: .soundVolume, fileName: "volume.json", reader: .payload,
      template: #"{"aps":{"alert":"x","sound":{"name":"a.caf","volume":$}}}"#, position: "1:54",
      path: "aps.sound.volume",
      key: "volume", range: "a number from 0 to 1", values: json(zero: .accepted) + [("1.0001", .outOfRange)]),
    Field(
      number: .summaryArgCount, fileName: "summary.json", reader: .payload,
      template: #"{"aps":{"alert":{"body":"x","summary-arg-count":$}}}"#, position: "1:49",
      path: "aps.alert.summary-arg-count",
      key: "summary-arg-count", range: "a whole number from 0 to 2147483647", values: json(zero: .accepted)),
    Field(
      number: .initialContentSizeRatio, fileName: "ratio.json", reader: .descriptor,
      template:
        #"{"NSExtensionAttributes":{"UNNotificationExtensionCategory":"message","UNNotificationExtensionInitialContentSizeRatio":$}}"#,
      position: "1:120", path: "NSExtensionAttributes.UNNotificationExtensionInitialContentSizeRatio",
      key: "UNNotificationExtensionInitialContentSizeRatio", range: "a number greater than 0 and at most 20",
      values: json(zero: .outOfRange) + [("20", .accepted), ("20.5", .outOfRange), ("1e-300", .accepted)]),
    Field(
      number: .initialContentSizeRatio, fileName: "Info.plist", reader: .descriptor,
      template: """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>NSExtension</key><dict><key>NSExtensionAttributes</key><dict>
        <key>UNNotificationExtensionCategory</key><string>message</string>
        <key>UNNotificationExtensionInitialContentSizeRatio</key><real>$</real>
        </dict></dict></dict></plist>
        """,
      position: "4:58",
      path: "NSExtension.NSExtensionAttributes.UNNotificationExtensionInitialContentSizeRatio",
      key: "UNNotificationExtensionInitialContentSizeRatio",
      range: "a number greater than 0 and at most 20",
      values: [
        ("1e+17", .outOfRange), ("1e+308", .outOfRange), ("-1", .outOfRange), ("0", .outOfRange),
        // A property list's <real> must be a finite number: inf and nan are refused as it is read.
        ("inf", .malformed), ("nan", .malformed), ("0.75", .accepted),
      ]),
    Field(
      number: .imageHeight, fileName: "height.json", reader: .descriptor,
      template: descriptorHead + #"{"image":"attachment:0","height":$}]}}"#, position: "1:178",
      path: "view.elements[0].height",
      key: "height", range: "a number from 0 to 10000 pt", values: json(zero: .accepted)),
    Field(
      number: .spacer, fileName: "spacer.json", reader: .descriptor, template: descriptorHead + #"{"spacer":$}]}}"#,
      position: "1:155", path: "view.elements[0].spacer", key: "spacer", range: "a number from 0 to 10000 pt",
      values: json(zero: .accepted) + [("10000", .accepted), ("10000.5", .outOfRange)]),
    Field(
      number: .maxLines, fileName: "maxlines.json", reader: .descriptor,
      template: descriptorHead + #"{"label":"{{body}}","maxLines":$}]}}"#, position: "1:176",
      path: "view.elements[0].maxLines",
      key: "maxLines", range: "a whole number from 1 to 1000",
      values: json(zero: .outOfRange) + [("1000", .accepted), ("2.5", .outOfRange)]),
    Field(
      number: .progress, fileName: "progress.json", reader: .descriptor,
      template: descriptorHead + #"{"progress":$}]}}"#, position: "1:157", path: "view.elements[0].progress",
      key: "progress",
      range: "a number from 0 to 1", values: json(zero: .accepted) + [("1", .accepted)]),
    Field(
      number: .colorNumber, fileName: "theme.json", reader: .theme, template: #"{"roles":{"title":{"fg":$}}}"#,
      position: "1:25", path: "roles.title.fg", key: "fg", range: "a whole number from 0 to 255",
      values: json(zero: .accepted) + [("255", .accepted), ("256", .outOfRange), ("7.5", .outOfRange)]),
    Field(
      number: .terminalSize, fileName: "size.session", reader: .script, template: "size $", position: "1:6",
      key: "size", range: "a whole number from 1 to 1000",
      values: [
        ("0x24", .outOfRange), ("80x0", .outOfRange), ("1001x24", .outOfRange),
        ("99999999999999999999999x24", .outOfRange), ("1000x1000", .accepted), ("-1x24", .malformed),
        ("nanxnan", .malformed), ("1e17x24", .malformed),
      ]),
    Field(
      number: .waitDuration, fileName: "wait.session", reader: .script, template: "wait $", position: "1:6",
      key: "wait", range: "a number from 0 to 31536000 s",
      values: [
        ("31536001s", .outOfRange), ("525601m", .outOfRange), ("99999999999999999999999s", .outOfRange),
        ("0s", .accepted), ("31536000s", .accepted), ("-1s", .malformed), ("1e17s", .malformed),
        ("nans", .malformed), ("infs", .malformed),
      ]),
    Field(
      number: .keyRepeat, fileName: "repeat.session", reader: .script, template: "key down $", position: "1:10",
      key: "key … xN", range: "a whole number from 1 to 10000",
      values: [
        ("x0", .outOfRange), ("x10001", .outOfRange), ("x99999999999999999999999", .outOfRange),
        ("x10000", .accepted), ("x-1", .malformed), ("xnan", .malformed),
      ]),
    Field(
      number: .expectedBadge, fileName: "badge.session", reader: .script, template: "expect badge $",
      position: "1:14", key: "expect badge", range: "a whole number from 0 to 2147483647",
      values: [
        ("2147483648", .outOfRange), ("99999999999999999999999", .outOfRange), ("0", .accepted),
        ("-1", .malformed), ("nan", .malformed),
      ]),
  ]

  private func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    try Fixtures.run(Fixtures.unterm, arguments)
  }

  /// The command that loads the file as a user would (`render`, or `run` for a script).
  private func load(_ field: Field, _ path: String) throws -> (status: Int32, stdout: String, stderr: String) {
    let categories = Fixtures.sample("categories.json")
    let message = Fixtures.sample("message.json")
    switch field.reader {
    case .payload: return try run(["render", path])
    case .descriptor:
      return try run(["render", "--view", "expanded", "--categories", categories, "--extension", path, message])
    case .theme: return try run(["render", "--theme", path, message])
    case .script: return try run(["run", path])
    }
  }

  /// `lint` with the file (a theme through `--theme`, a descriptor through `--extension`).
  private func lint(_ field: Field, _ path: String) throws -> (status: Int32, stdout: String, stderr: String) {
    switch field.reader {
    case .theme: return try run(["lint", "--theme", path, Fixtures.sample("message.json")])
    case .descriptor: return try run(["lint", "--extension", path])
    case .payload, .script: return try run(["lint", path])
    }
  }

  @Test(arguments: fields)
  func everyFieldRefusesHostileNumbersWithOneLineNamingTheKey(field: Field) throws {
    let folder = try Fixtures.temporaryDirectory()
    for (written, outcome) in field.values {
      let url = folder.appendingPathComponent(UUID().uuidString).appendingPathComponent(field.fileName)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(field.template.replacingOccurrences(of: "$", with: written).utf8).write(to: url)
      let path = url.path
      let loaded = try load(field, path)
      let linted = try lint(field, path)
      let lines = loaded.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      switch outcome {
      case .accepted:
        #expect(loaded.status == 0, "\(written): \(loaded.stderr)")
        #expect(!linted.stdout.contains("number-out-of-range"), "\(written): \(linted.stdout)")
      case .outOfRange:
        let message = "\(field.key) must be \(field.range), not \(written)"
        #expect(loaded.status == 65, "\(written) exited \(loaded.status): \(loaded.stderr)")
        let jsonPath = field.path.map { " [\($0)]" } ?? ""
        #expect(
          loaded.stderr == "\(path):\(field.position): error: \(message)\(jsonPath)\n", "\(written): \(loaded.stderr)")
        #expect(linted.status == 1, "\(written): lint exited \(linted.status)")
        #expect(
          linted.stdout.contains(
            "\(path):\(field.position): error[number-out-of-range]: \(message) [\(field.path ?? "$")]"),
          "\(written): \(linted.stdout)")
      case .malformed:
        #expect(loaded.status == 65, "\(written) exited \(loaded.status): \(loaded.stderr)")
        #expect(lines.count == 1 && loaded.stderr.hasPrefix("\(path):"), "\(written): \(loaded.stderr)")
        #expect(linted.status == 1, "\(written): lint exited \(linted.status)")
      }
    }
  }

  /// relevance-score is the one number iOS clamps rather than refuses: out of range is a
  /// warning and the value is held to 0…1; only a number no double can hold is an error.
  @Test func relevanceScoreIsClampedWithAWarningUnlessItIsNotFinite() throws {
    let folder = try Fixtures.temporaryDirectory()
    for written in ["1e17", "1e308", "-1", "99999999999999999999999", "0"] {
      let json = #"{"aps":{"alert":"x","relevance-score":\#(written)}}"#
      let payload = Fixtures.payload(json)
      #expect(!payload.hasErrors, "\(written)")
      let score = payload.content?.relevanceScore ?? -1
      #expect((0...1).contains(score), "\(written) → \(score)")
      #expect(payload.diagnostics.contains { $0.code == .relevanceScoreRange } == (written != "0"))
    }
    let url = folder.appendingPathComponent("relevance.json")
    try Data(#"{"aps":{"alert":"x","relevance-score":1e400}}"#.utf8).write(to: url)
    let result = try run(["render", url.path])
    #expect(result.status == 65)
    #expect(
      result.stderr
        == "\(url.path):1:39: error: relevance-score must be a number from 0 to 1, not 1e400 [aps.relevance-score]\n"
    )
  }

  /// The payloads guide lists every range: one row per `InputNumber`, with the same words as
  /// the messages.
  @Test func theGuideDocumentsEveryRange() throws {
    let guide = try String(
      contentsOf: Fixtures.root.appendingPathComponent("Docs/payloads-and-apns.md"), encoding: .utf8)
    let rows = InputNumber.allCases.map { "| `\($0.key)` | \($0.files) | \($0.range) |" }
    let missing = rows.filter { !guide.contains($0) }
    #expect(missing.isEmpty, "Docs/payloads-and-apns.md lacks:\n\(missing.joined(separator: "\n"))")
    // The table above covers every field this suite feeds.
    #expect(Set(Self.fields.map(\.number)).union([.relevanceScore]) == Set(InputNumber.allCases))
  }
}

/// A program extension whose sizes are as wrong as a Double allows.
final class OversizedExtension: UNNotificationContentViewController, UNNotificationContentExtension {
  func didReceive(_ notification: UNNotification) {
    view.elements = [
      .image(.attachment(0), height: .infinity), .spacer(.nan), .spacer(1e308), .spacer(-1e308),
      .label("body", maxLines: .max), .progress(.nan), .progress(-.infinity),
    ]
    preferredContentSize = CGSize(width: 1e308, height: 1e300)
  }
}

/// Sizes that do not come from a file (a program's extension, a media header) cannot be
/// range-checked when read, so layout saturates instead of trapping.
@Suite("Layout saturates")
struct SaturatingLayoutTests {
  @Test func integerConversionSaturates() {
    let cases: [(Double, Int)] = [
      (1e17, 100_000_000_000_000_000), (1e308, .max), (.infinity, .max), (-.infinity, .min), (.nan, 0),
      (-1e308, .min), (0x1p63, .max), (-0x1p63, .min), (0x1p62, 1 << 62), (-0.9, 0), (2.7, 2),
    ]
    for (value, expected) in cases { #expect(Int(saturating: value) == expected, "\(value)") }
  }

  @Test func projectionNeverTraps() {
    #expect(Projection.rows(1e308) == .max)
    #expect(Projection.rows(.infinity) == .max)
    #expect(Projection.rows(.nan) == 0)
    #expect(Projection.rows(-1e308) == 0)
    #expect(Projection.columns(1e300) == .max)
    #expect(Projection.height(1e300) == InputNumber.maximumPoints)
    #expect(Projection.height(.nan) == 0)
  }

  @Test func aProgramExtensionWithHostileSizesIsClippedNotACrash() throws {
    let session = try Fixtures.session(size: (80, 40))
    try session.addExtension(
      ProgramExtension(
        attributes: ContentExtensionAttributes(categories: ["chat"], initialContentSizeRatio: 1e300),
        make: { OversizedExtension() }))
    try Fixtures.push(#"{"aps":{"alert":{"title":"Kenji","body":"hello"},"category":"chat"}}"#, into: session)
    session.send(.command(.longPress))
    let text = session.frame().grid.text
    // Held to 10,000 pt, and the default title and body below it (60 pt): 9,740 pt over the
    // iPhone's 320 pt budget.
    #expect(text.contains("9740 pt over the 320 pt budget"), "\(text)")
  }
}
