/// Turns decoder output into the RGB copy the cache keeps.
enum PixelReduction {
  /// RGB or RGBA pixels as RGB, alpha composited over `background`, box-averaged down so the
  /// longer side is at most `maxSide`.
  static func rgb(
    _ pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, channels: Int, maxSide: Int,
    background: (r: UInt8, g: UInt8, b: UInt8)
  ) -> (width: Int, height: Int, rgb: [UInt8]) {
    let longer = max(width, height)
    let outWidth = longer > maxSide ? max(1, width * maxSide / longer) : width
    let outHeight = longer > maxSide ? max(1, height * maxSide / longer) : height
    let bg = (Int(background.r), Int(background.g), Int(background.b))
    let hasAlpha = channels == 4
    let rgb = [UInt8](unsafeUninitializedCapacity: outWidth * outHeight * 3) { out, count in
      for oy in 0..<outHeight {
        let y0 = oy * height / outHeight
        let y1 = max(y0 + 1, (oy + 1) * height / outHeight)
        for ox in 0..<outWidth {
          let x0 = ox * width / outWidth
          let x1 = max(x0 + 1, (ox + 1) * width / outWidth)
          var r = 0
          var g = 0
          var b = 0
          for y in y0..<y1 {
            var i = (y * width + x0) * channels
            for _ in x0..<x1 {
              if hasAlpha {
                let a = Int(pixels[i + 3])
                r += (Int(pixels[i]) * a + bg.0 * (255 - a) + 127) / 255
                g += (Int(pixels[i + 1]) * a + bg.1 * (255 - a) + 127) / 255
                b += (Int(pixels[i + 2]) * a + bg.2 * (255 - a) + 127) / 255
              } else {
                r += Int(pixels[i])
                g += Int(pixels[i + 1])
                b += Int(pixels[i + 2])
              }
              i += channels
            }
          }
          let n = (y1 - y0) * (x1 - x0)
          let o = (oy * outWidth + ox) * 3
          out[o] = UInt8((r + n / 2) / n)
          out[o + 1] = UInt8((g + n / 2) / n)
          out[o + 2] = UInt8((b + n / 2) / n)
        }
      }
      count = outWidth * outHeight * 3
    }
    return (outWidth, outHeight, rgb)
  }
}
