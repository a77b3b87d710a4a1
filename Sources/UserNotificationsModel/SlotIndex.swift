/// An open-addressing hash table of record slots (linear probing, at most three quarters
/// full), keyed by the hash the caller gives; the caller's closure tells whether a slot holds
/// the key. It holds 4 bytes a notification, the identifier staying in the notification alone.
struct SlotIndex {
  /// Record slots; -1 is empty. The count is a power of two.
  private var table: [Int32] = []
  private var count = 0

  /// The slot whose record `matches`, looking from the hash's home position.
  func find(hash: Int, matches: (Int32) -> Bool) -> Int32? {
    guard !table.isEmpty else { return nil }
    let mask = table.count - 1
    var i = hash & mask
    while table[i] >= 0 {
      if matches(table[i]) { return table[i] }
      i = (i + 1) & mask
    }
    return nil
  }

  /// Adds a slot; `hashOf` gives the hash of any slot already in (to move them when it grows).
  mutating func insert(_ slot: Int32, hash: Int, hashOf: (Int32) -> Int) {
    if (count + 1) * 4 > table.count * 3 {
      let old = table
      table = [Int32](repeating: -1, count: max(16, old.count * 2))
      for s in old where s >= 0 { place(s, hash: hashOf(s)) }
    }
    place(slot, hash: hash)
    count += 1
  }

  private mutating func place(_ slot: Int32, hash: Int) {
    let mask = table.count - 1
    var i = hash & mask
    while table[i] >= 0 { i = (i + 1) & mask }
    table[i] = slot
  }

  /// Takes a slot out, moving later slots of its probe run back so every lookup still finds
  /// its slot before an empty position (no tombstones to accumulate).
  mutating func remove(_ slot: Int32, hash: Int, hashOf: (Int32) -> Int) {
    guard !table.isEmpty else { return }
    let mask = table.count - 1
    var hole = hash & mask
    while table[hole] != slot {
      if table[hole] < 0 { return }
      hole = (hole + 1) & mask
    }
    var j = hole
    while true {
      j = (j + 1) & mask
      let s = table[j]
      if s < 0 { break }
      // `s` may fill the hole unless its home lies cyclically in (hole, j].
      let home = hashOf(s) & mask
      let homeBetween = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j)
      if !homeBetween {
        table[hole] = s
        hole = j
      }
    }
    table[hole] = -1
    count -= 1
  }
}
