import Foundation

// The floor unterm's start-up is measured against (unterm-bench): a statically linked Swift
// program that reads one payload file and parses it with Foundation, then prints the length of
// its alert's title (a number: the title itself is untrusted text, and this program has no
// sanitizer, as it uses nothing of UNTerm's). Whatever `unterm render` or `unterm --version`
// take beyond this is UNTerm's own cost.
// Usage: unterm-floor PAYLOAD

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: unterm-floor PAYLOAD\n".utf8))
  exit(64)
}
do {
  let data = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
  let object = try JSONSerialization.jsonObject(with: data)
  let aps = (object as? [String: Any])?["aps"] as? [String: Any]
  let alert = aps?["alert"]
  let title = (alert as? [String: Any])?["title"] as? String ?? alert as? String ?? ""
  print(title.utf8.count)
} catch {
  FileHandle.standardError.write(Data("unterm-floor: cannot read or parse the payload\n".utf8))
  exit(65)
}
