/// A dictionary of at most `capacity` entries: once full, the oldest entry makes room. Not
/// thread-safe; its owners keep it behind a lock.
struct BoundedMap<Key: Hashable, Value> {
    private var entries: [Key: Value] = [:]
    private var insertionOrder: [Key] = []
    private let capacity: Int

    init(capacity: Int) {
        precondition(capacity > 0, "a bounded map needs room for at least one entry")
        self.capacity = capacity
    }

    subscript(key: Key) -> Value? { entries[key] }

    var count: Int { entries.count }

    /// Stores `value` unless `key` is already there (a verdict, once reached, does not change).
    mutating func insert(_ value: Value, for key: Key) {
        guard entries[key] == nil else { return }
        entries[key] = value
        insertionOrder.append(key)
        if insertionOrder.count > capacity {
            entries.removeValue(forKey: insertionOrder.removeFirst())
        }
    }
}
