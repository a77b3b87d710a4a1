import Testing
import UNTermRender

@testable import UNTermCurses

@Suite("Curses mouse decoding")
struct CursesMouseDecoderTests {
  typealias Mask = CursesMouseDecoder.Mask

  @Test(
    "Each button's press and release",
    arguments: [
      (Mask.button1Pressed, MouseEvent.Kind.press, MouseEvent.Button.left),
      (Mask.button1Released, .release, .left),
      (Mask.button2Pressed, .press, .middle),
      (Mask.button2Released, .release, .middle),
      (Mask.button3Pressed, .press, .right),
      (Mask.button3Released, .release, .right),
      (Mask.wheelUp, .press, .wheelUp),
      (Mask.wheelDown, .press, .wheelDown),
    ])
  func single(mask: UInt32, kind: MouseEvent.Kind, button: MouseEvent.Button) {
    #expect(
      CursesMouseDecoder.decode(buttonState: mask, x: 12, y: 7) == [
        MouseEvent(kind, button, x: 12, y: 7)
      ])
  }

  @Test("The shim's masks are ncurses' bits (version 2 mouse)")
  func masksMatchCursesHeader() {
    #expect(Mask.button1Released == 0o1)
    #expect(Mask.button1Pressed == 0o2)
    #expect(Mask.button1Clicked == 0o4)
    #expect(Mask.button2Pressed == 0o2 << 5)
    #expect(Mask.button3Pressed == 0o2 << 10)
    #expect(Mask.wheelUp == 0o2 << 15)
    #expect(Mask.wheelDown == 0o2 << 20)
  }

  @Test("A click becomes a press and a release")
  func click() {
    #expect(
      CursesMouseDecoder.decode(buttonState: Mask.button1Clicked, x: 0, y: 0) == [
        MouseEvent(.press, .left, x: 0, y: 0), MouseEvent(.release, .left, x: 0, y: 0),
      ])
  }

  @Test("Motion and unknown bits report nothing")
  func nothing() {
    #expect(CursesMouseDecoder.decode(buttonState: Mask.reportPosition, x: 3, y: 4).isEmpty)
    #expect(CursesMouseDecoder.decode(buttonState: 0, x: 3, y: 4).isEmpty)
  }

  @Test("The requested mask has presses and releases but no motion reports")
  func requestedMask() {
    let requested = Mask.requested
    #expect(requested & Mask.reportPosition == 0)
    for bit in [
      Mask.button1Pressed, Mask.button1Released, Mask.button3Pressed, Mask.button3Released,
      Mask.wheelUp, Mask.wheelDown,
    ] {
      #expect(requested & bit != 0)
    }
    #expect(requested & Mask.button1Clicked == 0)
  }
}
