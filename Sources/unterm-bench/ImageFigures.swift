import CMediaFixtures
import Foundation
import UNTermCore

#if canImport(Glibc)
  import Glibc
#endif

/// What an image attachment adds to `unterm render`: the release `unterm` beside this benchmark
/// renders a payload whose service extension attaches a 4000 × 3000 picture, and the same payload
/// without it; the difference in wall time and in peak memory (medians of alternating runs) is
/// what decoding the picture to its thumbnail costs. The pictures are made here, at bench time.
enum ImageFigures {
  struct Case {
    var name: String
    var file: String
    var goalMillis: Double
    var goalMiB: Double
  }

  struct Run {
    var millis: Double
    /// User and system CPU time, which load on the machine disturbs less than wall time.
    var cpuMillis: Double
    var maxRSSKiB: Int
  }

  static let width: UInt32 = 4000
  static let height: UInt32 = 3000

  static func run(runs: Int = 15) throws -> [SummaryRow] {
    let unterm = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent().appendingPathComponent("unterm").path
    guard FileManager.default.isExecutableFile(atPath: unterm) else {
      throw BenchError("no unterm beside unterm-bench at \(unterm); build it with the same configuration")
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unterm-bench-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }

    // Large blocks go back to the system when freed, so the forked children start small.
    cmf_return_freed_memory()
    let made = Date()
    let sizes = try makePictures(in: folder)
    note(
      "made the pictures in \(String(format: "%.1f", Date().timeIntervalSince(made))) s; this process now holds \(residentKiB()) KiB"
    )
    let cases = [
      Case(name: "baseline JPEG", file: "photo.jpg", goalMillis: 15, goalMiB: 8),
      Case(name: "progressive JPEG", file: "photo-progressive.jpg", goalMillis: 30, goalMiB: 8),
      Case(name: "PNG", file: "picture.png", goalMillis: 40, goalMiB: 8),
      // Not a row of the issue: the same picture interlaced, whose thumbnail reads only the
      // Adam7 passes it needs.
      Case(name: "interlaced PNG", file: "picture-interlaced.png", goalMillis: 40, goalMiB: 8),
    ]
    let text = try payload(in: folder, name: "text.json", image: nil)
    let payloads = try cases.map { try payload(in: folder, name: "\($0.file).json", image: $0.file) }

    var textRuns: [Run] = []
    var imageRuns = [[Run]](repeating: [], count: cases.count)
    // One warm-up round, then alternate so load changes hit every case alike.
    for round in 0...runs {
      let plain = try render(unterm, text)
      if round > 0 { textRuns.append(plain) }
      for (index, file) in payloads.enumerated() {
        let run = try render(unterm, file)
        if round > 0 { imageRuns[index].append(run) }
      }
    }
    let baseTime = median(textRuns.map(\.millis))
    let baseCPU = median(textRuns.map(\.cpuMillis))
    let baseMemory = median(textRuns.map { Double($0.maxRSSKiB) }) / 1024
    Console.line("")
    Console.line(
      "image attachments, \(width)×\(height), to the banner thumbnail (unterm render, median of \(runs); minus a text-only render: \(String(format: "%.1f ms, %.1f MiB", baseTime, baseMemory)))"
    )
    Console.line(
      "picture            file size      time  goal       CPU time   peak memory  goal        library alone (CPU)")
    var rows: [SummaryRow] = []
    for (index, item) in cases.enumerated() {
      let time = median(imageRuns[index].map(\.millis)) - baseTime
      let cpu = median(imageRuns[index].map(\.cpuMillis)) - baseCPU
      let memory = median(imageRuns[index].map { Double($0.maxRSSKiB) }) / 1024 - baseMemory
      let path = folder.appendingPathComponent(item.file).path
      let png = item.file.hasSuffix(".png")
      // An interlaced PNG's thumbnail inflates only its first passes: the whole is no floor.
      let interlaced = item.file.contains("interlaced")
      let alone = median((0..<5).map { _ in png ? cmf_time_png_rows(path) : cmf_time_jpeg_eighth(path) })
      // A PNG's floor: zlib inflating its image data, which every decoder built on zlib does.
      let inflate = png ? median((0..<5).map { _ in cmf_time_png_inflate(path) }) : 0
      line(
        format: "%@ %6.1f MB  %+6.1f ms  ≤ %2.0f ms  %+6.1f ms  %+6.1f MiB  ≤ +%.0f MiB  %5.1f ms (%@)  %@",
        item.name.padding(toLength: 16, withPad: " ", startingAt: 0), Double(sizes[item.file] ?? 0) / 1e6, time,
        item.goalMillis, cpu, memory, item.goalMiB, alone, png ? "libpng's rows" : "libjpeg at 1/8",
        (time <= item.goalMillis && memory <= item.goalMiB ? "meets" : "MISSES")
          + (cpu <= item.goalMillis ? " (CPU time too)" : " (CPU time: MISSES)"))
      if png {
        line(
          format: "  the %@: zlib alone inflates all its image data in %.1f ms CPU; UNTerm takes %.2f× that%@",
          item.name, inflate, cpu / inflate,
          inflate > item.goalMillis && !interlaced ? " (the goal is below the floor on this machine)" : "")
      }
      rows.append(
        SummaryRow(
          what: "4000×3000 \(item.name) to its thumbnail (render − text-only render)",
          measured: Summary.format("%+.1f ms wall, %+.1f ms CPU, %+.1f MiB", time, cpu, memory),
          floor: png && !interlaced ? Summary.format("inflate %.1f ms", inflate) : "—",
          ratio: png && !interlaced ? Summary.format("%.2f×", cpu / inflate) : "—",
          goal: Summary.format("≤ %.0f ms, ≤ +%.0f MiB", item.goalMillis, item.goalMiB),
          met: time <= item.goalMillis && memory <= item.goalMiB, metOnCPU: cpu <= item.goalMillis))
    }
    Console.line(
      "(time: wall clock, which the goal is judged by, as the issue measured it on this 2-core machine: run the bench with the machine otherwise idle; CPU time: user + system of the process, both threads of a two-thread decode, judged beside it; library alone: CPU time of the same file read by libpng, or decoded by libjpeg at 1/8, in this process, nothing kept; zlib alone: its IDAT data inflated, in this process)"
    )
    return rows
  }

  /// The three pictures: a photo-like JPEG (quality 85, baseline and progressive) and an
  /// illustration-like PNG (no per-pixel noise, so it stays under the 10 MB image limit).
  static func makePictures(in folder: URL) throws -> [String: Int] {
    var sizes: [String: Int] = [:]
    func write(_ name: String, _ bytes: UnsafeMutablePointer<UInt8>?, _ count: Int) throws {
      guard let bytes else { throw BenchError("encoding \(name) failed") }
      defer { cmf_free(bytes) }
      try Data(bytes: bytes, count: count).write(to: folder.appendingPathComponent(name))
      sizes[name] = count
    }
    for (noise, files) in [
      (12, ["photo.jpg", "photo-progressive.jpg"]), (0, ["picture.png", "picture-interlaced.png"]),
    ] {
      var rgb: UnsafeMutablePointer<UInt8>?
      guard cmf_photo_rgb(width, height, 7, Int32(noise), &rgb) == 0, let rgb else {
        throw BenchError("no memory for the picture")
      }
      defer { cmf_free(rgb) }
      for file in files {
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        if file.hasSuffix("-interlaced.png") {
          guard cmf_encode_png_rgb_interlaced(rgb, width, height, &out, &length) == 0 else {
            throw BenchError("PNG failed")
          }
        } else if file.hasSuffix(".png") {
          guard cmf_encode_png_rgb(rgb, width, height, &out, &length) == 0 else { throw BenchError("PNG failed") }
        } else {
          var message = [CChar](repeating: 0, count: 200)
          let layout = Int32(file.contains("progressive") ? CMF_JPEG_PROGRESSIVE : CMF_JPEG_BASELINE)
          guard cmf_encode_jpeg(rgb, width, height, 3, 85, layout, &out, &length, &message, message.count) == 0 else {
            throw BenchError("JPEG failed")
          }
        }
        try write(file, out, length)
      }
    }
    return sizes
  }

  /// A mutable-content payload; with `image`, the built-in service extension attaches it.
  static func payload(in folder: URL, name: String, image: String?) throws -> String {
    let url = image.map { #","image-url":"\#($0)""# } ?? ""
    let json = #"{"aps":{"alert":{"title":"Photo","body":"From the beach"},"mutable-content":1}\#(url)}"#
    let file = folder.appendingPathComponent(name)
    try Data(json.utf8).write(to: file)
    return file.path
  }

  /// One `unterm render` of a payload: wall time, CPU time and the child's peak memory.
  static func render(_ unterm: String, _ payload: String) throws -> Run {
    let run = try Measure.child([unterm, "render", "--size", "80x24", "--color", "never", payload])
    return Run(millis: run.millis, cpuMillis: run.cpuMillis, maxRSSKiB: run.maxRSSKiB)
  }

  /// This process's resident memory in KiB (VmRSS).
  static func residentKiB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
  }

  static func note(_ text: SafeText) { Console.line(text, to: .standardError) }
}
