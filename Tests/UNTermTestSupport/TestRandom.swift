import Foundation

/// The seed of a random test: `UNTERM_TEST_SEED` from the environment when set (to replay a
/// failure), else a fresh one, so every run explores new cases. Tests put `replay` in their
/// failure messages, so a failing seed is always printed.
package struct TestSeed: Sendable, CustomStringConvertible {
  package let value: UInt64

  /// The environment variable that fixes the seed.
  package static let variable = "UNTERM_TEST_SEED"

  package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    if let text = environment[Self.variable], let value = UInt64(text) {
      self.value = value
    } else {
      value = UInt64.random(in: 1...UInt64.max)
    }
  }

  /// "seed 123 (UNTERM_TEST_SEED=123 replays it)", for failure messages.
  package var description: String { "seed \(value) (\(Self.variable)=\(value) replays it)" }

  /// A generator that gives the same numbers for the same seed.
  package var generator: SeededGenerator { SeededGenerator(seed: value) }
}

/// A small deterministic generator (xorshift64*): the same seed gives the same sequence.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  package init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

  package mutating func next() -> UInt64 {
    state ^= state >> 12
    state ^= state << 25
    state ^= state >> 27
    return state &* 0x2545_F491_4F6C_DD1D
  }
}
