import CNcursesw
import UNTermRender

/// Maps a `getmouse` report to mouse events, without a terminal.
package enum CursesMouseDecoder {
  /// ncurses mouse mask bits, for callers (tests) that do not import the shim.
  package enum Mask {
    package static let button1Pressed = UInt32(CNC_BUTTON1_PRESSED)
    package static let button1Released = UInt32(CNC_BUTTON1_RELEASED)
    package static let button1Clicked = UInt32(CNC_BUTTON1_CLICKED)
    package static let button2Pressed = UInt32(CNC_BUTTON2_PRESSED)
    package static let button2Released = UInt32(CNC_BUTTON2_RELEASED)
    package static let button2Clicked = UInt32(CNC_BUTTON2_CLICKED)
    package static let button3Pressed = UInt32(CNC_BUTTON3_PRESSED)
    package static let button3Released = UInt32(CNC_BUTTON3_RELEASED)
    package static let button3Clicked = UInt32(CNC_BUTTON3_CLICKED)
    package static let wheelUp = UInt32(CNC_BUTTON4_PRESSED)
    package static let wheelDown = UInt32(CNC_BUTTON5_PRESSED)
    package static let reportPosition = UInt32(CNC_REPORT_MOUSE_POSITION)

    /// What the terminal asks for: presses and releases of three buttons and the wheel, no
    /// motion reports.
    package static let requested: UInt32 =
      button1Pressed | button1Released | button2Pressed | button2Released | button3Pressed
      | button3Released | wheelUp | wheelDown
  }

  /// The events in one report, each button's press before its release.
  ///
  /// A `CLICKED` bit (which ncurses only reports when the click interval is not 0) becomes a
  /// press and a release.
  ///
  /// - Parameters:
  ///   - buttonState: The report's `bstate`.
  ///   - x: Its column.
  ///   - y: Its row.
  package static func decode(buttonState: UInt32, x: Int32, y: Int32) -> [MouseEvent] {
    let buttons: [(MouseEvent.Button, UInt32, UInt32, UInt32)] = [
      (.left, Mask.button1Pressed, Mask.button1Released, Mask.button1Clicked),
      (.middle, Mask.button2Pressed, Mask.button2Released, Mask.button2Clicked),
      (.right, Mask.button3Pressed, Mask.button3Released, Mask.button3Clicked),
    ]
    var events: [MouseEvent] = []
    let column = Int(x)
    let row = Int(y)
    for (button, pressed, released, clicked) in buttons {
      if buttonState & (pressed | clicked) != 0 {
        events.append(MouseEvent(.press, button, x: column, y: row))
      }
      if buttonState & (released | clicked) != 0 {
        events.append(MouseEvent(.release, button, x: column, y: row))
      }
    }
    if buttonState & Mask.wheelUp != 0 {
      events.append(MouseEvent(.press, .wheelUp, x: column, y: row))
    }
    if buttonState & Mask.wheelDown != 0 {
      events.append(MouseEvent(.press, .wheelDown, x: column, y: row))
    }
    return events
  }
}
