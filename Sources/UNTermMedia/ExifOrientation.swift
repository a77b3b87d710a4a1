/// The EXIF orientation of a JPEG (TIFF tag 0x0112): how the stored pixels must be turned or
/// mirrored to show the picture upright, as phone cameras record it.
package enum ExifOrientation: Int, Hashable, Sendable {
  case up = 1
  case upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left

  /// Whether the shown picture's width is the stored height.
  package var swapsAxes: Bool { rawValue >= 5 }

  /// The orientation recorded in a JPEG's Exif APP1 segment; `.up` when there is none or it is
  /// malformed. Reads only the markers before the first scan, with every offset bounds-checked.
  package static func of(jpeg bytes: [UInt8]) -> ExifOrientation {
    guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return .up }
    var pos = 2
    var segments = 0
    while pos + 4 <= bytes.count, segments < 64 {
      guard bytes[pos] == 0xFF else { return .up }
      let marker = bytes[pos + 1]
      if marker == 0xFF {
        pos += 1
        continue
      }
      if marker == 0x01 || (0xD0...0xD7).contains(marker) {
        pos += 2
        continue
      }
      if marker == 0xDA || marker == 0xD9 { return .up }
      let length = Int(bytes[pos + 2]) << 8 | Int(bytes[pos + 3])
      guard length >= 2, pos + 2 + length <= bytes.count else { return .up }
      let body = pos + 4
      let end = pos + 2 + length
      if marker == 0xE1, end - body >= 6, Array(bytes[body..<body + 6]) == Array("Exif\0\0".utf8) {
        return tiffOrientation(bytes, from: body + 6, to: end) ?? .up
      }
      pos = end
      segments += 1
    }
    return .up
  }

  /// Tag 0x0112 in IFD0 of a TIFF structure between two offsets.
  private static func tiffOrientation(_ bytes: [UInt8], from start: Int, to end: Int) -> ExifOrientation? {
    guard end - start >= 8 else { return nil }
    let little: Bool
    switch (bytes[start], bytes[start + 1]) {
    case (0x49, 0x49): little = true
    case (0x4D, 0x4D): little = false
    default: return nil
    }
    func u16(_ at: Int) -> Int? {
      guard at >= start, at + 2 <= end else { return nil }
      return little ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
    }
    func u32(_ at: Int) -> Int? {
      guard let a = u16(at), let b = u16(at + 2) else { return nil }
      return little ? a | b << 16 : a << 16 | b
    }
    guard u16(start + 2) == 42, let ifd = u32(start + 4), let count = u16(start + ifd) else { return nil }
    for index in 0..<min(count, 512) {
      let entry = start + ifd + 2 + index * 12
      guard let tag = u16(entry) else { return nil }
      if tag == 0x0112 {
        guard u16(entry + 2) == 3, let value = u16(entry + 8) else { return nil }
        return ExifOrientation(rawValue: value)
      }
    }
    return nil
  }

  /// Where a rectangle of the upright picture lies in the stored picture (both in fractions of
  /// the picture's size).
  package func storedRect(of upright: UnitRect) -> UnitRect {
    let corners = [(upright.x, upright.y), (upright.x + upright.width, upright.y + upright.height)].map(stored)
    let left = min(corners[0].0, corners[1].0)
    let top = min(corners[0].1, corners[1].1)
    return UnitRect(
      x: left, y: top, width: max(corners[0].0, corners[1].0) - left, height: max(corners[0].1, corners[1].1) - top)
  }

  /// The stored point shown at an upright point, in fractions (the continuous form of `source`).
  private func stored(_ point: (Double, Double)) -> (Double, Double) {
    let (u, v) = point
    switch self {
    case .up: return (u, v)
    case .upMirrored: return (1 - u, v)
    case .down: return (1 - u, 1 - v)
    case .downMirrored: return (u, 1 - v)
    case .leftMirrored: return (v, u)
    case .right: return (v, 1 - u)
    case .rightMirrored: return (1 - v, 1 - u)
    case .left: return (1 - v, u)
    }
  }

  /// RGB pixels turned upright: the result and its size.
  func apply(to rgb: [UInt8], width: Int, height: Int) -> (rgb: [UInt8], width: Int, height: Int) {
    guard self != .up, rgb.count == width * height * 3 else { return (rgb, width, height) }
    let (outWidth, outHeight) = swapsAxes ? (height, width) : (width, height)
    let out = [UInt8](unsafeUninitializedCapacity: rgb.count) { buffer, count in
      for dy in 0..<outHeight {
        for dx in 0..<outWidth {
          let (sx, sy) = source(dx, dy, width, height)
          let from = (sy * width + sx) * 3
          let to = (dy * outWidth + dx) * 3
          buffer[to] = rgb[from]
          buffer[to + 1] = rgb[from + 1]
          buffer[to + 2] = rgb[from + 2]
        }
      }
      count = rgb.count
    }
    return (out, outWidth, outHeight)
  }

  /// The stored pixel shown at an upright position, for a stored image of `w × h`.
  private func source(_ dx: Int, _ dy: Int, _ w: Int, _ h: Int) -> (Int, Int) {
    switch self {
    case .up: return (dx, dy)
    case .upMirrored: return (w - 1 - dx, dy)
    case .down: return (w - 1 - dx, h - 1 - dy)
    case .downMirrored: return (dx, h - 1 - dy)
    case .leftMirrored: return (dy, dx)
    case .right: return (dy, h - 1 - dx)
    case .rightMirrored: return (w - 1 - dy, h - 1 - dx)
    case .left: return (w - 1 - dy, dx)
    }
  }
}
