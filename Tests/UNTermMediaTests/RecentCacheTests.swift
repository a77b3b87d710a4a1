import Testing

@testable import UNTermMedia

/// The bounded caches behind MediaImages.
@Suite struct RecentCacheTests {
  @Test func theLeastRecentlyUsedEntryGoesFirst() {
    var cache = RecentCache<String, Int>(capacity: 2)
    cache.insert(1, for: "a")
    cache.insert(2, for: "b")
    _ = cache.value(for: "a")
    cache.insert(3, for: "c")
    #expect(cache.value(for: "b") == nil)
    #expect(cache.value(for: "a") == 1 && cache.value(for: "c") == 3)
  }

  @Test func theTotalCostIsBoundedButTheNewestEntryStays() {
    var cache = RecentCache<String, Int>(capacity: 10, maxCost: 100)
    cache.insert(1, for: "a", cost: 60)
    cache.insert(2, for: "b", cost: 30)
    cache.insert(3, for: "c", cost: 30)
    #expect(cache.value(for: "a") == nil)
    #expect(cache.totalCost == 60 && cache.count == 2)
    cache.insert(4, for: "huge", cost: 500)
    #expect(cache.count == 1 && cache.value(for: "huge") == 4)
    cache.insert(5, for: "huge", cost: 10)
    #expect(cache.totalCost == 10)
    cache.removeAll { $0 == "huge" }
    #expect(cache.count == 0 && cache.totalCost == 0)
  }
}
