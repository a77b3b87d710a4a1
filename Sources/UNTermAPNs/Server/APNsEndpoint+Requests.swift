import Foundation
import UNTermInput

extension APNsEndpoint {
  /// Answers each request the connection completed; an accepted push goes to the session.
  func handle(_ events: [HTTP2Event], on connection: APNsConnection) {
    for event in events {
      switch event {
      case .request(let request): answer(request, on: connection)
      case .headerListTooLarge(let stream):
        handlers.notice("APNs connection \(connection.id): stream \(stream)'s headers passed 8,000 bytes; it was reset")
      case .streamReset, .goAway: break
      }
    }
  }

  private func answer(_ http2: HTTP2Request, on connection: APNsConnection) {
    let request = APNsRequest(http2)
    let time = Date()
    let wasAuthenticated = isAuthenticated(connection)
    var verdict: Result<APNsAcceptedPush, APNsRejection>
    if let reason = takeInjectedFailure() {
      let id = request["apns-id"].flatMap { UUID.isAPNsID($0) ? $0 : nil } ?? UUID.apnsID()
      verdict = .failure(APNsRejection(reason, "asked for (unterm center apns-fail)", apnsID: id, timestamp: time))
    } else {
      verdict = APNsRequestCheck(devices: devices.snapshot, now: time).check(
        request, credential: &connection.credential)
    }
    let answer: APNsAnswer
    switch verdict {
    case .success(let push): answer = APNsAnswer(accepted: push, development: configuration.development)
    case .failure(let rejection): answer = APNsAnswer(rejected: rejection)
    }
    connection.answer(stream: http2.stream, with: answer)
    if !wasAuthenticated && isAuthenticated(connection) {
      connection.raiseStreamLimit(to: configuration.maxConcurrentStreams)
    }
    handlers.exchange(
      APNsExchange(request: request, connection: connection.id, stream: http2.stream, time: time, verdict: verdict))
    if case .success(let push) = verdict { handlers.push(push) }
  }

  private func isAuthenticated(_ connection: APNsConnection) -> Bool {
    switch connection.credential {
    case .token(let authentication): return authentication.isAuthenticated
    case .certificate: return true
    }
  }
}

extension APNsRequest {
  /// A request as HTTP/2 delivered it: the pseudo-headers apart, the others in order.
  init(_ request: HTTP2Request) {
    var method: String?
    var path: String?
    var headers: [(name: String, value: String)] = []
    for header in request.headers {
      switch header.name {
      case ":method": method = header.value
      case ":path": path = header.value
      case let name where name.hasPrefix(":"): continue
      default: headers.append((header.name.lowercased(), header.value))
      }
    }
    self.init(method: method, path: path, headers: headers, body: request.body, bodyTruncated: request.bodyTruncated)
  }
}
