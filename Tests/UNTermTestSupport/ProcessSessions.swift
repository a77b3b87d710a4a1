import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The processes of a session (in the POSIX sense), found in `/proc`: what runs in a terminal a
/// test made (a tmux pane's shell leads one), so cleanup reaches programs that outlived it.
package enum ProcessSessions {
  /// The processes whose session is `session`.
  package static func members(of session: pid_t) -> [pid_t] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return names.compactMap { name -> pid_t? in
      guard let pid = pid_t(name),
        let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return nil }
      // After "pid (comm)": state, ppid, pgrp, session.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      return fields.count > 3 && pid_t(fields[3]) == session ? pid : nil
    }
  }

  /// Kills every process of a session.
  package static func kill(session: pid_t) {
    guard session > 1 else { return }
    for pid in members(of: session) { Glibc.kill(pid, SIGKILL) }
  }
}
