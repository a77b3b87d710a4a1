import Foundation
import UNTermCore
import UNTermHeadless

// Appends numbered records to a response log as fast as it can, printing "ack N" after each
// record is synced. The durability test kills it with SIGKILL and checks that every
// acknowledged record is in the file.
let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[2]) else {
  FileHandle.standardError.write(Data("usage: unterm-log-stress LOG COUNT PREFIX\n".utf8))
  exit(2)
}
do {
  let log = try ResponseLog(path: arguments[1])
  if log.repairedTornTail { FileHandle.standardOutput.write(Data("repaired\n".utf8)) }
  for i in 0..<count {
    let record: JSONWriter.Value = .object([
      ("actionIdentifier", .string("stress")), ("userText", .string("record \(i) — ক্ষ")),
      ("requestIdentifier", .string("\(arguments[3])-\(i)")), ("categoryIdentifier", .string("message")),
      ("threadIdentifier", .string("")), ("date", .string("2026-01-01T09:41:00Z")),
      ("device", .string("iphone")), ("locked", .bool(false)),
    ])
    try log.append(record)
    FileHandle.standardOutput.write(Data("ack \(arguments[3])-\(i)\n".utf8))
  }
} catch {
  FileHandle.standardError.write(Data("\(error)\n".utf8))
  exit(1)
}
