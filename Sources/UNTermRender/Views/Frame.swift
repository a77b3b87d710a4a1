import UNTermState
import UserNotificationsModel

/// What a mouse click at a place means.
package enum HitTarget: Hashable, Sendable {
  case notification(String)
  case action(Int)
  case send
  case close
  case extensionButton(Int)
  /// The "Show less" row above a fanned-out stack.
  case showLess
}

/// A clickable rectangle.
package struct HitRegion: Hashable, Sendable {
  package var rect: Rect
  package var target: HitTarget
}

/// One rendered screen: the cells, where clicks land, and where the text cursor is.
package struct Frame: Sendable {
  package var grid: CellGrid
  package var hits: [HitRegion] = []
  /// The text field's cursor, when one is open.
  package var cursor: (x: Int, y: Int)?
  /// Where the renderer drew each region of the screen (the card, the list, the panes); a
  /// region that is not on this screen has no entry. `.screen` is always the whole grid.
  package var regions = RegionRects()
  /// Where the expanded view drew a marker for content clipped at its height budget.
  package var overflowMarks: [OverflowMark] = []
  /// Lines holding right-to-left letters drawn in logical order (`BidiMode.logical`): a
  /// picture hands each to the browser whole, which reorders and joins it as the paragraph's
  /// direction says.
  package var bidiSpans: [BidiSpan] = []

  /// A frame of cells, with where clicks land and the text cursor, if any.
  package init(grid: CellGrid, hits: [HitRegion] = [], cursor: (x: Int, y: Int)? = nil) {
    self.grid = grid
    self.hits = hits
    self.cursor = cursor
  }

  /// Where a region is on this screen, if it is shown.
  package func rect(of region: ScreenRegion) -> Rect? {
    region == .screen ? grid.bounds : regions[region]?.intersection(grid.bounds)
  }

  /// A region's rows as plain text (trailing spaces removed), or nil when it is not shown.
  package func lines(of region: ScreenRegion) -> [String]? {
    guard let rect = rect(of: region) else { return nil }
    return region == .screen ? grid.lines : grid.lines(in: rect)
  }

  /// The innermost target at a cell.
  package func target(x: Int, y: Int) -> HitTarget? {
    hits.last { $0.rect.contains(x: x, y: y) }?.target
  }
}

/// A row where content taller than its budget was clipped, as the renderer marked it.
package struct OverflowMark: Hashable, Sendable {
  /// The card the marker is drawn in.
  package var card: Rect
  /// The row of the marker.
  package var row: Int
  /// What the marker says: `32 pt over the 320 pt budget`.
  package var label: String
}

/// One line of text in logical order that holds right-to-left letters: its cells, and whether
/// its paragraph reads from the right.
package struct BidiSpan: Hashable, Sendable {
  package var row: Int
  package var x: Int
  package var cells: Int
  package var isRightToLeft: Bool

  package init(row: Int, x: Int, cells: Int, isRightToLeft: Bool) {
    self.row = row
    self.x = x
    self.cells = cells
    self.isRightToLeft = isRightToLeft
  }
}

/// Half-block art for an image: each cell shows two pixels, the top as the foreground of `▀`
/// and the bottom as its background.
package struct BlockArt: Hashable, Sendable {
  package var columns: Int
  package var rows: Int
  /// Row-major cells, `columns × rows` of them.
  package var cells: [Pixels]

  package struct Pixels: Hashable, Sendable {
    package var top: Color
    package var bottom: Color
    package init(top: Color, bottom: Color) {
      self.top = top
      self.bottom = bottom
    }
  }

  package init(columns: Int, rows: Int, cells: [Pixels]) {
    self.columns = columns
    self.rows = rows
    self.cells = cells
  }
}

/// Decoded images for the renderer: an image's aspect and its art at a size.
package protocol ImageProvider: AnyObject {
  /// Height ÷ width of the image, when it can be decoded.
  func aspectRatio(of image: ImageReference) -> Double?
  /// The image as block art of exactly `columns × rows` cells, when it can be decoded.
  func art(of image: ImageReference, columns: Int, rows: Int) -> BlockArt?
  /// The same, filling the area and cutting off the overflow when `crop` is true (thumbnails)
  /// instead of letterboxing the whole image.
  func art(of image: ImageReference, columns: Int, rows: Int, crop: Bool) -> BlockArt?
}

extension ImageProvider {
  /// Providers that do not crop draw thumbnails like any other image.
  package func art(of image: ImageReference, columns: Int, rows: Int, crop: Bool) -> BlockArt? {
    art(of: image, columns: columns, rows: rows)
  }
}

/// An image decoder that can say why an attachment cannot be shown.
package protocol AttachmentValidating: AnyObject {
  /// Why the attachment cannot be decoded, or `nil` when it is fine (or not an image).
  func problem(with attachment: UNNotificationAttachment) -> String?
}

/// Reads how long an audio or movie attachment plays, from its container.
package protocol MediaDurationProviding: AnyObject {
  /// Seconds, when the container says.
  func duration(of attachment: UNNotificationAttachment) -> Double?
}

/// Where the renderer drew each region of a screen: a rectangle, or nil, per region. Fields
/// rather than a `[ScreenRegion: Rect]`: every frame records regions, and the dictionary's
/// first use cost each start a run-time conformance lookup.
package struct RegionRects: Sendable {
  private var card: Rect?
  private var list: Rect?
  private var responses: Rect?
  private var activity: Rect?
  private var screen: Rect?

  package init() {}

  package subscript(region: ScreenRegion) -> Rect? {
    get {
      switch region {
      case .card: return card
      case .list: return list
      case .responses: return responses
      case .activity: return activity
      case .screen: return screen
      }
    }
    set {
      switch region {
      case .card: card = newValue
      case .list: list = newValue
      case .responses: responses = newValue
      case .activity: activity = newValue
      case .screen: screen = newValue
      }
    }
  }
}
