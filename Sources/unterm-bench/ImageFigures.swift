import CMediaFixtures
import Foundation
import UNTermInput

#if canImport(Glibc)
  import Glibc
#endif

/// What an image attachment adds to `unterm render`, beside the libraries' own fastest decode
/// of the same file at the same scale: the release `unterm` beside this benchmark renders a
/// payload whose service extension attaches a 4000 × 3000 picture, and the same payload without
/// it; `unterm-image-floor` (the floor, which calls libjpeg-turbo, libpng or giflib directly)
/// decodes the file, and starts without one. Each difference in wall time, CPU time and peak
/// memory (medians of alternating runs, all in the same rounds) is what the picture costs. The
/// pictures are made here, at bench time.
enum ImageFigures {
  struct Case {
    var name: String
    var file: String
    /// Whether the floor decodes what the thumbnail decodes (an interlaced PNG's thumbnail
    /// reads only its first passes, so the whole file is no floor for it).
    var sameWork = true
  }

  struct Run {
    var millis: Double
    /// User and system CPU time, which load on the machine disturbs less than wall time.
    var cpuMillis: Double
    var maxRSSKiB: Int
  }

  /// Medians of runs less medians of the runs they are compared with.
  struct Cost {
    var millis: Double
    var cpuMillis: Double
    var mebibytes: Double

    init(_ runs: [Run], less base: [Run]) {
      millis = median(runs.map(\.millis)) - median(base.map(\.millis))
      cpuMillis = median(runs.map(\.cpuMillis)) - median(base.map(\.cpuMillis))
      mebibytes = (median(runs.map { Double($0.maxRSSKiB) }) - median(base.map { Double($0.maxRSSKiB) })) / 1024
    }
  }

  static let width: UInt32 = 4000
  static let height: UInt32 = 3000
  /// The goals: time within 1.15× the floor's, and at most 8 MiB more memory than a text-only
  /// render.
  static let goalRatio = 1.15
  static let goalMiB = 8.0

  static func run(runs: Int = 15) throws -> [SummaryRow] {
    let unterm = try Measure.sibling("unterm")
    let floor = try Measure.sibling("unterm-image-floor")
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
      Case(name: "baseline JPEG", file: "photo.jpg"),
      Case(name: "progressive JPEG", file: "photo-progressive.jpg"),
      Case(name: "PNG", file: "picture.png"),
      Case(name: "GIF", file: "picture.gif"),
      Case(name: "interlaced PNG", file: "picture-interlaced.png", sameWork: false),
    ]
    let text = try payload(in: folder, name: "text.json", image: nil)
    let payloads = try cases.map { try payload(in: folder, name: "\($0.file).json", image: $0.file) }

    var textRuns: [Run] = []
    var floorStarts: [Run] = []
    var imageRuns = [[Run]](repeating: [], count: cases.count)
    var floorRuns = [[Run]](repeating: [], count: cases.count)
    // One warm-up round, then alternate so load changes hit every case and its floor alike.
    for round in 0...runs {
      let plain = try render(unterm, text)
      let start = try measure([floor])
      if round > 0 { (textRuns, floorStarts) = (textRuns + [plain], floorStarts + [start]) }
      for (index, item) in cases.enumerated() {
        let run = try render(unterm, payloads[index])
        let library = try measure([floor, folder.appendingPathComponent(item.file).path])
        if round > 0 { (imageRuns[index], floorRuns[index]) = (imageRuns[index] + [run], floorRuns[index] + [library]) }
      }
    }
    let base = Cost(textRuns, less: [])
    Console.line("")
    Console.line(
      "image attachments, \(width)×\(height), to the banner thumbnail (unterm render, median of \(runs); minus a text-only render: \(String(format: "%.1f ms, %.1f MiB", base.millis, base.mebibytes)))"
    )
    Console.line(
      "picture            file size   UNTerm: time    CPU     memory   floor: time    CPU     memory   ratio  goal")
    var rows: [SummaryRow] = []
    for (index, item) in cases.enumerated() {
      let cost = Cost(imageRuns[index], less: textRuns)
      let library = Cost(floorRuns[index], less: floorStarts)
      let ratio = cost.millis / max(library.millis, 0.01)
      let met = item.sameWork ? ratio <= goalRatio && cost.mebibytes <= goalMiB : cost.mebibytes <= goalMiB
      let metOnCPU = cost.cpuMillis / max(library.cpuMillis, 0.01) <= goalRatio
      line(
        format:
          "%@ %6.1f MB  %+7.1f ms %+7.1f ms %+6.1f MiB  %+7.1f ms %+7.1f ms %+6.1f MiB  %@  ≤ %.2f×, ≤ +%.0f MiB  %@",
        item.name.padding(toLength: 16, withPad: " ", startingAt: 0), Double(sizes[item.file] ?? 0) / 1e6,
        cost.millis, cost.cpuMillis, cost.mebibytes, library.millis, library.cpuMillis, library.mebibytes,
        item.sameWork ? String(format: "%.2f×", ratio) : "  —  ", goalRatio, goalMiB,
        (met ? "meets" : "MISSES") + (item.sameWork ? (metOnCPU ? " (CPU time too)" : " (CPU time: MISSES)") : ""))
      rows.append(
        SummaryRow(
          what: "4000×3000 \(item.name) to its thumbnail (render − text-only render)",
          measured: Summary.format(
            "%+.1f ms wall, %+.1f ms CPU, %+.1f MiB", cost.millis, cost.cpuMillis, cost.mebibytes),
          floor: Summary.format(
            "%.1f ms wall, %.1f ms CPU, %+.1f MiB", library.millis, library.cpuMillis, library.mebibytes),
          ratio: item.sameWork ? Summary.format("%.2f×", ratio) : "—",
          goal: Summary.format("≤ %.2f×, ≤ +%.0f MiB", goalRatio, goalMiB), met: met,
          metOnCPU: item.sameWork ? metOnCPU : nil))
    }
    Console.line(
      "(UNTerm: render with the picture minus a text-only render; floor: unterm-image-floor decoding the file (libjpeg-turbo at 1/8 with its fast DCT and no fancy upsampling, libpng's every row, giflib's first frame) minus its start without one; time is wall clock, judged with the machine otherwise idle, CPU time user + system beside it; the interlaced PNG's thumbnail reads only the passes it needs, so the whole file is no floor for it)"
    )
    return rows
  }

  /// One run of the floor (or any program): wall time, CPU time and peak memory.
  static func measure(_ arguments: [String]) throws -> Run {
    let run = try Measure.child(arguments)
    return Run(millis: run.millis, cpuMillis: run.cpuMillis, maxRSSKiB: run.maxRSSKiB)
  }

  /// The pictures: a photo-like JPEG (quality 85, baseline and progressive) and an
  /// illustration-like PNG and GIF (no per-pixel noise, so they stay under the 10 MB image
  /// limit).
  static func makePictures(in folder: URL) throws -> [String: Int] {
    var sizes: [String: Int] = [:]
    func write(_ name: String, _ bytes: UnsafeMutablePointer<UInt8>?, _ count: Int) throws {
      guard let bytes else { throw BenchError("encoding \(name) failed") }
      defer { cmf_free(bytes) }
      try Data(bytes: bytes, count: count).write(to: folder.appendingPathComponent(name))
      sizes[name] = count
    }
    for (noise, files) in [
      (12, ["photo.jpg", "photo-progressive.jpg"]), (0, ["picture.png", "picture-interlaced.png", "picture.gif"]),
    ] {
      var rgb: UnsafeMutablePointer<UInt8>?
      guard cmf_photo_rgb(width, height, 7, Int32(noise), &rgb) == 0, let rgb else {
        throw BenchError("no memory for the picture")
      }
      defer { cmf_free(rgb) }
      for file in files {
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        if file.hasSuffix(".gif") {
          guard cmf_encode_gif_rgb(rgb, width, height, &out, &length) == 0 else { throw BenchError("GIF failed") }
        } else if file.hasSuffix("-interlaced.png") {
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
    try measure([unterm, "render", "--size", "80x24", "--color", "never", payload])
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
