import Foundation
import Testing
import UNTermBidi
import UNTermTestSupport

@testable import UNTermHeadless
@testable import UNTermInput
@testable import UNTermRender

/// Right-to-left notifications as an Urdu reader sees them: reordered by UNTerm with letters
/// joined (`--bidi visual`), or left in logical order for a terminal that reorders
/// (`--bidi terminal`); right-to-left paragraphs aligned right either way.
@Suite("Right-to-left screens")
struct BidiScreenTests {
  /// An Urdu title with an English name, an Urdu body with an English model name, digits and a
  /// room number.
  let mixed = #"""
    {"aps":{"alert":{"title":"عائشہ (Aisha)","body":"مرحبا gpt-5! کل 10 بجے ملاقات ہے، Room 4B میں۔"},"category":"message"}}
    """#

  @Test func visualModeReordersEachLineAndAlignsItRight() throws {
    let session = try Fixtures.session(size: (47, 10)) {
      $0.bidi = .visual
      $0.outputBidi = .visual
    }
    try Fixtures.push(mixed, into: session)
    // Read from the right: عائشہ (Aisha) / مرحبا gpt-5! کل 10 بجے ملاقات ہے، Room 4B / میں۔
    // The paragraph is broken in logical order first, so "میں۔" starts the next line.
    expectScreen(
      session.frame().grid,
      [
        " ╭───────────────────────────────────────────╮",
        " │ App                                   now │",
        " │                             (Aisha) ﮧﺸﺋﺎﻋ │",
        " │  Room 4B ،ﮯﮨ ﺕﺎﻗﻼﻣ ﮯﺠﺑ 10 ﻞﮐ !gpt-5 ﺎﺒﺣﺮﻣ │",
        " │                                      ۔ﮟﯿﻣ │",
        " │ ▾ Reply · Like · +1 more                  │",
        " ╰───────────────────────────────────────────╯",
        "     1 in Notification Center · c to open",
        "",
        " iPhone · Unlocked │ Space actions  ? keys",
      ])
  }

  @Test func terminalModeKeepsLogicalOrderForTheTerminalToReorder() throws {
    let session = try Fixtures.session(size: (47, 10)) { $0.bidi = .logical }
    try Fixtures.push(mixed, into: session)
    expectScreen(
      session.frame().grid,
      [
        " ╭───────────────────────────────────────────╮",
        " │ App                                   now │",
        " │                             عائشہ (Aisha) │",
        " │ مرحبا gpt-5! کل 10 بجے ملاقات ہے، Room 4B │",
        " │                                      میں۔ │",
        " │ ▾ Reply · Like · +1 more                  │",
        " ╰───────────────────────────────────────────╯",
        "     1 in Notification Center · c to open",
        "",
        " iPhone · Unlocked │ Space actions  ? keys",
      ])
  }

  /// What a session draws for an output that is not a terminal holds right-to-left text in
  /// logical order, unshaped, so a file reads right in a browser or an editor (issue 25.3).
  @Test func framesHoldLogicalOrderUnlessVisualIsAskedFor() throws {
    let session = try Fixtures.session(size: (47, 10))
    try Fixtures.push(#"{"aps":{"alert":{"title":"نیا پیغام","body":"Ana (آنا)"}}}"#, into: session)
    let lines = session.frame().grid.lines
    #expect(lines[2] == " │                                 نیا پیغام │")
    #expect(lines[3] == " │ Ana (آنا)                                 │")
    #expect(session.frame(bidi: .visual).grid.lines[2] == " │                                 ﻡﺎﻐﯿﭘ ﺎﯿﻧ │")
  }

  @Test func leftToRightTextIsUntouched() throws {
    let session = try Fixtures.session(size: (47, 10)) { $0.outputBidi = .visual }
    try Fixtures.push(#"{"aps":{"alert":{"title":"Ana (آنا)","body":"Meeting with احمد at 9:30"}}}"#, into: session)
    let lines = session.frame().grid.lines
    #expect(lines[2] == " │ Ana (ﺎﻧﺁ)                                 │")
    #expect(lines[3] == " │ Meeting with ﺪﻤﺣﺍ at 9:30                 │")
  }

  @Test func bengaliKeepsItsConjunctsInLogicalOrder() throws {
    let session = try Fixtures.session(size: (47, 10)) { $0.outputBidi = .visual }
    try Fixtures.push(#"{"aps":{"alert":{"title":"রাহুল","body":"ক্ষমা করো, আমি ১০ মিনিট দেরি করব।"}}}"#, into: session)
    let lines = session.frame().grid.lines
    #expect(lines[2].hasPrefix(" │ রাহুল "))
    #expect(lines[3].hasPrefix(" │ ক্ষমা করো, আমি ১০ মিনিট দেরি করব। "))
  }

  @Test func bengaliWrapsBetweenWordsOnly() throws {
    // খে, ন্ত্র and য়ে are two columns wide (a letter and a spacing vowel sign) yet are not wide
    // characters: a line may break after 今 or 😀, never inside খেলতে.
    let session = try Fixtures.session(size: (40, 10)) { $0.outputBidi = .visual }
    try Fixtures.push(
      #"{"aps":{"alert":{"title":"খেলা","body":"Jenna এবং Frank আপনাকে Monopoly খেলতে আমন্ত্রণ জানিয়েছেন"}}}"#,
      into: session)
    let lines = session.frame().grid.lines
    #expect(lines[3] == " │ Jenna এবং Frank আপনাকে Monopoly    │")
    #expect(lines[4] == " │ খেলতে আমন্ত্রণ জানিয়েছেন             │")
    #expect(TextLayout.wrap("今日は😀晴れ", width: 4) == ["今日", "は😀", "晴れ"])
  }

  @Test func aPayloadsBidiControlsStayVisibleAndSteerNothing() throws {
    // An RLO would show "abc" as "cba" and flip the rest of the line; sanitized first, it is
    // a visible placeholder and the English stays in order.
    let session = try Fixtures.session(size: (47, 10)) { $0.outputBidi = .visual }
    try Fixtures.push(#"{"aps":{"alert":{"title":"\u202eabc def","body":"سلام\u202dxyz"}}}"#, into: session)
    let lines = session.frame().grid.lines
    #expect(lines[2] == " │ ‹RLO›abc def                              │")
    // A right-to-left paragraph (its first letter is Urdu): سلام at the right, shaped, and the
    // placeholder and "xyz" in their own order to its left.
    #expect(lines[3] == " │                               ‹LRO›xyzﻡﻼﺳ │")
  }

  @Test func aPlaceholderDoesNotDecideTheParagraphsDirection() throws {
    // Without the RLO the title is an Urdu paragraph, aligned right; its placeholder is drawn in
    // left-to-right letters but is no letter of the payload's, so the title stays right to left.
    let session = try Fixtures.session(size: (47, 10)) {
      $0.bidi = .visual
      $0.outputBidi = .visual
    }
    try Fixtures.push(#"{"aps":{"alert":{"title":"\u202eسلام abc","body":"\u2066\u200eنیا 3"}}}"#, into: session)
    let lines = session.frame().grid.lines
    #expect(lines[2] == " │                              abc ﻡﻼﺳ‹RLO› │")
    #expect(lines[3] == " │                           3 ﺎﯿﻧ‹LRI›‹LRM› │")
  }

  /// The reply field: the row with the field's text, and the caret's column in it.
  private func field(_ session: Session) throws -> (row: String, caret: Int) {
    let frame = session.frame()
    let cursor = try #require(frame.cursor)
    let row = frame.grid.line(cursor.y)
    return (row, cursor.x)
  }

  @Test func theReplyCaretFollowsTheDisplayOrder() throws {
    let session = try Fixtures.session(size: (47, 14)) { $0.outputBidi = .visual }
    try Fixtures.push(mixed, into: session)
    session.send(.command(.longPress))
    session.send(.command(.chooseAction("reply")))
    session.send(.command(.type("سلام gpt-5")))
    var (row, caret) = try field(session)
    #expect(row == " │ │                   gpt-5 ﻡﺎﻠﺳ │ │ Send │ │")
    // The caret follows the last letter typed: just right of "gpt-5".
    #expect(caret == 28)
    // ← five times walks it to the left end of the line, before "g".
    for _ in 0..<5 { session.send(.key(.left)) }
    #expect(try field(session).caret == 23)
    session.send(.key(.left))
    #expect(try field(session).caret == 23, "nothing is left of the text")
    // Typing there puts English before "gpt-5"; Backspace then takes it back.
    session.send(.command(.type("x")))
    (row, caret) = try field(session)
    #expect(row == " │ │                  xgpt-5 ﻡﺎﻠﺳ │ │ Send │ │")
    #expect(caret == 23)
    session.send(.key(.backspace))
    // Backspace deletes the cluster before the caret in the text, as on iOS: the space
    // between the Urdu word and "gpt-5".
    session.send(.key(.backspace))
    (row, caret) = try field(session)
    #expect(row == " │ │                    gpt-5ﻡﺎﻠﺳ │ │ Send │ │")
  }

  @Test func inATinyTerminalTheOneRowFieldScrollsToTheCaret() throws {
    // 24×8 leaves no room for the field's box: the field is one row after "› ", 18 columns.
    let session = try Fixtures.session(size: (24, 8)) { $0.outputBidi = .visual }
    try Fixtures.push(mixed, into: session)
    session.send(.command(.longPress))
    session.send(.command(.chooseAction("reply")))
    session.send(.command(.type("hello there general kenobi 12")))
    var (row, caret) = try field(session)
    #expect(row == " │ › neral kenobi 12  │")
    #expect(caret == 20, "just after the 2")
    session.send(.key(.home))
    (row, caret) = try field(session)
    #expect(row == " │ › hello there gene │")
    #expect(caret == 5, "before the h")

    let urdu = try Fixtures.session(size: (24, 8)) { $0.outputBidi = .visual }
    try Fixtures.push(mixed, into: urdu)
    urdu.send(.command(.longPress))
    urdu.send(.command(.chooseAction("reply")))
    urdu.send(.command(.type("سلام 12")))
    // Short right-to-left text sits at the right; the caret follows the 12 typed last.
    (row, caret) = try field(urdu)
    #expect(row == " │ ›          12 ﻡﺎﻠﺳ │")
    #expect(caret == 16)
    urdu.send(.command(.type(" پیغامات اور gpt-5")))
    (row, caret) = try field(urdu)
    #expect(row == " │ › gpt-5 ﺭﻭﺍ ﺕﺎﻣﺎﻐﯿ │")
    #expect(caret == 10, "just right of gpt-5")
    urdu.send(.key(.home))
    (row, caret) = try field(urdu)
    // Home: the start of the text, at the right, and the caret right of its first letter.
    #expect(row == " │ › ﺕﺎﻣﺎﻐﯿﭘ 12 ﻡﺎﻠﺳ  │")
    #expect(caret == 20)
  }

  @Test func aSelectionIsHighlightedWhereItsClustersAreDrawn() throws {
    let session = try Fixtures.session(size: (47, 14)) { $0.outputBidi = .visual }
    try Fixtures.push(mixed, into: session)
    session.send(.command(.longPress))
    session.send(.command(.chooseAction("reply")))
    session.send(.command(.type("سلام")))
    // The caret is at the left end (after the last letter, م); ⇧→ twice selects م and ا.
    session.send(.key(.modified(.right, .shift)))
    session.send(.key(.modified(.right, .shift)))
    let frame = session.frame()
    let y = try #require(frame.cursor).y
    let reversed = (0..<frame.grid.width).filter {
      frame.grid[$0, y].style.attributes.contains(.reverse) && !frame.grid[$0, y].isContinuation
    }.map { frame.grid[$0, y].text }
    #expect(reversed == ["ﻡ", "ﺎ"])
    session.send(.key(.backspace))
    #expect(try field(session).row.contains("ﻞﺳ │"))
  }
}
