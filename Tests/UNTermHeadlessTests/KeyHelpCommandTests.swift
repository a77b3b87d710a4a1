import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermInput
@testable import UNTermState

/// `unterm help keys` prints the key table the session runs on.
@Suite("unterm help keys", .hangGuard)
struct KeyHelpCommandTests {
  private func words(_ text: String) -> String {
    text.replacingOccurrences(of: "`", with: "").split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  @Test func listsEveryKeyOfTheTable() throws {
    for topic in ["keys", "interactive"] {
      let result = try Fixtures.run(Fixtures.unterm, ["help", topic])
      #expect(result.status == 0)
      let printed = words(result.stdout)
      for binding in KeyBindings.all {
        #expect(printed.contains(words(binding.label + " " + binding.about)), "\(binding.label) missing")
      }
    }
  }

  @Test func theMainHelpPointsToIt() throws {
    let result = try Fixtures.run(Fixtures.unterm, ["--help"])
    #expect(result.stdout.contains("`unterm help keys`"))
  }
}
