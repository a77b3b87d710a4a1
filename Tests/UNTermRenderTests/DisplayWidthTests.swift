import Testing

@testable import UNTermRender

@Suite("Display width")
struct DisplayWidthTests {
  @Test(arguments: [
    ("a", 1), ("中", 2), ("😀", 2), ("é", 1), ("e\u{301}", 1), ("ক্ষ", 2), ("প্র", 2),
    ("ا", 1), ("👍🏽", 4), ("🇺🇸", 2), ("❤️", 1), ("\u{200D}", 0), ("\u{9CD}", 0),
  ])
  func clusterWidthsMatchGlibcWcwidthSums(_ text: String, _ width: Int) {
    #expect(DisplayWidth.of(text) == width)
  }

  @Test func sentencesAddUp() {
    #expect(DisplayWidth.of("প্রজ্ঞা") == 5)
    #expect(DisplayWidth.of("یہ ایک اطلاع ہے") == 15)
    #expect(DisplayWidth.of("明日の会議") == 10)
  }
}
