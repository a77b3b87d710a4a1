import CMediaDecode
import Foundation
import UNTermHeadless
import UNTermInput
import UNTermMedia
import UNTermRender
import UNTermScript
import UNTermShell
import UNTermState
import UserNotificationsModel
import UserNotificationsUI

/// The fuzz targets: each takes one input and must neither trap nor break its invariants.
///
/// A broken invariant ends the process with `abort()`, so libFuzzer records the input as a
/// crash; the replay driver (`unterm-fuzz TARGET FILE...` in a normal build) runs the same code
/// over saved inputs.
enum FuzzTarget: String, CaseIterable, Sendable {
  /// The JSON parser and the payload loader (PayloadAnalyzer), and the sanitizer on its text.
  case payload
  /// The categories file.
  case categories
  /// Content-extension descriptors (JSON), measured and drawn on both devices.
  case descriptor
  /// An extension's Info.plist.
  case plist
  /// The session-script parser.
  case script
  /// Themes.
  case theme
  /// A payload delivered into a session and drawn in every view, device and size: no control
  /// byte may reach the grid.
  case render
  /// PNG, JPEG and GIF through CMediaDecode with its caps (under AddressSanitizer).
  case media
  /// Audio and movie headers (WAV, AIFF, MP4, MP3) read for the player's duration.
  case duration
  /// The push socket's framing.
  case push
  /// An app's strings (`.strings` as text, XML or binary property list, `.stringsdict`, String
  /// Catalog), every entry formatted with hostile arguments.
  case strings

  /// What the target exercises, for `--list`.
  var summary: String {
    switch self {
    case .payload: return "JSON parser and payload loader, sanitized text"
    case .categories: return "categories file"
    case .descriptor: return "content-extension descriptor, measured and drawn"
    case .plist: return "extension Info.plist"
    case .script: return "session-script parser"
    case .theme: return "theme files"
    case .render: return "a payload drawn in every view; no control byte in the grid"
    case .media: return "PNG/JPEG/GIF decoding through CMediaDecode with caps"
    case .duration: return "audio and movie headers read for the player's clock"
    case .push: return "push-socket framing"
    case .strings: return "the app's strings files and the format engine"
    }
  }

  /// Runs one input.
  func run(_ bytes: [UInt8]) {
    switch self {
    case .payload: FuzzChecks.payload(bytes)
    case .categories: FuzzChecks.categories(bytes)
    case .descriptor: FuzzChecks.descriptor(bytes, file: "fuzz.json")
    case .plist: FuzzChecks.descriptor(bytes, file: "Info.plist")
    case .script: FuzzChecks.script(bytes)
    case .theme: FuzzChecks.theme(bytes)
    case .render: FuzzChecks.render(bytes)
    case .media: FuzzChecks.media(bytes)
    case .duration: FuzzChecks.duration(bytes)
    case .push: FuzzChecks.push(bytes)
    case .strings: FuzzChecks.strings(bytes)
    }
  }
}

/// Ends the process when an invariant breaks, naming it (libFuzzer saves the input).
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  if !condition() {
    Console.line("unterm-fuzz: invariant broken: \(message())", to: .standardError)
    abort()
  }
}

enum FuzzChecks {
  /// The repository, found from this file, for the sample categories and descriptors.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The sample categories, registered in every session.
  static let categories: [UNNotificationCategory] = {
    let path = root.appendingPathComponent("SamplePayloads/categories.json").path
    return (try? CategoriesFile.load(path))?.categories ?? []
  }()

  /// The sample content-extension descriptors (for the `chat` and `media` categories).
  static let descriptors: [ContentExtensionDescriptor] = {
    ["extension-chat-card.json", "extension-media-card.json"].compactMap {
      try? ContentExtensionDescriptor.load(root.appendingPathComponent("SamplePayloads/\($0)").path).0
    }
  }()

  static let now = Date(timeIntervalSince1970: 1_764_446_400)

  // MARK: - Parsers

  static func payload(_ bytes: [UInt8]) {
    let registered = Dictionary(categories.map { ($0.identifier, $0) }, uniquingKeysWith: { a, _ in a })
    let payload = PayloadAnalyzer.analyze(bytes, file: "fuzz.json", categories: registered)
    checkDiagnostics(payload.diagnostics)
    guard let content = payload.content else {
      require(payload.diagnostics.contains { $0.severity == .error }, "no content and no error")
      return
    }
    for text in [content.title, content.subtitle, content.body] {
      for multiline in [false, true] {
        let safe = TerminalText.sanitize(text, multiline: multiline)
        checkDisplaySafe(safe, allowNewlines: multiline, "sanitized text")
        for width in [1, 2, 10, 45] {
          let line = TextLayout.truncate(safe, width: width)
          require(DisplayWidth.of(line) <= width, "truncate(\(width)) gave \(DisplayWidth.of(line)) columns")
          // A line is never wider than the width, unless it is one cluster wider than it.
          for wrapped in TextLayout.wrap(safe, width: width, maxLines: 3) {
            require(
              DisplayWidth.of(wrapped) <= width || wrapped.count == 1,
              "wrap(\(width)) gave \(DisplayWidth.of(wrapped)) columns")
          }
        }
      }
    }
  }

  static func categories(_ bytes: [UInt8]) {
    let file = CategoriesFile.analyze(bytes, file: "fuzz.json")
    checkDiagnostics(file.diagnostics)
    if !file.hasErrors {
      let ids = file.categories.map(\.identifier)
      require(!ids.contains(""), "a category with an empty identifier passed")
    }
  }

  static func descriptor(_ bytes: [UInt8], file: String) {
    let (descriptor, diagnostics) = ContentExtensionDescriptor.analyze(bytes, file: file)
    checkDiagnostics(diagnostics)
    guard let descriptor, !diagnostics.contains(where: { $0.severity == .error }) else { return }
    for number in [descriptor.attributes.initialContentSizeRatio] {
      require(InputNumber.initialContentSizeRatio.accepts(number), "ratio \(number) passed the check")
    }
    // Measure it on both devices, as lint's QA report does, then draw it in a session.
    let content = UNMutableNotificationContent()
    content.title = "Title"
    content.body = "Body"
    content.categoryIdentifier = descriptor.attributes.categories.first ?? ""
    let request = UNNotificationRequest(identifier: "req-1", content: content, trigger: nil)
    let notification = UNNotification(request: request, date: now)
    let view = descriptor.view(for: notification)
    // At the default text size and at both ends of Dynamic Type.
    let sizes: [DynamicTypeSize] = [.large, DynamicTypeSize.allCases.first, DynamicTypeSize.allCases.last].compactMap {
      $0
    }
    for device in [DeviceProfile.iphone, .ipad] {
      for size in sizes {
        let m = ExtensionLayout.measure(
          view, for: notification, device: device, textSize: size, columns: 41, images: nil)
        require(m.initialHeight.isFinite && m.preferredHeight.isFinite, "measurement not finite")
        require(
          m.content.rows + m.defaultContent.rows <= Projection.rows(device.contentBudget) + 2,
          "\(m.content.rows + m.defaultContent.rows) rows over the budget")
      }
    }
    guard let session = makeSession(device: .iphone, size: (60, 30)) else { return }
    guard (try? session.addExtension(.descriptor(descriptor))) != nil else { return }
    session.present(request)
    session.send(.command(.longPress))
    checkGrid(session.frame().grid, "descriptor expanded")
    session.send(.command(.setDevice(.ipad)))
    checkGrid(session.frame().grid, "descriptor expanded iPad")
  }

  static func script(_ bytes: [UInt8]) {
    do {
      let script = try SessionScript.parse(String(decoding: bytes, as: UTF8.self), file: "fuzz.session")
      for line in script.lines { require(line.number >= 1, "line number \(line.number)") }
    } catch {
      require(error.line >= 1 && error.column >= 1, "error at \(error.line):\(error.column)")
    }
  }

  static func theme(_ bytes: [UInt8]) {
    _ = try? ThemeLoader.parse(bytes, file: "fuzz.json")
  }

  // MARK: - The screen

  static func render(_ bytes: [UInt8]) {
    let registered = Dictionary(categories.map { ($0.identifier, $0) }, uniquingKeysWith: { a, _ in a })
    let payload = PayloadAnalyzer.analyze(bytes, file: "fuzz.json", categories: registered)
    guard let request = try? payload.request(identifier: "req-1") else { return }
    for device in DeviceProfile.Kind.allCases {
      guard let session = makeSession(device: device, size: (80, 24)) else { return }
      for descriptor in descriptors { _ = try? session.addExtension(.descriptor(descriptor)) }
      session.present(request)
      for size in [(80, 24), (24, 8), (1, 1)] {
        session.resize(width: size.0, height: size.1)
        let context = "\(device.rawValue) \(size.0)x\(size.1)"
        checkGrid(session.frame().grid, "banner \(context)")
        session.send(.command(.longPress))
        checkGrid(session.frame().grid, "expanded \(context)")
        session.send(.key(.pageDown))
        checkGrid(session.frame().grid, "expanded scrolled \(context)")
        session.send(.key(.escape))
        session.send(.command(.openCenter))
        checkGrid(session.frame().grid, "center \(context)")
        session.send(.command(.openCenter))
      }
      session.send(.command(.lock))
      checkGrid(session.frame().grid, "locked \(device.rawValue)")
    }
  }

  static func makeSession(device: DeviceProfile.Kind, size: (Int, Int)) -> Session? {
    var configuration = SessionConfiguration()
    configuration.device = device
    guard let session = try? SessionFactory.make(configuration, now: now) else { return nil }
    session.setImages(nil)
    session.send(.center(.setCategories(categories)))
    session.resize(width: size.0, height: size.1)
    return session
  }

  // MARK: - Media

  /// The caps UNTerm decodes attachments with (a smaller pixel cap keeps runs fast).
  static let mediaLimits = MediaLimits(maxPixels: 4_000_000, maxScans: 64, maxDecoderMemory: 64 << 20)

  /// Every way UNTerm decodes a picture: the C shim's whole-picture decode (full size and
  /// JPEG-reduced), its scaled decode of the whole picture and of a region, and the path an
  /// attachment takes on the screen, `MediaImages` reading the file through the streaming
  /// decoder into letterboxed and cropped art (EXIF orientation and the caches included).
  static func media(_ bytes: [UInt8]) {
    var limits = cmd_limits()
    limits.max_width = UInt32(mediaLimits.maxWidth)
    limits.max_height = UInt32(mediaLimits.maxHeight)
    limits.max_pixels = UInt64(mediaLimits.maxPixels)
    limits.max_scans = UInt32(mediaLimits.maxScans)
    limits.max_millis = 2000
    limits.max_decoder_memory = UInt64(mediaLimits.maxDecoderMemory)
    var error = [CChar](repeating: 0, count: 256)
    var probed = Int32(CMD_OK)
    bytes.withUnsafeBufferPointer { buffer in
      let base = buffer.baseAddress
      var info = cmd_info()
      probed = cmd_probe(base, buffer.count, &info, &error, error.count)
      require(error.last == 0, "probe message not terminated")
      // Decode at full size, and at a small target (a JPEG is then scaled down).
      for (targetWidth, targetHeight) in [(UInt32(0), UInt32(0)), (16, 16)] {
        var image = cmd_image()
        let status = cmd_decode(base, buffer.count, &limits, targetWidth, targetHeight, &image, &error, error.count)
        require(error.last == 0, "decode message not terminated")
        if status == Int32(CMD_OK) {
          require(probed == Int32(CMD_OK), "decoded what the probe refused")
          require(image.channels == 3 || image.channels == 4, "\(image.channels) channels")
          checkImage(image, limits: limits)
        } else {
          require(image.pixels == nil, "a failed decode kept a buffer")
        }
        cmd_free(&image)
        cmd_free(&image)
      }
      // The scaled decode: the whole picture at 16 × 16 and 3 × 2 (a JPEG's 1/8 scale), and a
      // region of it.
      for (width, height, x, y, w, h) in [
        (UInt32(16), UInt32(16), 0.0, 0.0, 1.0, 1.0), (3, 2, 0, 0, 1, 1), (7, 5, 0.25, 0.4, 0.5, 0.35),
      ] {
        var target = cmd_target()
        target.width = width
        target.height = height
        (target.x, target.y, target.region_width, target.region_height) = (x, y, w, h)
        var image = cmd_image()
        let status = cmd_decode_scaled(base, buffer.count, &limits, &target, &image, &error, error.count)
        require(error.last == 0, "scaled decode message not terminated")
        if status == Int32(CMD_OK) {
          require(probed == Int32(CMD_OK), "decoded (scaled) what the probe refused")
          require(image.channels == 3, "\(image.channels) channels from a scaled decode")
          require(
            image.width == width && image.height == height, "\(image.width)x\(image.height) for \(width)x\(height)")
          checkImage(image, limits: limits)
        } else {
          require(image.pixels == nil, "a failed scaled decode kept a buffer")
        }
        cmd_free(&image)
      }
    }
    // The screen's path: the file streamed from disk, a fresh cache for every input.
    guard FileManager.default.createFile(atPath: scratchFile, contents: Data(bytes)) else { return }
    let images = MediaImages(limits: mediaLimits)
    let reference = ImageReference(attachment: nil, path: scratchFile, label: "fuzz")
    if let ratio = images.aspectRatio(of: reference) {
      require(ratio.isFinite && ratio > 0, "aspect ratio \(ratio)")
    }
    for (columns, rows, crop) in [(40, 12, false), (6, 3, true), (1, 1, false), (200, 1, true)] {
      guard let art = images.art(of: reference, columns: columns, rows: rows, crop: crop) else {
        require(images.problem(for: reference) != nil || probed != Int32(CMD_OK), "no art and no reason")
        continue
      }
      require(probed == Int32(CMD_OK), "drew what the probe refused")
      require(
        art.columns == columns && art.rows == rows && art.cells.count == columns * rows,
        "art \(art.columns)x\(art.rows) (\(art.cells.count) cells) for \(columns)x\(rows)")
    }
  }

  /// A decoded image within the caps, its buffer as long as it claims (every byte is read:
  /// AddressSanitizer reports a shorter one).
  static func checkImage(_ image: cmd_image, limits: cmd_limits) {
    require(image.pixels != nil, "no pixels")
    require(image.source_width <= limits.max_width && image.source_height <= limits.max_height, "over the caps")
    require(UInt64(image.source_width) * UInt64(image.source_height) <= limits.max_pixels, "over the pixel cap")
    require(
      image.byte_count == Int(image.width) * Int(image.height) * Int(image.channels),
      "\(image.byte_count) bytes for \(image.width)x\(image.height)x\(image.channels)")
    var sum: UInt8 = 0
    if let pixels = image.pixels {
      for i in 0..<image.byte_count { sum &+= pixels[i] }
    }
    _ = sum
  }

  /// A media header's duration: finite and not negative when known, and drawable as a clock.
  static func duration(_ bytes: [UInt8]) {
    guard FileManager.default.createFile(atPath: scratchFile, contents: Data(bytes)) else { return }
    if let seconds = MediaProbe.duration(of: URL(fileURLWithPath: scratchFile)) {
      require(seconds.isFinite && seconds >= 0, "duration \(seconds)")
      let clock = Renderer.clock(seconds)
      require(clock.count <= 10 && !clock.contains("-"), "clock \(clock) for \(seconds) s")
    }
  }

  /// The media probe and the attachment path read files: one scratch file (in memory-backed /dev/shm when there is one),
  /// rewritten per input and removed when the process exits.
  static let scratchFile: String = {
    let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    let path = (folder as NSString).appendingPathComponent("unterm-fuzz-\(getpid())")
    atexit { unlink(FuzzChecks.scratchFile) }
    return path
  }()

  // MARK: - Push framing

  /// The stream decodes to the same frames whole and in pieces (cut where the first byte says).
  static func push(_ bytes: [UInt8]) {
    let limit = 4096
    func frames(piece: Int) -> [PushFrameDecoder.Frame] {
      var decoder = PushFrameDecoder(maximumPayloadBytes: limit)
      var out: [PushFrameDecoder.Frame] = []
      var offset = 0
      while offset < bytes.count {
        let end = min(bytes.count, offset + piece)
        decoder.append(bytes[offset..<end])
        offset = end
        while let frame = decoder.next() { out.append(frame) }
        require(decoder.unreadCount <= limit + PushFrameDecoder.maximumLineBytes + piece, "buffer grew unbounded")
      }
      if decoder.isFinished { require(decoder.next() == nil, "a frame after the end") }
      return out
    }
    let whole = frames(piece: max(1, bytes.count))
    let piece = 1 + Int(bytes.first ?? 0) % 13
    require(frames(piece: piece) == whole, "pieces of \(piece) decode differently")
    for (i, frame) in whole.enumerated() {
      switch frame {
      case .payload(_, let body, _, let bundle):
        require(body.count <= limit, "payload of \(body.count) bytes")
        require(bundle.map { CategoryRegistry.isBundleIdentifier($0) } ?? true, "a BUNDLE that is no bundle identifier")
      case .center(.remove(let id)): require(!id.isEmpty, "REMOVE with no identifier")
      case .center: break
      case .end, .refused: require(i == whole.count - 1, "a frame after the end")
      }
    }
  }

  // MARK: - Strings

  /// The app's strings as `--strings` reads them, the bytes as each kind of file in turn, then
  /// every entry of every table formatted, on both devices, with arguments a payload can send.
  static func strings(_ bytes: [UInt8]) {
    for name in ["Localizable.strings", "Localizable.stringsdict", "Localizable.xcstrings"] {
      let path = (stringsFolder as NSString).appendingPathComponent(name)
      guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
      defer { unlink(path) }
      guard let (strings, diagnostics) = try? AppStrings.analyze([path]) else { continue }
      checkDiagnostics(diagnostics)
      formatEveryEntry(strings)
    }
  }

  static func formatEveryEntry(_ strings: AppStrings) {
    let arguments = [
      "-1", "99999999999999999999", "1e308", "%@%n%s", "\u{1B}]0;x\u{07}", "‮ltr", "ক্ষ", "", "0x7fffffff", "NaN",
    ]
    for (_, table) in strings.tables {
      for (_, entry) in table.entries.prefix(64) {
        for device in ["iphone", "ipad"] {
          let text = entry.formatted(arguments, locale: "ur", device: device)
          // Widths and precisions are capped (1000), so no format can blow up the text.
          require(text.utf8.count <= 64 * 1024 + entry.format.utf8.count * 4, "\(text.utf8.count) bytes formatted")
        }
      }
    }
  }

  /// Where the strings target writes its file: a folder named as a language's.
  static let stringsFolder: String = {
    let folder = (scratchFile as NSString).appendingPathExtension("strings") ?? scratchFile + ".strings"
    let lproj = (folder as NSString).appendingPathComponent("ur.lproj")
    try? FileManager.default.createDirectory(atPath: lproj, withIntermediateDirectories: true)
    atexit {
      try? FileManager.default.removeItem(atPath: (FuzzChecks.stringsFolder as NSString).deletingLastPathComponent)
    }
    return lproj
  }()

  // MARK: - Invariants

  /// A character that must never reach the terminal from the grid: C0, DEL, C1, bidi controls,
  /// line and paragraph separators, and what the platform cannot print.
  static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    return v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029 || TerminalText.isBidiControl(scalar)
      || DisplayWidth.isUnprintable(scalar)
  }

  static func checkDisplaySafe(_ text: String, allowNewlines: Bool, _ context: String) {
    for scalar in text.unicodeScalars where !(allowNewlines && scalar == "\n") {
      require(!isForbidden(scalar), "\(context): U+\(String(scalar.value, radix: 16, uppercase: true))")
    }
  }

  /// Every cell's text is display-safe, and wide clusters are followed by their continuation
  /// cells.
  static func checkGrid(_ grid: CellGrid, _ context: String) {
    for y in 0..<grid.height {
      var x = 0
      while x < grid.width {
        let cell = grid[x, y]
        for scalar in cell.text.unicodeScalars {
          require(
            !isForbidden(scalar),
            "\(context): U+\(String(scalar.value, radix: 16, uppercase: true)) in the cell at \(x),\(y)")
        }
        let span = max(1, Int(cell.width))
        for i in 1..<span where x + i < grid.width {
          require(grid[x + i, y].isContinuation, "\(context): a wide cluster at \(x),\(y) without its continuation")
        }
        x += span
      }
    }
  }

  /// Findings are values the loaders return, never a trap. (Their text output is not checked
  /// here: a JSON path still holds a payload's keys as written, which issue 11.2 addresses.)
  static func checkDiagnostics(_ diagnostics: [Diagnostic]) {
    for d in diagnostics { require(d.code.severity == d.severity || d.code == .extensionOverflow, "\(d.code)") }
  }
}
