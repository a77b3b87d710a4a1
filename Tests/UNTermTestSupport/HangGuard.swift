import Testing

extension Trait where Self == TimeLimitTrait {
  /// For suites whose tests wait on other threads or programs: every such wait is bounded far
  /// below this (60 s for a condition, 120 s for a program, 300 s for a browser), so a test
  /// still running after ten minutes is stuck, and Swift Testing reports it by name instead of
  /// the run hanging silently.
  package static var hangGuard: Self { .timeLimit(.minutes(10)) }
}
