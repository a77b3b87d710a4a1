import Foundation
import Testing
import UNTermTestSupport

/// The fuzz targets' checked-in inputs (seeds, and every input that ever crashed a target),
/// replayed through the same target code in a normal build: each must pass its invariants.
/// `Scripts/fuzz.sh` runs the targets under libFuzzer and AddressSanitizer.
@Suite("Fuzz corpora replay")
struct FuzzCorpusTests {
  static let corpora = Fixtures.root.appendingPathComponent("Fuzz/corpus")

  static var targets: [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: corpora.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
  }

  @Test func everyTargetHasACorpusAndEveryCorpusATarget() throws {
    let list = try Fixtures.run(Fixtures.productsDirectory.appendingPathComponent("unterm-fuzz").path, ["--list"])
    let names = list.stdout.split(separator: "\n").compactMap { $0.split(separator: "\t").first.map(String.init) }
    #expect(list.status == 0)
    #expect(names.sorted() == Self.targets)
  }

  @Test(arguments: targets)
  func everySavedInputPasses(target: String) throws {
    let folder = Self.corpora.appendingPathComponent(target).path
    let result = try Fixtures.run(
      Fixtures.productsDirectory.appendingPathComponent("unterm-fuzz").path, [target, folder])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.hasPrefix("\(target): ") && result.stdout.contains("replayed, no failure"), "\(result.stdout)")
  }
}
