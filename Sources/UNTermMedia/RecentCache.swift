/// A dictionary that drops its least recently used entries beyond a capacity.
struct RecentCache<Key: Hashable, Value> {
  private var entries: [Key: (value: Value, lastUse: UInt64)] = [:]
  private var clock: UInt64 = 0
  let capacity: Int

  init(capacity: Int) { self.capacity = max(1, capacity) }

  var count: Int { entries.count }

  /// The value for a key, marking it as just used.
  mutating func value(for key: Key) -> Value? {
    guard let entry = entries[key] else { return nil }
    clock += 1
    entries[key] = (entry.value, clock)
    return entry.value
  }

  /// Stores a value, dropping the least recently used entry when over capacity.
  mutating func insert(_ value: Value, for key: Key) {
    clock += 1
    entries[key] = (value, clock)
    if entries.count > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
      entries[oldest.key] = nil
    }
  }

  mutating func removeAll(where shouldRemove: (Key) -> Bool) {
    entries = entries.filter { !shouldRemove($0.key) }
  }
}
