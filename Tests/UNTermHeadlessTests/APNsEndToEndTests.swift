import Foundation
import Testing
import UNTermTestSupport

/// A port nothing listens on now (the system's choice, released for the program to take).
private func freePort() throws -> Int {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  defer { close(fd) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  _ = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
  }
  _ = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
  }
  return Int(UInt16(bigEndian: address.sin_port))
}

/// A backend's real APNs clients against `unterm run --apns-listen`: each push APNs accepts is on
/// the screen the script checks.
@Suite("A backend's APNs clients push to unterm run", .serialized)
struct APNsEndToEndTests {
  private let provider = Fixtures.root.appendingPathComponent("Examples/apns-provider")

  private var environment: [String: String] {
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("unterm-apns-\(UUID().uuidString)")
    return [
      "PATH": Fixtures.productsDirectory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
      "XDG_DATA_HOME": data.path,
    ]
  }

  @Test("the documented CI example: aioapns with a real .p8 key and JWT, then the script sees the banner")
  func ciExample() throws {
    let missing = SystemPackages.pythonReason(
      modules: ["aioapns"], packages: ["aioapns"], purpose: "the aioapns provider of Examples/apns-provider")
    try #require(missing == nil, "\(missing ?? "")")
    var environment = environment
    environment["PORT"] = String(try freePort())
    let result = try Fixtures.run(
      "/bin/bash", [provider.appendingPathComponent("ci.sh").path], environment: environment, timeout: 120)
    #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
    #expect(result.stdout.contains(" 200\n"), "\(result.stdout)")
    #expect(result.stdout.contains("✓ order-shipped.session — 4 steps, 2 expectations"), "\(result.stdout)")
    #expect(result.stdout.contains(#""status":200"#), "the --apns-log line: \(result.stdout)")
  }

  @Test("httpx over HTTP/2 with its own HPACK: a 200 shown, and APNs's errors for a bad token and a wrong topic")
  func httpx() throws {
    let missing = SystemPackages.pythonReason(
      modules: ["httpx", "h2"], packages: ["httpx[http2]"], purpose: "sending to the APNs endpoint with httpx")
    try #require(missing == nil, "\(missing ?? "")")
    let port = try freePort()
    let token = String(repeating: "cd", count: 32)
    let script = try scriptFile(
      "httpx",
      """
      bundle com.example.chat
      wait push within 60s
      expect screen "Gate B12"
      expect screen activity "BadDeviceToken:"
      expect screen activity "DeviceTokenNotForTopic:"

      """
    )
    var environment = environment
    let run = try ChildProcess(
      Fixtures.unterm,
      ["run", "--apns-listen", String(port), "--device-token", "com.example.chat=\(token)", script.path],
      environment: ChildProcess.environment(environment), stdin: "")
    let client = """
      import httpx, json, subprocess, sys, time
      ca = subprocess.run(["unterm", "apns", "ca"], capture_output=True, text=True).stdout.splitlines()[0]
      def send(token, topic):
          with httpx.Client(http2=True, verify=ca) as c:
              r = c.post(f"https://localhost:{sys.argv[1]}/3/device/{token}",
                  headers={"apns-topic": topic, "apns-push-type": "alert", "authorization": "bearer " + sys.argv[2]},
                  content=json.dumps({"aps": {"alert": {"title": "Boarding", "body": "Gate B12"}}}))
              print(r.http_version, r.status_code, r.text or r.headers["apns-id"])
      for _ in range(100):
          try:
              send("00" * 32, "com.example.chat"); break
          except httpx.ConnectError:
              time.sleep(0.1)
      send(sys.argv[3], "com.example.other")
      send(sys.argv[3], "com.example.chat")
      """
    environment["PYTHONUNBUFFERED"] = "1"
    let jwt = Self.unsignedJWT()
    let sent = try Fixtures.run(
      "/usr/bin/env", ["python3", "-c", client, String(port), jwt, token], environment: environment, timeout: 60)
    let lines = sent.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 3, "\(sent.stdout)\n\(sent.stderr)")
    #expect(lines.first == #"HTTP/2 400 {"reason":"BadDeviceToken"}"#)
    #expect(lines.dropFirst().first == #"HTTP/2 400 {"reason":"DeviceTokenNotForTopic"}"#)
    #expect(lines.last?.hasPrefix("HTTP/2 200 ") == true)
    let status = ChildProcess.exitCode(try run.wait(upTo: 60))
    #expect(status == 0, "\(run.output)\n\(run.errors)")
  }

  @Test(
    "offline: APNs holds each app's newest push (the status bar says Offline) and delivers it when the device is back")
  func offlineHoldsTheNewest() throws {
    let port = try freePort()
    let token = String(repeating: "ab", count: 32)
    let script = try scriptFile(
      "offline",
      """
      bundle com.example.chat
      offline on
      expect screen "Offline"
      wait push 3 within 60s
      expect screen activity "is holding"
      expect screen activity "(it replaces"
      expect screen activity "APNs dropped"
      expect screen not "Gate"
      offline off
      expect screen "Gate C3"
      expect screen not "Gate B12"
      expect screen not "Gate D4"
      expect screen not "Offline"

      """
    )
    let run = try ChildProcess(
      Fixtures.unterm,
      [
        "run", "--apns-listen", String(port), "--apns-plaintext", "--device-token", "com.example.chat=\(token)",
        "--device-token", "com.example.other=\(String(repeating: "cd", count: 32))", script.path,
      ],
      environment: ChildProcess.environment(environment), stdin: "")
    // Two pushes to the chat app (the second replaces the first in APNs's store), then one to
    // another app that asks APNs not to store it.
    let jwt = Self.unsignedJWT()
    func send(_ gate: String, topic: String = "com.example.chat", device: String = token, extra: [String] = [])
      throws -> String
    {
      let body = #"{"aps":{"alert":{"title":"Boarding","body":"Gate \#(gate)"}}}"#
      for _ in 0..<100 {
        let result = try Fixtures.run(
          "/usr/bin/curl",
          [
            "-s", "-o", "/dev/null", "-w", "%{http_code}", "--http2-prior-knowledge", "-H", "apns-topic: \(topic)",
            "-H", "authorization: bearer \(jwt)", "--data", body,
          ] + extra.flatMap { ["-H", $0] } + ["http://127.0.0.1:\(port)/3/device/\(device)"], timeout: 20)
        if result.stdout != "000" { return result.stdout }
        Thread.sleep(forTimeInterval: 0.1)
      }
      return "never connected"
    }
    #expect(try send("B12") == "200")
    #expect(try send("C3") == "200")
    #expect(
      try send(
        "D4", topic: "com.example.other", device: String(repeating: "cd", count: 32), extra: ["apns-expiration: 0"])
        == "200")
    let status = ChildProcess.exitCode(try run.wait(upTo: 60))
    #expect(status == 0, "\(run.output)\n\(run.errors)")
  }

  /// A script in a folder of its own.
  private func scriptFile(_ name: String, _ text: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unterm-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let script = folder.appendingPathComponent("\(name).session")
    try Data(text.utf8).write(to: script)
    return script
  }

  /// A token of the right form, issued now; without --apns-key its signature is not checked.
  private static func unsignedJWT() -> String {
    func encode(_ text: String) -> String {
      Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
    let header = encode(#"{"alg":"ES256","kid":"ABC123DEFG"}"#)
    let claims = encode("{\"iss\":\"DEF567XYZA\",\"iat\":\(Int(Date().timeIntervalSince1970))}")
    return "\(header).\(claims).\(encode(String(repeating: "s", count: 64)))"
  }
}
