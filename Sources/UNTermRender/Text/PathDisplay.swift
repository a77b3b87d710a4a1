/// Shows the absolute paths in a message relative to a folder — the script's folder in `unterm
/// run`, the working directory elsewhere — so what is on screen does not depend on where a
/// project lives: a snapshot taken in one checkout matches in another.
///
/// Pure text work: the folder's forms (as given, and with links resolved) are found by the
/// shell that makes it. A path is recognised where a `/` starts a word; it ends at a space, a
/// quote, a bracket, a colon, or a comma, semicolon or full stop that ends a clause. A path
/// sharing nothing with the folder but the root (`/run/user/…`) stays absolute.
package struct PathDisplay: Sendable, Hashable {
  /// How a path outside the folder is shown.
  package enum Outside: Sendable, Hashable {
    /// Relative too, with `..`: a script's folder, where a project's files sit beside it and a
    /// snapshot must read the same in every checkout.
    case relative
    /// Absolute, or from `~` when it is in `home`: the working directory of a session, where
    /// `../unterm-0/session.sock` would point outside the project and mean nothing (issue 25.10).
    case absolute(home: String?)
  }

  /// The folder's absolute forms, each without a trailing `/`.
  package private(set) var bases: [String]
  /// How paths outside the folder are shown.
  package private(set) var outside = Outside.relative
  /// The folders the bases are in, and the bases, longest first: a path in text is taken whole
  /// through the longest of these it starts with, spaces and all.
  private var prefixes: [[Character]] = []

  /// Shows paths as they are.
  package static let absolute = PathDisplay(bases: [])

  /// Paths relative to `folder` (absolute), and to each of its other absolute forms (the same
  /// folder with its symbolic links resolved, say).
  package init(relativeTo folder: String, alsoKnownAs others: [String] = [], outside: Outside = .relative) {
    self.init(bases: [folder] + others)
    self.outside = outside
  }

  private init(bases: [String]) {
    // Arrays rather than sets: a handful of folders, made at every session's start.
    var unique: [String] = []
    for base in bases.map({ Self.normalized($0) }) where base.hasPrefix("/") && !unique.contains(base) {
      unique.append(base)
    }
    self.bases = unique.sorted { $0.count > $1.count }
    var folders: [String] = []
    for base in self.bases {
      var folder = Substring(base)
      while folder.count > 1 {
        if !folders.contains(where: { $0 == folder }) { folders.append(String(folder)) }
        folder = folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)]
      }
    }
    prefixes = folders.sorted { $0.count > $1.count }.map(Array.init)
  }

  /// The text with every absolute path in it written relative to the folder.
  package func apply(_ text: String) -> String {
    guard !bases.isEmpty, text.contains("/") else { return text }
    let chars = Array(text)
    var out = ""
    var i = 0
    while i < chars.count {
      guard chars[i] == "/", i == 0 || Self.opensWord.contains(chars[i - 1]) else {
        out.append(chars[i])
        i += 1
        continue
      }
      // A folder may hold spaces: take the longest known one the text starts with whole.
      var end = i
      for candidate in prefixes {
        if i + candidate.count <= chars.count, Array(chars[i..<(i + candidate.count)]) == candidate,
          i + candidate.count == chars.count || chars[i + candidate.count] == "/"
            || Self.endsPath(chars, at: i + candidate.count)
        {
          end = i + candidate.count
          break
        }
      }
      while end < chars.count, !Self.endsPath(chars, at: end) { end += 1 }
      out += relative(String(chars[i..<end]))
      i = end
    }
    return out
  }

  /// One absolute path relative to the folder form it shares most with.
  package func relative(_ path: String) -> String {
    let parts = Self.components(Self.normalized(path))
    var best: (shared: Int, base: [Substring])?
    for base in bases {
      let baseParts = Self.components(base)
      var shared = 0
      while shared < min(parts.count, baseParts.count), parts[shared] == baseParts[shared] { shared += 1 }
      if shared > (best?.shared ?? 0) { best = (shared, baseParts) }
    }
    guard let best else { return path }
    if case .absolute(let home) = outside, best.shared < best.base.count {
      // Outside the folder: where it is, the home folder written `~`.
      let normalized = Self.normalized(path)
      if let home = home.map(Self.normalized), home != "/", normalized.hasPrefix(home + "/") {
        return "~" + normalized.dropFirst(home.count)
      }
      return normalized
    }
    let up = Array(repeating: "..", count: best.base.count - best.shared)
    let down = parts.dropFirst(best.shared).map(String.init)
    let joined = (up + down).joined(separator: "/")
    return joined.isEmpty ? "." : joined
  }

  /// Characters after which a `/` starts a path.
  private static let opensWord: Set<Character> = [" ", "\t", "\n", "\"", "'", "“", "‘", "(", "[", "<", "=", "«"]

  /// Whether the path that reaches `index` ends there.
  private static func endsPath(_ chars: [Character], at index: Int) -> Bool {
    let c = chars[index]
    if [" ", "\t", "\n", "\"", "”", "’", ")", "]", ">", "»", "…", ":"].contains(c) { return true }
    // A comma, semicolon, full stop or apostrophe ends the path when it ends a clause.
    if [",", ";", ".", "'"].contains(c) {
      return index + 1 == chars.count || [" ", "\t", "\n", ")", "\"", "”"].contains(chars[index + 1])
    }
    return false
  }

  /// The path's components, `..` and `.` worked out as text.
  private static func components(_ path: String) -> [Substring] {
    var parts: [Substring] = []
    for part in path.split(separator: "/") {
      if part == "." { continue }
      if part == ".." {
        if !parts.isEmpty { parts.removeLast() }
        continue
      }
      parts.append(part)
    }
    return parts
  }

  private static func normalized(_ path: String) -> String {
    // Joined by hand: `joined(separator:)` of substrings is not specialized here, and its first
    // call looked up witness tables at run time at every session's start.
    var out = ""
    for part in components(path) {
      out += "/"
      out.append(contentsOf: part)  // (`+=` takes the generic, unspecialized path)
    }
    return out.isEmpty ? "/" : out
  }
}
