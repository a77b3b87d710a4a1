import Foundation
import UNTermCore
import UNTermHeadless

/// `unterm run`: run session scripts with expectations and snapshots; optionally play them live
/// or record an asciicast.
enum RunCommand {
  static func run(_ arguments: Arguments) throws(UNTermError) -> ExitCode {
    let (parsed, files) = try arguments.parse()
    if parsed.help {
      print(Help.run)
      return .success
    }
    var options = RunOptions()
    options.updateSnapshots = parsed.run.updateSnapshots
    options.logFile = parsed.session.logFile
    let castFile = parsed.run.castFile
    let live = parsed.run.live
    let speed = parsed.run.speed
    guard !files.isEmpty else { throw arguments.usage("run needs at least one SCRIPT file") }
    options.isCI = !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty

    // Parse everything before running anything.
    var scripts: [SessionScript] = []
    var parseFailed = false
    var missing = false
    for file in files {
      do throws(UNTermError) {
        let bytes = try InputFile.read(file, limit: 4 * 1024 * 1024)
        guard let text = String(validating: bytes, as: UTF8.self) else {
          throw UNTermError(.dataError, file: file, "the script is not valid UTF-8")
        }
        scripts.append(try parseScript(text, file: file))
      } catch {
        UNTermMain.warn(error.description)
        if error.exitCode == .noInput { missing = true } else { parseFailed = true }
      }
    }
    if missing { return .noInput }
    if parseFailed { return .dataError }

    var cast: CastWriter?
    if let castFile {
      do {
        cast = try CastWriter(path: castFile, speed: speed)
      } catch {
        let folder = (castFile as NSString).deletingLastPathComponent
        let reason =
          FileManager.default.fileExists(atPath: folder.isEmpty ? "." : folder)
          ? "cannot create the recording file" : "no such folder \(folder)"
        throw UNTermError(.noInput, file: castFile, reason)
      }
    }
    let player = live ? LivePlayer(speed: speed) : nil
    defer { player?.finish() }
    var worst: ExitCode = .success
    var passed = 0
    for script in scripts {
      let observer: (any ScriptObserver)? = player ?? cast
      if let player, let cast { player.chained = cast }
      let result = ScriptRunner(script: script, options: options, observer: observer).run()
      // Recording a snapshot is news, not an error: stdout, so stderr holds errors only.
      for path in result.recorded {
        print("recorded snapshot \(path)")
      }
      if let failure = result.failure {
        print("✗ \(script.file)")
        print(failure.report)
        // A file that could not be loaded is an error: one line on stderr, as every command.
        if let error = failure.error { UNTermMain.warn(error.description) }
        if worst == .success || result.exitCode != .failure { worst = result.exitCode }
      } else {
        passed += 1
        print("✓ \(script.file) — \(result.steps) steps, \(result.expectations) expectations")
      }
    }
    if scripts.count > 1 {
      print("\(passed) of \(scripts.count) scripts passed")
    }
    cast?.close()
    return worst
  }

  private static func parseScript(_ text: String, file: String) throws(UNTermError) -> SessionScript {
    do {
      return try SessionScript.parse(text, file: file)
    } catch {
      throw UNTermError(.dataError, file: file, location: "\(error.line):\(error.column)", error.message)
    }
  }
}
