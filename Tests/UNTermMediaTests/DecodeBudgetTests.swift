import Foundation
import Testing
import UNTermTestSupport

@testable import UNTermMedia

#if canImport(Glibc)
  import Glibc
#endif

// Declared by glibc only with _GNU_SOURCE, so not visible through Swift's Glibc.
@_silgen_name("sched_getaffinity")
private func getAffinity(_ pid: pid_t, _ size: Int, _ mask: UnsafeMutableRawPointer) -> Int32
@_silgen_name("sched_setaffinity")
private func setAffinity(_ pid: pid_t, _ size: Int, _ mask: UnsafeRawPointer) -> Int32

/// A decode's time budget is the decoding thread's CPU time: a thread a busy machine keeps
/// waiting for a CPU far past the budget still decodes a good image (a wall-clock budget made
/// cards on a loaded CI runner say "image unavailable").
@Suite("Decode budget", .hangGuard)
struct DecodeBudgetTests {
  /// What the starved decode did, and whether the thread keeping its CPU busy may stop.
  private final class Run: @unchecked Sendable {
    private let condition = NSCondition()
    private var finished = false
    var outcome: Result<DecodedImage, MediaError>?
    var wallSeconds = 0.0
    var cpuSeconds = 0.0

    var isFinished: Bool {
      condition.lock()
      defer { condition.unlock() }
      return finished
    }

    func finish() {
      condition.lock()
      finished = true
      condition.broadcast()
      condition.unlock()
    }

    /// Bounded, so a broken run cannot hang the test.
    func waitUntilFinished() -> Bool {
      let limit = Date().addingTimeInterval(ChildProcess.defaultLimit)
      condition.lock()
      defer { condition.unlock() }
      while !finished && condition.wait(until: limit) {}
      return finished
    }
  }

  /// The calling thread's CPU mask: 1024 bits, glibc's `cpu_set_t`.
  private typealias Mask = [UInt64]

  private static func allowedCPU() -> Int? {
    var mask = Mask(repeating: 0, count: 16)
    let got = mask.withUnsafeMutableBytes { getAffinity(0, $0.count, $0.baseAddress!) }
    guard got == 0 else { return nil }
    return (0..<1024).first { mask[$0 / 64] & (1 << UInt64($0 % 64)) != 0 }
  }

  /// Keeps the calling thread on `cpu` alone.
  private static func pin(to cpu: Int) -> Bool {
    var mask = Mask(repeating: 0, count: 16)
    mask[cpu / 64] = 1 << UInt64(cpu % 64)
    return mask.withUnsafeBytes { setAffinity(0, $0.count, $0.baseAddress!) } == 0
  }

  /// Makes the calling thread run only when nothing else wants its CPU (Linux's `SCHED_IDLE`,
  /// which any thread may choose for itself).
  private static func runOnlyWhenIdle() -> Bool {
    let schedIdle: Int32 = 5
    var parameter = sched_param()
    parameter.sched_priority = 0
    return sched_setscheduler(0, schedIdle, &parameter) == 0
  }

  /// One decode of `png` on a thread that runs only when its CPU has nothing else to do, while
  /// another thread keeps that CPU busy: it waits far longer than it works, as on a busy machine.
  private func starvedDecode(_ png: [UInt8], limits: MediaLimits, size: (Int, Int), on cpu: Int) throws -> Run {
    let run = Run()
    let spinning = Run()
    let busy = Thread {
      guard Self.pin(to: cpu) else { return spinning.finish() }
      spinning.finish()
      while !run.isFinished {}
    }
    busy.start()
    let decoder = Thread {
      defer { run.finish() }
      guard Self.pin(to: cpu), spinning.waitUntilFinished(), Self.runOnlyWhenIdle() else { return }
      let start = Date()
      let cpuStart = CPUTime.thread
      run.outcome = Result { () throws(MediaError) in
        try MediaDecoder.decode(png, limits: limits, region: .whole, size: size, background: (0, 0, 0))
      }
      run.cpuSeconds = CPUTime.thread - cpuStart
      run.wallSeconds = Date().timeIntervalSince(start)
    }
    decoder.start()
    try #require(run.waitUntilFinished(), "the starved decode did not finish")
    return run
  }

  @Test func aDecodeKeptWaitingForTheCPUPastItsBudgetStillDecodes() throws {
    // 256 × 512 of noise: a few milliseconds of CPU time, against a 50 ms budget.
    let (width, height) = (256, 512)
    let png = try MediaFixtures.png(width: width, height: height, rgba: MediaFixtures.noise(count: width * height * 4))
    var limits = MediaLimits.standard
    limits.timeBudget = .milliseconds(50)
    let cpu = try #require(Self.allowedCPU())
    // A try where the scheduler let the decode run anyway proves nothing and does not count.
    for _ in 0..<10 {
      let run = try starvedDecode(png, limits: limits, size: (width / 8, height / 8), on: cpu)
      let outcome = try #require(run.outcome, "the decoding thread could not be pinned or made idle")
      print("a decode on a starved thread took \(run.wallSeconds) s, \(run.cpuSeconds) s of it on the CPU")
      guard run.wallSeconds > 0.05 else { continue }
      #expect(run.cpuSeconds < 0.05, "the decode itself took \(run.cpuSeconds) s of CPU time")
      switch outcome {
      case .success(let image): #expect(image.width == width / 8 && image.height == height / 8)
      case .failure(let error): Issue.record("a good image failed: \(error)")
      }
      return
    }
    Issue.record("the decode was never kept waiting past its budget")
  }
}
