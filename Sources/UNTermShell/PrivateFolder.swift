import Foundation
import UNTermInput

#if canImport(Glibc)
  import Glibc
#endif

/// The folders the socket and the inbox live in.
enum PrivateFolder {
  enum Purpose {
    /// Others may share the folder if it is sticky (as `/tmp` is): they cannot replace our socket.
    case socket
    /// Nobody else may write to it, or they could deliver payloads into the session.
    case inbox
  }

  /// Makes the folder (0700) if it does not exist; an existing one is used as it is, and
  /// refused when someone else could tamper with what UNTerm puts in it.
  ///
  /// - Returns: whether UNTerm created the folder.
  @discardableResult
  static func prepare(_ path: String, for purpose: Purpose) throws(UNTermError) -> Bool {
    let shown = OneLine.flatten(path)
    if mkdir(path, 0o700) == 0 {
      // Ours: make it exactly 0700 whatever the umask, through a descriptor so it is the folder
      // just made.
      let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      if fd >= 0 {
        _ = fchmod(fd, 0o700)
        close(fd)
      }
      return true
    }
    guard errno == EEXIST else {
      throw UNTermError(.noInput, file: shown, "cannot create the folder: \(String(cString: strerror(errno)))")
    }
    var link = stat()
    guard lstat(path, &link) == 0 else {
      throw UNTermError(.noInput, file: shown, "cannot read the folder: \(String(cString: strerror(errno)))")
    }
    if link.st_mode & S_IFMT == S_IFLNK && !isTrusted(owner: link.st_uid) {
      throw UNTermError(
        .noInput, file: shown,
        "is a symbolic link that belongs to another user (uid \(link.st_uid)); refusing to use it")
    }
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
      throw UNTermError(.noInput, file: shown, "is not a folder (\(FileKind(info.st_mode).description) is there)")
    }
    guard isTrusted(owner: info.st_uid) else {
      throw UNTermError(
        .noInput, file: shown,
        "the folder belongs to another user (uid \(info.st_uid)), who could replace what UNTerm puts in it; use a folder of your own"
      )
    }
    let mode = info.st_mode & 0o7777
    let othersWrite = mode & (S_IWGRP | S_IWOTH) != 0
    switch purpose {
    case .socket where othersWrite && mode & S_ISVTX == 0:
      throw UNTermError(
        .noInput, file: shown,
        "others can write to this folder (mode \(octal(mode))) and it is not sticky, so they could replace the socket; use a private folder"
      )
    case .inbox where othersWrite:
      throw UNTermError(
        .noInput, file: shown,
        "others can write to this folder (mode \(octal(mode))), so they could deliver payloads into the session; make it private (chmod 700)"
      )
    default:
      return false
    }
  }

  /// This user, or root (who owns `/tmp` and `/run`).
  static func isTrusted(owner: uid_t) -> Bool { owner == getuid() || owner == 0 }

  static func octal(_ mode: mode_t) -> String {
    let digits = String(mode, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

/// What kind of file a mode says, for messages.
struct FileKind: CustomStringConvertible {
  let type: mode_t

  init(_ mode: mode_t) { type = mode & S_IFMT }

  var description: String {
    switch type {
    case S_IFREG: return "a regular file"
    case S_IFDIR: return "a folder"
    case S_IFLNK: return "a symbolic link"
    case S_IFIFO: return "a FIFO"
    case S_IFSOCK: return "a socket"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    default: return "nothing"
    }
  }
}
