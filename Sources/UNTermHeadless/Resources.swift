import Foundation

/// Finds UNTerm's own folders — `Themes/`, `SamplePayloads/` — from any working directory.
package enum Resources {
  /// The package root: `$UNTERM_HOME`, else `share/unterm` beside an installed executable, else
  /// found from the executable or this source file (the source tree it was built from).
  package static var root: URL? {
    var candidates: [URL] = []
    if let home = ProcessInfo.processInfo.environment["UNTERM_HOME"], !home.isEmpty {
      candidates.append(URL(fileURLWithPath: home))
    }
    if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      // Installed (`make install`): PREFIX/bin/unterm beside PREFIX/share/unterm.
      let bin = URL(fileURLWithPath: exe).deletingLastPathComponent()
      candidates.append(bin.deletingLastPathComponent().appendingPathComponent("share/unterm"))
      var dir = bin
      for _ in 0..<5 {
        candidates.append(dir)
        dir = dir.deletingLastPathComponent()
      }
    }
    // The source tree this binary was built from (swift run, swift test).
    candidates.append(
      URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent())
    candidates.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
    return candidates.first { isRoot($0) }
  }

  private static func isRoot(_ url: URL) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(
      atPath: url.appendingPathComponent("Themes").path, isDirectory: &isDirectory)
      && isDirectory.boolValue
      && FileManager.default.fileExists(atPath: url.appendingPathComponent("SamplePayloads").path)
  }

  /// The `Themes/` folder.
  package static var themes: URL? { root?.appendingPathComponent("Themes") }
  /// The `SamplePayloads/` folder.
  package static var samples: URL? { root?.appendingPathComponent("SamplePayloads") }
}
