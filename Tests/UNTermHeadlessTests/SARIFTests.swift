import Foundation
import Testing
import UNTermInput
import UNTermLint
import UNTermTestSupport

/// Checks a SARIF log against what the SARIF 2.1.0 standard requires of each object UNTerm
/// writes — the properties that must be there and the type of every property used (§3.13
/// sarifLog, §3.14 run, §3.18 tool, §3.19 toolComponent, §3.49 reportingDescriptor, §3.27
/// result, §3.11 message, §3.28 location, §3.29 physicalLocation, §3.4 artifactLocation, §3.30
/// region, §3.33 logicalLocation, §3.12 multiformatMessageString, §3.50 reportingConfiguration)
/// — and what code scanning adds: a rule for every result, a location for every result.
struct SARIFValidator {
  var problems: [String] = []

  private mutating func fail(_ path: String, _ problem: String) { problems.append("\(path): \(problem)") }

  private mutating func object(_ node: JSONNode?, _ path: String, required: Bool = true) -> JSONObject? {
    guard let node else {
      if required { fail(path, "missing") }
      return nil
    }
    guard let object = node.object else {
      fail(path, "must be an object, not \(node.typeName)")
      return nil
    }
    return object
  }

  private mutating func array(_ node: JSONNode?, _ path: String, required: Bool = true) -> [JSONNode]? {
    guard let node else {
      if required { fail(path, "missing") }
      return nil
    }
    guard let array = node.array else {
      fail(path, "must be an array, not \(node.typeName)")
      return nil
    }
    return array
  }

  @discardableResult
  private mutating func string(_ node: JSONNode?, _ path: String, required: Bool = true) -> String? {
    guard let node else {
      if required { fail(path, "missing") }
      return nil
    }
    guard let string = node.string else {
      fail(path, "must be a string, not \(node.typeName)")
      return nil
    }
    return string
  }

  @discardableResult
  private mutating func integer(_ node: JSONNode?, _ path: String, minimum: Int, required: Bool = true) -> Int? {
    guard let node else {
      if required { fail(path, "missing") }
      return nil
    }
    guard let value = node.number?.integer, node.number?.isIntegral == true else {
      fail(path, "must be an integer")
      return nil
    }
    if value < minimum { fail(path, "must be \(minimum) or more, not \(value)") }
    return value
  }

  private mutating func level(_ node: JSONNode?, _ path: String) {
    guard let level = string(node, path, required: false) else { return }
    if !["none", "note", "warning", "error"].contains(level) { fail(path, "\(level) is not a level") }
  }

  /// A URI reference (RFC 3986): only unreserved, reserved and `%XX` characters.
  private mutating func uri(_ node: JSONNode?, _ path: String, absolute: Bool) -> String? {
    guard let text = string(node, path, required: false) else { return nil }
    let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%".utf8)
    let bytes = Array(text.utf8)
    for (i, byte) in bytes.enumerated() {
      guard allowed.contains(byte) else {
        fail(path, "\(text) holds byte \(byte), which a URI cannot")
        return nil
      }
      if byte == UInt8(ascii: "%") {
        let hex = Set("0123456789ABCDEFabcdef".utf8)
        guard i + 2 < bytes.count, hex.contains(bytes[i + 1]), hex.contains(bytes[i + 2]) else {
          fail(path, "\(text) has a % not followed by two hex digits")
          return nil
        }
      }
    }
    let scheme = text.range(of: "^[A-Za-z][A-Za-z0-9+.-]*:", options: .regularExpression) != nil
    if absolute && !scheme { fail(path, "\(text) must be an absolute URI") }
    if !absolute && scheme && !text.hasPrefix("file:") { fail(path, "\(text) reads as a URI with a scheme") }
    return text
  }

  /// §3.12: `text` is required.
  private mutating func multiformatMessage(_ node: JSONNode?, _ path: String, required: Bool) {
    guard let o = object(node, path, required: required) else { return }
    string(o["text"], path + ".text")
    string(o["markdown"], path + ".markdown", required: false)
  }

  /// The rules' ids, for checking results against.
  private(set) var ruleIDs: [String] = []

  mutating func validate(_ log: JSONNode) -> [String] {
    // §3.13 sarifLog: version and runs are required.
    guard let root = object(log, "sarifLog") else { return problems }
    if string(root["version"], "version") != "2.1.0" { fail("version", "must be 2.1.0") }
    _ = uri(root["$schema"], "$schema", absolute: true)
    guard let runs = array(root["runs"], "runs") else { return problems }
    if runs.count != 1 { fail("runs", "one run expected, found \(runs.count)") }
    for (r, node) in runs.enumerated() {
      let path = "runs[\(r)]"
      // §3.14 run: tool is required.
      guard let run = object(node, path) else { continue }
      // §3.18 tool: driver is required; §3.19 toolComponent: name is required.
      guard let tool = object(run["tool"], path + ".tool"),
        let driver = object(tool["driver"], path + ".tool.driver")
      else { continue }
      string(driver["name"], path + ".tool.driver.name")
      string(driver["version"], path + ".tool.driver.version", required: false)
      string(driver["semanticVersion"], path + ".tool.driver.semanticVersion", required: false)
      _ = uri(driver["informationUri"], path + ".tool.driver.informationUri", absolute: true)
      ruleIDs = []
      for (i, ruleNode) in (array(driver["rules"], path + ".tool.driver.rules") ?? []).enumerated() {
        // §3.49 reportingDescriptor: id is required.
        let rulePath = path + ".tool.driver.rules[\(i)]"
        guard let rule = object(ruleNode, rulePath) else { continue }
        ruleIDs.append(string(rule["id"], rulePath + ".id") ?? "")
        string(rule["name"], rulePath + ".name", required: false)
        // Code scanning shows these three.
        multiformatMessage(rule["shortDescription"], rulePath + ".shortDescription", required: true)
        multiformatMessage(rule["fullDescription"], rulePath + ".fullDescription", required: true)
        multiformatMessage(rule["help"], rulePath + ".help", required: true)
        // §3.50 reportingConfiguration.
        if let configuration = object(rule["defaultConfiguration"], rulePath + ".defaultConfiguration") {
          level(configuration["level"], rulePath + ".defaultConfiguration.level")
        }
      }
      if Set(ruleIDs).count != ruleIDs.count { fail(path + ".tool.driver.rules", "rule ids are not unique") }
      if let kind = string(run["columnKind"], path + ".columnKind", required: false),
        !["utf16CodeUnits", "unicodeCodePoints"].contains(kind)
      {
        fail(path + ".columnKind", "\(kind) is not a column kind")
      }
      if let bases = object(run["originalUriBaseIds"], path + ".originalUriBaseIds", required: false) {
        for member in bases.members {
          let basePath = path + ".originalUriBaseIds." + member.key
          guard let base = object(member.value, basePath) else { continue }
          // A base URI is absolute and ends with a slash (§3.14.14).
          if let text = uri(base["uri"], basePath + ".uri", absolute: true), !text.hasSuffix("/") {
            fail(basePath + ".uri", "must end with /")
          }
        }
      }
      for (i, resultNode) in (array(run["results"], path + ".results") ?? []).enumerated() {
        result(resultNode, path + ".results[\(i)]")
      }
    }
    return problems
  }

  /// §3.27 result: message is required; ruleIndex, when given, names the rule with ruleId.
  private mutating func result(_ node: JSONNode, _ path: String) {
    guard let result = object(node, path) else { return }
    // §3.11 message: text (or id) is required.
    if let message = object(result["message"], path + ".message") {
      if message["text"] == nil && message["id"] == nil { fail(path + ".message", "needs text or id") }
      string(message["text"], path + ".message.text", required: false)
    }
    let ruleID = string(result["ruleId"], path + ".ruleId")
    if let index = integer(result["ruleIndex"], path + ".ruleIndex", minimum: 0, required: false) {
      if index >= ruleIDs.count || ruleIDs[index] != ruleID {
        fail(path + ".ruleIndex", "\(index) does not name rule \(ruleID ?? "?")")
      }
    }
    if let ruleID, !ruleIDs.contains(ruleID) { fail(path + ".ruleId", "\(ruleID) is not a rule") }
    level(result["level"], path + ".level")
    // Code scanning needs a location for every result.
    guard let locations = array(result["locations"], path + ".locations") else { return }
    if locations.isEmpty { fail(path + ".locations", "empty") }
    for (i, node) in locations.enumerated() {
      location(node, path + ".locations[\(i)]")
    }
  }

  /// §3.28 location (no property required); §3.29 physicalLocation: artifactLocation or
  /// address; §3.4 artifactLocation; §3.30 region: startLine (or an offset); §3.33
  /// logicalLocation.
  private mutating func location(_ node: JSONNode, _ path: String) {
    guard let location = object(node, path) else { return }
    if let physical = object(location["physicalLocation"], path + ".physicalLocation") {
      let physicalPath = path + ".physicalLocation"
      if physical["artifactLocation"] == nil && physical["address"] == nil {
        fail(physicalPath, "needs artifactLocation or address")
      }
      if let artifact = object(physical["artifactLocation"], physicalPath + ".artifactLocation", required: false) {
        let base = string(artifact["uriBaseId"], physicalPath + ".artifactLocation.uriBaseId", required: false)
        let uri = uri(artifact["uri"], physicalPath + ".artifactLocation.uri", absolute: base == nil)
        if uri == nil && artifact["description"] == nil {
          fail(physicalPath + ".artifactLocation", "names no file")
        }
      }
      if let region = object(physical["region"], physicalPath + ".region") {
        integer(region["startLine"], physicalPath + ".region.startLine", minimum: 1)
        integer(region["startColumn"], physicalPath + ".region.startColumn", minimum: 1, required: false)
      }
    }
    for (i, node) in (array(location["logicalLocations"], path + ".logicalLocations", required: false) ?? [])
      .enumerated()
    {
      if let logical = object(node, path + ".logicalLocations[\(i)]") {
        string(logical["fullyQualifiedName"], path + ".logicalLocations[\(i)].fullyQualifiedName")
      }
    }
  }
}

@Suite("lint --format sarif: SARIF 2.1.0 as code scanning reads it")
struct SARIFTests {
  @Test func theHostileAndMalformedCorpusMakesAValidLogOfEveryFinding() throws {
    let corpus = try LintCorpus()
    let findings = try Finding.parse(try corpus.lint(["--format", "json"]).stdout)
    let result = try corpus.lint(["--format", "sarif"])
    #expect(result.status == 1)
    #expect(result.stderr.isEmpty, "\(result.stderr)")
    expectNoControls(result.stdout, "sarif")
    let log = try JSONParser.parse(Array(result.stdout.utf8))
    var validator = SARIFValidator()
    let problems = validator.validate(log)
    #expect(problems.isEmpty, "\(problems.prefix(20).joined(separator: "\n"))")
    // Every LintCode is a rule, with its severity as the default level.
    #expect(validator.ruleIDs == LintCode.allCases.map(\.rawValue))
    let run = try #require(log.object?["runs"]?.array?.first?.object)
    let driver = try #require(run["tool"]?.object?["driver"]?.object)
    // No informationUri: UNTerm has no public page, and a local README path means nothing to
    // the service reading the log (the property is optional in SARIF 2.1.0).
    #expect(driver["informationUri"] == nil)
    #expect(driver["name"]?.string == "unterm")
    let rules = try #require(driver["rules"]?.array)
    for (rule, code) in zip(rules, LintCode.allCases) {
      #expect(rule.object?["defaultConfiguration"]?.object?["level"]?.string == code.severity.rawValue)
      #expect(rule.object?["shortDescription"]?.object?["text"]?.string == code.summary)
    }
    // One result a finding, each at the finding's file, line, column and path.
    let results = try #require(run["results"]?.array)
    #expect(results.count == findings.count)
    let base = try #require(run["originalUriBaseIds"]?.object?["%SRCROOT%"]?.object?["uri"]?.string)
    #expect(base == "file://" + LintReport.percentEncoded(corpus.dir.path) + "/")
    for (node, f) in zip(results, findings) {
      let result = try #require(node.object)
      #expect(result["ruleId"]?.string == f.code)
      #expect(result["level"]?.string == f.severity)
      #expect(result["message"]?.object?["text"]?.string == SafeText(sanitizing: f.message).text)
      let location = try #require(result["locations"]?.array?.first?.object)
      let physical = try #require(location["physicalLocation"]?.object)
      let region = try #require(physical["region"]?.object)
      #expect(region["startLine"]?.number?.integer == f.line)
      #expect(region["startColumn"]?.number?.integer == f.column)
      let artifact = try #require(physical["artifactLocation"]?.object)
      let uri = try #require(artifact["uri"]?.string)
      if f.file.hasPrefix("/") {
        // Outside the working directory: an absolute file URI.
        #expect(artifact["uriBaseId"] == nil)
        #expect(uri.removingPercentEncoding == "file://" + f.file)
      } else {
        #expect(artifact["uriBaseId"]?.string == "%SRCROOT%")
        #expect(uri.removingPercentEncoding == f.file, "\(uri)")
      }
      let logical = location["logicalLocations"]?.array?.first?.object?["fullyQualifiedName"]?.string
      #expect(logical == (f.path == "$" ? nil : f.path))
    }
  }

  @Test func aFileNameWithSpacesControlsAndNonASCIIIsOnePercentEncodedURI() {
    #expect(LintReport.percentEncoded("a b/c:d%e#f?.json") == "a%20b/c%3Ad%25e%23f%3F.json")
    #expect(LintReport.percentEncoded("x\u{1B}\n.json") == "x%1B%0A.json")
    #expect(LintReport.percentEncoded("বা.json") == "%E0%A6%AC%E0%A6%BE.json")
    let paths = ArtifactPaths(workingDirectory: "/work/repo/")
    #expect(paths.relative("a/./b/../c.json") == "a/c.json")
    #expect(paths.relative("/work/repo/x.json") == "x.json")
    #expect(paths.relative("../other/x.json") == nil)
    #expect(paths.absolute("../other/x.json") == "/work/other/x.json")
    #expect(paths.relative("-") == nil)
    #expect(paths.relative("/work/repository/x.json") == nil)
  }

  /// A validator that accepts everything proves nothing: it catches each kind of mistake.
  @Test func theValidatorCatchesMissingAndMistypedProperties() throws {
    let broken = #"""
      {"version":"2.0","runs":[{"tool":{"driver":{"rules":[{"id":"a","shortDescription":{},"fullDescription":{"text":"x"},"help":{"text":"x"},"defaultConfiguration":{"level":"fatal"}}]}},
      "columnKind":"bytes","results":[{"ruleId":"b","ruleIndex":0,"level":"warning","message":{},
      "locations":[{"physicalLocation":{"artifactLocation":{"uri":"a b.json","uriBaseId":"%SRCROOT%"},"region":{"startLine":0,"startColumn":"1"}},
      "logicalLocations":[{"fullyQualifiedName":3}]}]}]}]}
      """#
    var validator = SARIFValidator()
    let problems = validator.validate(try JSONParser.parse(Array(broken.utf8)))
    for expected in [
      "version: must be 2.1.0", "runs[0].tool.driver.name: missing",
      "runs[0].tool.driver.rules[0].shortDescription.text: missing",
      "runs[0].tool.driver.rules[0].defaultConfiguration.level: fatal is not a level",
      "runs[0].columnKind: bytes is not a column kind", "runs[0].results[0].message: needs text or id",
      "runs[0].results[0].ruleIndex: 0 does not name rule b", "runs[0].results[0].ruleId: b is not a rule",
      "runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri: a b.json holds byte 32, which a URI cannot",
      "runs[0].results[0].locations[0].physicalLocation.region.startLine: must be 1 or more, not 0",
      "runs[0].results[0].locations[0].physicalLocation.region.startColumn: must be an integer",
      "runs[0].results[0].locations[0].logicalLocations[0].fullyQualifiedName: must be a string, not number",
    ] {
      #expect(problems.contains(expected), "\(expected) not in \(problems)")
    }
  }
}
