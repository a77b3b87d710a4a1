import Foundation
import Testing
import UNTermBidi
import UNTermTestSupport

/// UNTerm's reordering and shaping against GNU FriBidi's own command (`fribidi`, Debian
/// `libfribidi-bin`), on mixed Urdu, Arabic, English and digit lines.
@Suite("Bidi paragraphs", .hangGuard)
struct BidiParagraphTests {
  /// Lines an Urdu or Arabic reader meets in notifications: names, times, versions, prices,
  /// brackets, both kinds of Arabic digits, e-mail addresses.
  static let corpus = [
    "مرحبا gpt-5",
    "عائشہ نے 3 پیغامات بھیجے",
    "Meeting with احمد at 9:30",
    "یہ ایک اطلاع ہے۔ کل صبح نو بجے ملاقات ہے۔",
    "Ahmed: کل 10 بجے (Room 4B) ملتے ہیں",
    "السلام عليكم، الساعة 12:45 الآن",
    "رقم الطلب #12345 جاهز",
    "Price: 1,250.50 روپے",
    "ورژن 2.0.1 دستیاب ہے",
    "“quoted” اقتباس [1]",
    "سلام world 123 دنیا",
    "The word لاہور appears here",
    "email: test@example.com پر بھیجیں",
    "٣ رسائل جديدة",
    "۲۰۲۶ میں نیا سال",
    "plain English, nothing to move",
    "(مرحبا) {قوسین} <زاویہ>",
    "-5 درجہ اور 50% رعایت",
    "Zainab (زینب) sent 2 photos",
    "بِسْمِ اللّٰهِ",
    "لا إله إلا الله",
    "gpt-5 کے ساتھ بات کریں",
  ]

  @Test func reorderingAndShapingMatchTheFribidiCommand() throws {
    // The command comes from libfribidi-bin, which the tests install where it is missing.
    let missing = SystemPackages.reason(.fribidi)
    #expect(missing == nil, "\(missing ?? "")")
    guard missing == nil, let fribidi = SystemPackages.path(of: "fribidi") else { return }
    let folder = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("corpus.txt")
    try Data((Self.corpus.joined(separator: "\n") + "\n").utf8).write(to: input)
    let result = Fixtures.spawn(fribidi, ["--nopad", "--nobreak", input.path])
    #expect(result.status == 0)
    // The command marks the place of a lam-alef ligature's second letter with U+FEFF; UNTerm
    // leaves the cell out (the terminal draws U+FEFF as nothing either).
    let expected = result.output.replacingOccurrences(of: "\u{FEFF}", with: "")
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(expected.count >= Self.corpus.count)
    for (i, line) in Self.corpus.enumerated() where i < expected.count {
      let paragraph = BidiParagraph(line)
      let visual = paragraph.visualLine(0..<paragraph.clusters.count)
      #expect(visual == expected[i], "line \(i + 1): \(line)")
    }
  }

  @Test func anUrduReaderReadsAMixedLineFromTheRight() {
    // "مرحبا gpt-5": the paragraph is right to left, so the English name sits at its left end.
    let paragraph = BidiParagraph("مرحبا gpt-5")
    #expect(paragraph.isRightToLeft)
    #expect(paragraph.visualOrder(of: 0..<paragraph.clusters.count) == [6, 7, 8, 9, 10, 5, 4, 3, 2, 1, 0])
    let english = BidiParagraph("gpt-5 مرحبا")
    #expect(!english.isRightToLeft)
    #expect(english.visualOrder(of: 0..<english.clusters.count) == [0, 1, 2, 3, 4, 5, 10, 9, 8, 7, 6])
  }

  @Test func clustersMoveWholeAndKeepTheirMarksAfterTheBase() {
    // بِ (beh + kasra) is one cluster; reversed with the word, the kasra still follows its beh.
    let paragraph = BidiParagraph("بِسْمِ")
    #expect(paragraph.clusters.count == 3)
    #expect(paragraph.visualOrder(of: 0..<3) == [2, 1, 0])
    let shaped = paragraph.shaped(0..<3, ligatures: true)
    #expect(shaped.map { $0.unicodeScalars.count } == [2, 2, 2])
    #expect(shaped[0].unicodeScalars.last == "\u{0650}")
  }

  @Test func bengaliKeepsItsLogicalOrderInsideARightToLeftLine() {
    let line = "ক্ষমা سلام"
    let paragraph = BidiParagraph(line)
    let visual = paragraph.visualLine(0..<paragraph.clusters.count)
    #expect(visual.hasPrefix("ক্ষমা "))
  }

  @Test func controlCharactersNeverSteerTheOrder() {
    // An RLO that slipped past the sanitizer is a plain neutral: "abc" stays left to right.
    let paragraph = BidiParagraph("\u{202E}abc def")
    #expect(!paragraph.needsReordering)
    #expect(paragraph.visualOrder(of: 0..<paragraph.clusters.count) == Array(0..<paragraph.clusters.count))
    let marked = BidiParagraph("\u{200F}abc")
    #expect(!marked.isRightToLeft)
  }

  @Test func placeholdersAreNoStrongLettersForTheBaseDirection() {
    // The sanitizer's "‹RLO›" resolves as left-to-right letters inside the line, but the first
    // letter of the payload's own, سلام, makes the paragraph right to left.
    let paragraph = BidiParagraph("‹RLO›سلام abc")
    #expect(paragraph.isRightToLeft)
    #expect(paragraph.visualLine(0..<paragraph.clusters.count) == "abc ﻡﻼﺳ‹RLO›")
    #expect(!BidiParagraph("‹RLM›abc سلام").isRightToLeft)
    #expect(!BidiParagraph("‹RLO›123").isRightToLeft)
  }

  @Test func lineReorderingUsesTheParagraphsLevels() {
    // Broken after "سلام": the second line starts with English but belongs to a right-to-left
    // paragraph, so its English run is at the right and the Urdu word at its left.
    let text = "سلام gpt-5 دنیا"
    let paragraph = BidiParagraph(text)
    let second = 5..<paragraph.clusters.count
    let visual = paragraph.visualOrder(of: second).map { String(paragraph.clusters[$0]) }.joined()
    #expect(visual.hasSuffix("gpt-5"))
  }
}
