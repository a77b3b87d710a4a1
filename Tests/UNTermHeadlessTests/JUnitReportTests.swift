import Foundation
import Testing
import UNTermHeadless
import UNTermInput
import UNTermTestSupport

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// A JUnit report as the common readers take it (Jenkins' JUnit plugin, GitLab, the JUnit
/// report actions of GitHub): `testsuites` around one `testsuite` with name, tests, failures,
/// errors, skipped, time and timestamp; a `testcase` a script with name, classname, file and
/// time; at most one of `failure`, `error` or `skipped`, the first two with a message and a
/// type; `system-out` text. The counts must add up.
struct JUnitShape {
  struct Case {
    var name, classname, file: String
    var time: Double
    var outcome: String  // passed, failure, error, skipped
    var message: String?
    var text: String
    var systemOut: String?
  }

  var suite: [String: String] = [:]
  var cases: [Case] = []
  var problems: [String] = []

  init(_ data: Data) throws {
    let document = try XMLDocument(data: data, options: [])
    guard let root = document.rootElement(), root.name == "testsuites" else {
      problems.append("the root is not <testsuites>")
      return
    }
    let suites = root.elements(forName: "testsuite")
    guard suites.count == 1, let suite = suites.first else {
      problems.append("one <testsuite> expected, found \(suites.count)")
      return
    }
    for name in ["name", "tests", "failures", "errors", "skipped", "time", "timestamp", "hostname"] {
      guard let value = suite.attribute(forName: name)?.stringValue else {
        problems.append("<testsuite> has no \(name)")
        continue
      }
      self.suite[name] = value
    }
    for name in ["tests", "failures", "errors", "skipped"] where Int(self.suite[name] ?? "") == nil {
      problems.append("<testsuite> \(name) is not a whole number")
    }
    if Double(self.suite["time"] ?? "") == nil { problems.append("<testsuite> time is not a number") }
    if (self.suite["timestamp"] ?? "").range(
      of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$"#, options: .regularExpression) == nil
    {
      problems.append("<testsuite> timestamp \(self.suite["timestamp"] ?? "") is not the schema's dateTime")
    }
    for element in suite.elements(forName: "testcase") {
      func attribute(_ name: String) -> String {
        guard let value = element.attribute(forName: name)?.stringValue else {
          problems.append("a <testcase> has no \(name)")
          return ""
        }
        return value
      }
      var item = Case(
        name: attribute("name"), classname: attribute("classname"), file: attribute("file"),
        time: Double(attribute("time")) ?? -1, outcome: "passed", text: "")
      if item.time < 0 { problems.append("\(item.name): time is not a number of seconds") }
      let outcomes = ["failure", "error", "skipped"].flatMap { element.elements(forName: $0) }
      if outcomes.count > 1 { problems.append("\(item.name): more than one outcome") }
      if let outcome = outcomes.first {
        item.outcome = outcome.name ?? ""
        item.message = outcome.attribute(forName: "message")?.stringValue
        item.text = outcome.stringValue ?? ""
        if item.message == nil { problems.append("\(item.name): <\(item.outcome)> has no message") }
        if item.outcome != "skipped" && outcome.attribute(forName: "type")?.stringValue == nil {
          problems.append("\(item.name): <\(item.outcome)> has no type")
        }
      }
      item.systemOut = element.elements(forName: "system-out").first?.stringValue
      cases.append(item)
    }
    let counts = [
      "tests": cases.count, "failures": cases.filter { $0.outcome == "failure" }.count,
      "errors": cases.filter { $0.outcome == "error" }.count, "skipped": cases.filter { $0.outcome == "skipped" }.count,
    ]
    for (name, count) in counts where Int(self.suite[name] ?? "") != count {
      problems.append("<testsuite> \(name)=\(self.suite[name] ?? "") but \(count) test cases say so")
    }
    for (name, count) in counts where root.attribute(forName: name)?.stringValue != String(count) {
      problems.append("<testsuites> \(name) disagrees")
    }
  }
}

@Suite("run --junit: a JUnit XML report test-report tools read")
struct JUnitReportTests {
  let dir: URL

  init() throws {
    dir = try Fixtures.temporaryDirectory()
    let samples = Fixtures.samples.path
    try write("hostile.json", SafetyMatrix.payload)
    try write(
      "pass.session",
      "\(Fixtures.sampleCategoriesScript("\(samples)/categories.json"))\npush \(samples)/Scripts/unread-badge.json\nexpect badge 2\n"
    )
    try write("fail.session", "push hostile.json\nexpect screen \(Hostile.script)\n")
    try write("badge.session", "push \(samples)/message.json\nexpect badge 9\n")
    try write("missing.session", "push nowhere.json\n")
    try write(
      "reply.session",
      "\(Fixtures.sampleCategoriesScript("\(samples)/categories.json"))\npush \(samples)/message.json\nkey x\n")
    try write("broken.session", "wiat 2s\n")
  }

  @discardableResult
  private func write(_ name: String, _ text: String) throws -> String {
    try Data(text.utf8).write(to: dir.appendingPathComponent(name))
    return name
  }

  private func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String, report: Data?) {
    let result = try Fixtures.run(
      Fixtures.unterm, ["run", "--junit", "out/report.xml"] + arguments, directory: dir.path)
    let report = FileManager.default.contents(atPath: dir.appendingPathComponent("out/report.xml").path)
    return (result.status, result.stdout, result.stderr, report)
  }

  @Test func passingFailingAndUnrunnableScripts() throws {
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("out"), withIntermediateDirectories: true)
    let result = try run(["pass.session", "fail.session", "badge.session", "missing.session"])
    #expect(result.status == 66)
    let data = try #require(result.report)
    expectNoControls(String(decoding: data, as: UTF8.self), "the JUnit report")
    let shape = try JUnitShape(data)
    #expect(shape.problems.isEmpty, "\(shape.problems)")
    #expect(shape.suite["name"] == "unterm run")
    #expect(shape.cases.map(\.name) == ["pass.session", "fail.session", "badge.session", "missing.session"])
    #expect(shape.cases.map(\.outcome) == ["passed", "failure", "failure", "error"])
    #expect(shape.cases.allSatisfy { $0.classname == "unterm" })
    #expect(shape.cases.map(\.file) == ["pass.session", "fail.session", "badge.session", "missing.session"])
    #expect(shape.cases.allSatisfy { $0.time >= 0 && $0.time < 60 })
    // The expected/actual report is the failure's text; its message is one line.
    let badge = shape.cases[2]
    #expect(
      badge.message == "badge.session:2:1: expected badge 9, actual badge 3")
    #expect(
      badge.text.contains("  expected badge 9\n  actual badge   3"),
      "\(badge.text)")
    // The hostile payload and script text arrive as the screen's placeholders, never raw.
    let hostile = shape.cases[1]
    #expect(hostile.message?.contains(Hostile.witness) == true)
    #expect(hostile.text.contains("␛[2J"), "\(hostile.text)")
    #expect(hostile.systemOut?.contains(Hostile.witness) == true)
    // Every script that ran leaves its final screen.
    #expect(shape.cases[0].systemOut?.contains("badge 2") == true)
    // A missing file is an error naming it.
    #expect(shape.cases[3].message?.contains("nowhere.json: error: no such file") == true)
  }

  @Test func aLostLogRecordIsAnErrorAndTheRestAreSkipped() throws {
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("out"), withIntermediateDirectories: true)
    let result = try run(["--log", "/dev/full", "reply.session", "pass.session"])
    #expect(result.status == 74)
    let shape = try JUnitShape(try #require(result.report))
    #expect(shape.problems.isEmpty, "\(shape.problems)")
    #expect(shape.cases.map(\.outcome) == ["error", "skipped"])
    let lost = shape.cases[0]
    #expect(lost.message?.contains("lost response: @dismiss — req-1") == true, "\(lost.message ?? "")")
    #expect(lost.text.contains("/dev/full: error: writing the log failed"))
  }

  @Test func aScriptThatDoesNotParseIsAnErrorAndNothingRuns() throws {
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("out"), withIntermediateDirectories: true)
    let result = try run(["pass.session", "broken.session"])
    #expect(result.status == 65)
    let shape = try JUnitShape(try #require(result.report))
    #expect(shape.problems.isEmpty, "\(shape.problems)")
    #expect(shape.cases.map(\.outcome) == ["skipped", "error"])
    #expect(shape.cases[1].message == "broken.session:1:1: error: unknown command \"wiat\"; did you mean 'wait'?")
  }

  /// Script names are untrusted too: controls, bidi overrides, XML's own markup and a CDATA end
  /// in a file name, a folder and a missing payload's name all arrive as well-formed XML, with
  /// the sanitizer's placeholders where the controls were.
  @Test func hostileScriptNamesMakeWellFormedXML() throws {
    let markup = #"a&b<c>"d'e]]>f&amp;"#
    let folder = dir.appendingPathComponent(markup)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let hostile = Hostile.fileName(".session")
    try write(hostile, "push \(Fixtures.samples.path)/message.json\nexpect badge 7\n")
    try Data("push \(Hostile.script)\n".utf8).write(to: folder.appendingPathComponent(markup + ".session"))
    try FileManager.default.createDirectory(at: dir.appendingPathComponent("out"), withIntermediateDirectories: true)
    let result = try run([hostile, "\(markup)/\(markup).session"])
    #expect(result.status == 66, "\(result.stderr)")
    let data = try #require(result.report)
    expectNoControls(String(decoding: data, as: UTF8.self), "the JUnit report")
    let shape = try JUnitShape(data)
    #expect(shape.problems.isEmpty, "\(shape.problems)")
    #expect(shape.cases.map(\.outcome) == ["failure", "error"])
    #expect(shape.cases.map(\.name) == [SafeText(sanitizing: hostile).text, markup + ".session"])
    #expect(shape.cases.map(\.file) == [SafeText(sanitizing: hostile).text, "\(markup)/\(markup).session"])
    #expect(shape.cases[1].classname == markup)
    #expect(shape.cases[0].message?.hasPrefix(SafeText(sanitizing: hostile).text + ":2:1: expected badge 7") == true)
    // The missing payload's hostile name, in the error's message and text.
    #expect(shape.cases[1].message?.contains(Hostile.witness) == true, "\(shape.cases[1].message ?? "")")
    #expect(shape.cases[1].text.contains("␛[2J"), "\(shape.cases[1].text)")
  }

  /// Like `sheet --out`: a report that cannot be written is exit 73, and no half file is left.
  @Test func aReportThatCannotBeWrittenIsExit73AndLeavesNothing() throws {
    let result = try run(["pass.session"])
    #expect(result.status == 73)
    #expect(result.stderr == "out/report.xml: error: cannot write the JUnit report: No such file or directory\n")
    #expect(result.report == nil)
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).allSatisfy { !$0.hasSuffix(".tmp") })
    let dash = try Fixtures.run(Fixtures.unterm, ["run", "--junit", "-", "pass.session"], directory: dir.path)
    #expect(dash.status == 2)
    // A --cast recording is an output too: one that cannot be made is 73, not "missing input".
    let cast = try Fixtures.run(
      Fixtures.unterm, ["run", "--cast", "out/run.cast", "pass.session"], directory: dir.path)
    #expect(cast.status == 73)
    #expect(cast.stderr == "out/run.cast: error: no such folder out\n", "\(cast.stderr)")
  }
}
