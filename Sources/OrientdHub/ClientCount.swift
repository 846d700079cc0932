import NIOConcurrencyHelpers

/// Counts connected clients against a maximum, so that no number of connections can use up the
/// daemon's file descriptors (which the sensor needs too).
final class ClientCount: Sendable {
    let maximum: Int
    private let count = NIOLockedValueBox(0)

    init(maximum: Int) {
        self.maximum = maximum
    }

    /// Takes a place for a new client; false when all are taken.
    func admit() -> Bool {
        count.withLockedValue { count in
            guard count < maximum else { return false }
            count += 1
            return true
        }
    }

    func release() {
        count.withLockedValue { $0 -= 1 }
    }
}
