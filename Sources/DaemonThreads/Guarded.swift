/// A value shared between threads that one of them may wait on: read and changed under a lock,
/// and waited on until it is ready or a deadline passes (on `MonotonicClock`, which a change of
/// the wall clock does not move). `Mutex` is the lock where nobody waits.
package final class Guarded<Value>: @unchecked Sendable {
    private let condition = MonotonicCondition()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Reads or changes the value under the lock, then wakes whoever waits on it.
    package func update<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try condition.locked {
            defer { condition.broadcast() }
            return try body(&value)
        }
    }

    /// Reads the value under the lock, waking nobody.
    package func read<Result>(_ body: (Value) throws -> Result) rethrows -> Result {
        try condition.locked { try body(value) }
    }

    /// Waits until `isReady` holds for the value, then runs `body` on it under the same lock;
    /// nil when `deadline` (seconds on `MonotonicClock`; nil: none) passes first.
    package func wait<Result>(until deadline: Double?, for isReady: (Value) -> Bool,
                              then body: (inout Value) throws -> Result) rethrows -> Result? {
        try condition.locked {
            while !isReady(value) {
                guard let deadline else {
                    _ = condition.wait(until: nil)
                    continue
                }
                let remaining = deadline - MonotonicClock.now()
                guard remaining > 0 else { return nil }
                _ = condition.wait(until: MonotonicCondition.deadline(after: remaining))
            }
            return try body(&value)
        }
    }
}
