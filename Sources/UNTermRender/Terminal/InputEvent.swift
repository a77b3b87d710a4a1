import UNTermState

/// Something the terminal reported while the session waited for input.
package enum InputEvent: Hashable, Sendable {
  /// A key press; Ctrl-C arrives as `.interrupt`, typed text as `.character`.
  case key(Key)
  /// Text the terminal pasted (bracketed paste), whole, control characters included.
  case paste(String)
  /// Ctrl-Z: the user asks to stop the program (job control); see
  /// `TerminalBackend.suspendForJobControl()`.
  case suspend
  /// A mouse button went down or up; the caller measures long presses itself.
  case mouse(MouseEvent)
  /// The terminal changed size; the next frame should be rendered at this size.
  case resize(width: Int, height: Int)
  /// Only the extra descriptor (the session's wake pipe) became readable; drain it.
  case wake
  /// A termination signal arrived while polite termination is on: close the terminal, then end
  /// the process with that signal.
  case signal(Int32)
  /// The terminal went away (hang-up or end of input); close and exit.
  case hangup
}

/// A mouse button press or release at a cell.
package struct MouseEvent: Hashable, Sendable {
  /// Whether the button went down or up.
  package enum Kind: Hashable, Sendable {
    case press, release
  }

  /// Which button; the wheel reports presses only.
  package enum Button: Hashable, Sendable {
    case left, middle, right, wheelUp, wheelDown
  }

  package var kind: Kind
  package var button: Button
  /// Column, 0 at the left.
  package var x: Int
  /// Row, 0 at the top.
  package var y: Int

  package init(_ kind: Kind, _ button: Button, x: Int, y: Int) {
    self.kind = kind
    self.button = button
    self.x = x
    self.y = y
  }
}
