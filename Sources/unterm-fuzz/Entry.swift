import Foundation
import UNTermInput

#if canImport(Glibc)
  import Glibc
#endif

// Two builds of one program (see Scripts/fuzz.sh and DECISIONS.md):
//
// - `Scripts/fuzz.sh` builds it with `-sanitize=fuzzer,address` and `-D UNTERM_LIBFUZZER`:
//   libFuzzer supplies `main` and calls the entry points below. The target is the first
//   argument (`unterm-fuzz payload CORPUS… -max_total_time=60`) or `UNTERM_FUZZ_TARGET`.
// - `swift build` builds it as a replay driver: `unterm-fuzz TARGET FILE|FOLDER…` runs saved
//   inputs (the checked-in corpora, a crash to reproduce) through the same target code, so the
//   tests keep every seed and every past crash passing.

/// The environment variable naming the target (set from the first argument, so processes
/// libFuzzer starts for `-fork` or `-merge` inherit it).
let targetVariable = "UNTERM_FUZZ_TARGET"

#if UNTERM_LIBFUZZER
  nonisolated(unsafe) var selected: FuzzTarget?

  @_cdecl("LLVMFuzzerInitialize")
  public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
  ) -> CInt {
    let args = argv.pointee
    if argc.pointee > 1, let first = args[1], let target = FuzzTarget(rawValue: String(cString: first)) {
      setenv(targetVariable, target.rawValue, 1)
      // Take the name out of the arguments libFuzzer reads.
      for i in 1..<Int(argc.pointee) { args[i] = args[i + 1] }
      argc.pointee -= 1
    }
    guard let name = getenv(targetVariable).map({ String(cString: $0) }), let target = FuzzTarget(rawValue: name)
    else {
      let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
      Console.line("usage: unterm-fuzz TARGET [libFuzzer options] [CORPUS…]; targets: \(names)", to: .standardError)
      exit(2)
    }
    selected = target
    return 0
  }

  @_cdecl("LLVMFuzzerTestOneInput")
  public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    selected?.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
  }
#else
  @main
  enum Replay {
    static func main() {
      var arguments = Array(CommandLine.arguments.dropFirst())
      if arguments.first == "--list" {
        for target in FuzzTarget.allCases { Console.line("\(target.rawValue)\t\(target.summary)") }
        return
      }
      guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        Console.line(
          "usage: unterm-fuzz TARGET FILE|FOLDER… (replays saved inputs); targets: \(names)", to: .standardError)
        exit(2)
      }
      arguments.removeFirst()
      var count = 0
      for path in arguments {
        for file in inputs(path) {
          guard let data = FileManager.default.contents(atPath: file) else {
            Console.line("unterm-fuzz: cannot read \(file)", to: .standardError)
            exit(66)
          }
          target.run(Array(data))
          count += 1
        }
      }
      Console.line("\(target.rawValue): \(count) input\(count == 1 ? "" : "s") replayed, no failure")
    }

    /// A file, or the files in a folder and its subfolders (sorted, hidden ones skipped).
    static func inputs(_ path: String) -> [String] {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
        return [path]
      }
      let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      return names.filter { !$0.hasPrefix(".") }.sorted().flatMap {
        inputs((path as NSString).appendingPathComponent($0))
      }
    }
  }
#endif
