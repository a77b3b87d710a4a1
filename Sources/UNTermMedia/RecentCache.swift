/// A dictionary that drops its least recently used entries beyond a count or a total cost.
struct RecentCache<Key: Hashable, Value> {
  private var entries: [Key: (value: Value, cost: Int, lastUse: UInt64)] = [:]
  private var clock: UInt64 = 0
  private(set) var totalCost = 0
  /// Most entries kept.
  let capacity: Int
  /// Most total cost kept; the newest entry is kept even when it alone is over.
  let maxCost: Int

  init(capacity: Int, maxCost: Int = .max) {
    self.capacity = max(1, capacity)
    self.maxCost = max(0, maxCost)
  }

  var count: Int { entries.count }

  /// The value for a key, marking it as just used.
  mutating func value(for key: Key) -> Value? {
    guard let entry = entries[key] else { return nil }
    clock += 1
    entries[key] = (entry.value, entry.cost, clock)
    return entry.value
  }

  /// Stores a value, then drops least recently used entries until within both limits.
  mutating func insert(_ value: Value, for key: Key, cost: Int = 0) {
    remove(key)
    clock += 1
    entries[key] = (value, max(0, cost), clock)
    totalCost += max(0, cost)
    while entries.count > 1, entries.count > capacity || totalCost > maxCost,
      let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })
    {
      remove(oldest.key)
    }
  }

  mutating func removeAll(where shouldRemove: (Key) -> Bool) {
    for key in entries.keys where shouldRemove(key) { remove(key) }
  }

  private mutating func remove(_ key: Key) {
    guard let entry = entries.removeValue(forKey: key) else { return }
    totalCost -= entry.cost
  }
}
