import Foundation
import Testing
import UNTermInput
import UNTermTestSupport

/// A CI workflow of `Examples/ci/`: its `unterm` commands, in order, and the files it hands on
/// to the CI system (uploads, reports, artifacts).
struct ExampleWorkflow {
  let name: String
  let text: String

  init(_ name: String) throws {
    self.name = name
    text = try String(
      contentsOf: Fixtures.root.appendingPathComponent("Examples/ci").appendingPathComponent(name), encoding: .utf8)
  }

  private var lines: [Substring] { text.split(separator: "\n", omittingEmptySubsequences: false) }

  /// Every shell line that starts with `unterm`: a step's `run: unterm …`, a line of a `run: |`
  /// block, or an item of a GitLab `script:` list (`- unterm …`).
  var commands: [String] {
    lines.compactMap { raw in
      var line = raw.drop { $0 == " " }
      if line.hasPrefix("- ") { line = line.dropFirst(2) }
      if line.hasPrefix("run: ") { line = line.dropFirst(5) }
      return line.hasPrefix("unterm ") ? String(line) : nil
    }
  }

  /// The files the workflow hands on: `sarif_file`, `report_paths`, `path`, `junit` and
  /// `codequality` values, and the items of a `paths:` list.
  var handedOn: [String] {
    var out: [String] = []
    var listIndent: Int?
    for raw in lines {
      let indent = raw.prefix { $0 == " " }.count
      let line = raw.dropFirst(indent)
      if let list = listIndent {
        if indent > list, line.hasPrefix("- ") {
          out.append(String(line.dropFirst(2)))
          continue
        }
        listIndent = nil
      }
      if line == "paths:" {
        listIndent = indent
        continue
      }
      for key in ["sarif_file", "report_paths", "path", "junit", "codequality"] where line.hasPrefix(key + ": ") {
        out.append(String(line.dropFirst(key.count + 2)))
      }
    }
    return out
  }
}

@Suite("Examples/ci: every unterm command of the workflows runs against the samples")
struct ExampleWorkflowTests {
  static let workflows = ["github-actions.yml", "gitlab-ci.yml"]

  /// Runs a workflow's `unterm` commands in order as its shell would (`bash -e`, with the
  /// `status` variable the GitLab script keeps), in a fresh folder beside the samples, with
  /// `CI` set as both systems set it: what each printed, and the folder.
  private func run(_ workflow: ExampleWorkflow) throws -> (outputs: [String: String], dir: URL) {
    let dir = try Fixtures.temporaryDirectory()
    try FileManager.default.createSymbolicLink(
      at: dir.appendingPathComponent("SamplePayloads"), withDestinationURL: Fixtures.samples)
    let path = Fixtures.productsDirectory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    var outputs: [String: String] = [:]
    for command in workflow.commands {
      let result = try Fixtures.run(
        "/bin/bash", ["-e", "-c", "status=0\n\(command)\nexit $status"], environment: ["PATH": path, "CI": "true"],
        directory: dir.path)
      #expect(result.status == 0, "\(workflow.name): `\(command)` exited \(result.status): \(result.stderr)")
      #expect(!result.stderr.contains(": error"), "\(workflow.name): `\(command)`: \(result.stderr)")
      outputs[command] = result.stdout
    }
    return (outputs, dir)
  }

  @Test(arguments: workflows)
  func theWorkflowsCommandsRunAndMakeWhatItHandsOn(_ name: String) throws {
    let workflow = try ExampleWorkflow(name)
    let commands = workflow.commands
    // Lint for the CI system, the scripts as a test report, and the sheet: nothing skipped.
    #expect(commands.contains { $0.hasPrefix("unterm lint --format sarif ") }, "\(commands)")
    #expect(commands.contains { $0.hasPrefix("unterm run --junit ") }, "\(commands)")
    #expect(commands.contains { $0.hasPrefix("unterm sheet ") }, "\(commands)")
    let (outputs, dir) = try run(workflow)
    defer { try? FileManager.default.removeItem(at: dir) }

    let handedOn = workflow.handedOn
    #expect(handedOn.count >= 3, "\(handedOn)")
    for file in handedOn {
      let data = try #require(
        FileManager.default.contents(atPath: dir.appendingPathComponent(file).path),
        "\(name) hands on \(file), which its commands did not make")
      let text = String(decoding: data, as: UTF8.self)
      if file.hasSuffix(".sarif") {
        var validator = SARIFValidator()
        let problems = validator.validate(try JSONParser.parse(Array(data)))
        #expect(problems.isEmpty, "\(file): \(problems.prefix(10))")
        // The samples' notes and warnings, each at a file under SamplePayloads/.
        let results = try JSONParser.parse(Array(data)).object?["runs"]?.array?.first?.object?["results"]?.array ?? []
        #expect(!results.isEmpty)
        for result in results {
          let uri = result.object?["locations"]?.array?.first?.object?["physicalLocation"]?.object?["artifactLocation"]?
            .object?["uri"]?.string
          #expect(uri?.hasPrefix("SamplePayloads/") == true, "\(uri ?? "no uri")")
        }
      } else if file.hasSuffix(".xml") {
        let shape = try JUnitShape(data)
        #expect(shape.problems.isEmpty, "\(file): \(shape.problems)")
        let scripts = try FileManager.default.contentsOfDirectory(
          atPath: Fixtures.samples.appendingPathComponent("Scripts").path
        ).filter { $0.hasSuffix(".session") }
        #expect(shape.cases.count == scripts.count)
        #expect(shape.cases.allSatisfy { $0.outcome == "passed" }, "\(shape.cases.map { ($0.name, $0.outcome) })")
      } else if file.hasSuffix(".html") {
        #expect(text.hasPrefix("<!DOCTYPE html>"), "\(text.prefix(40))")
      } else if file.hasSuffix(".json") {
        // A GitLab code-quality report: issues with the fields GitLab reads.
        let issues = try #require(try JSONParser.parse(Array(data)).array)
        #expect(!issues.isEmpty)
        for issue in issues {
          let o = try #require(issue.object)
          for key in ["description", "check_name", "fingerprint", "severity"] {
            #expect(o[key]?.string?.isEmpty == false, "\(key) in \(o.keys)")
          }
          #expect(o["location"]?.object?["path"]?.string?.hasPrefix("SamplePayloads/") == true)
          #expect((o["location"]?.object?["lines"]?.object?["begin"]?.number?.integer ?? 0) >= 1)
        }
      } else {
        Issue.record("\(name) hands on \(file), which this test does not know how to check")
      }
    }
    // Annotations: every line a workflow command the runner reads.
    for (command, stdout) in outputs where command.contains("--format github") {
      let lines = stdout.split(separator: "\n").map(String.init)
      #expect(!lines.isEmpty)
      for line in lines {
        let parsed = LintFormatTests.parseCommand(line)
        #expect(["error", "warning", "notice"].contains(parsed?.name ?? ""), "\(line)")
        #expect(parsed?.properties["file"]?.hasPrefix("SamplePayloads/") == true, "\(line)")
      }
    }
  }

  /// The CI guide links each workflow in `Examples/ci/`, which this suite runs, rather than
  /// holding a copy that could drift.
  @Test(arguments: workflows)
  func theGuideLinksTheWorkflow(_ name: String) throws {
    let guide = try String(contentsOf: Fixtures.root.appendingPathComponent("Docs/lint-and-ci.md"), encoding: .utf8)
    #expect(guide.contains("](../Examples/ci/\(name))"))
    #expect(!guide.contains("```yaml"))
  }

  /// The workflow installs every library `.ci/run` builds against (its `-dev` packages): a
  /// library main starts linking would otherwise break the copied workflow at its build step.
  @Test(arguments: workflows)
  func theWorkflowInstallsWhatTheBuildNeeds(_ name: String) throws {
    let run = try String(contentsOf: Fixtures.root.appendingPathComponent(".ci/run"), encoding: .utf8)
    let list = try #require(run.range(of: "packages=(")).upperBound
    let end = try #require(run[list...].firstIndex(of: ")"))
    let buildPackages = run[list..<end].split(whereSeparator: \.isWhitespace).filter { $0.hasSuffix("-dev") }
    #expect(buildPackages.count >= 4, "\(buildPackages)")
    let workflow = try ExampleWorkflow(name)
    let install = workflow.text.split(separator: "\n").filter { $0.contains("apt-get install") }
    #expect(install.count == 1, "\(install)")
    let installed = Set(install.flatMap { $0.split(separator: " ") })
    for package in buildPackages {
      #expect(installed.contains(package), "\(name) does not install \(package), which .ci/run builds with")
    }
  }

  /// The extraction finds what a reader sees: a test that extracted nothing would pass.
  @Test func theExtractionFindsEveryKindOfLine() throws {
    let workflow = ExampleWorkflow(
      name: "x.yml",
      text: """
        steps:
          - run: unterm lint --format sarif A > a.sarif
          - run: |
              apt-get update
              unterm run --junit j.xml A/*.session
          - uses: x
            with:
              sarif_file: a.sarif
              path: s.html
        script:
          - unterm sheet --out s.html A || status=1
          # unterm in a comment is not a command
        artifacts:
          paths:
            - s.html
          reports:
            junit: j.xml

        """)
    #expect(
      workflow.commands == [
        "unterm lint --format sarif A > a.sarif", "unterm run --junit j.xml A/*.session",
        "unterm sheet --out s.html A || status=1",
      ])
    #expect(workflow.handedOn == ["a.sarif", "s.html", "s.html", "j.xml"])
  }
}

extension ExampleWorkflow {
  init(name: String, text: String) {
    self.name = name
    self.text = text
  }
}
