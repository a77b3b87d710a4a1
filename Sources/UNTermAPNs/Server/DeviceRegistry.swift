import Foundation

/// The session device's tokens, shared by the endpoint's thread and the session's
/// (`unterm center tokens`), and kept in a file so they stay the same from one session to the
/// next (`$XDG_DATA_HOME/unterm/apns/device-tokens.json`, 0600): a backend's fixture can hold
/// them.
package final class DeviceRegistry: @unchecked Sendable {
  private let lock = NSLock()
  private var tokens: DeviceTokens
  private let file: URL?

  /// The tokens in `file` (none when it does not exist yet); `nil` keeps them in memory.
  package init(file: URL?) throws(APNsSetupError) {
    self.file = file
    tokens = DeviceTokens()
    guard let file, FileManager.default.fileExists(atPath: file.path) else { return }
    do {
      let decoder = JSONDecoder()
      decoder.dateDecodingStrategy = .iso8601
      tokens = try decoder.decode(DeviceTokens.self, from: Data(contentsOf: file))
    } catch {
      throw APNsSetupError("\(file.path): cannot read the device tokens: \(error.localizedDescription)")
    }
  }

  /// The tokens now.
  package var snapshot: DeviceTokens {
    lock.lock()
    defer { lock.unlock() }
    return tokens
  }

  /// The token of `app`, made (and saved) if it has none.
  package func token(for app: String) -> String {
    lock.lock()
    let (token, made) = tokens.token(for: app)
    let copy = tokens
    lock.unlock()
    if made { save(copy) }
    return token
  }

  /// Sets an app's token (`--device-token APP=HEX`).
  package func set(_ token: String, for app: String) throws(DeviceTokenError) {
    lock.lock()
    do {
      try tokens.set(token, for: app)
    } catch {
      lock.unlock()
      throw error
    }
    let copy = tokens
    lock.unlock()
    save(copy)
  }

  /// Makes an app's token answer 410 `Unregistered` from now on.
  package func expire(_ app: String, at date: Date = Date()) {
    lock.lock()
    tokens.expire(app, at: date)
    let copy = tokens
    lock.unlock()
    save(copy)
  }

  private func save(_ tokens: DeviceTokens) {
    guard let file else { return }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
    encoder.dateEncodingStrategy = .iso8601
    guard let data = try? encoder.encode(tokens) else { return }
    let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(getpid())")
    guard FileManager.default.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600])
    else { return }
    if rename(temporary.path, file.path) != 0 { unlink(temporary.path) }
  }
}

/// The endpoint cannot start: its one-line reason.
package struct APNsSetupError: Error, Sendable, CustomStringConvertible {
  package var message: String
  package init(_ message: String) { self.message = message }
  package var description: String { message }
}
