import NIOConcurrencyHelpers

/// Where the subscribers' readers leave what happened to them, for the benchmark's thread to
/// pick up. Once a subscriber is subscribed, each line it receives is left here unparsed with the
/// moment it arrived, so that no parsing runs on the readers while a fan-out is being timed.
final class ReceiptBoard: Sendable {
    /// A line received by a subscribed subscriber, stamped on arrival (wall clock).
    struct Arrival: Sendable {
        let subscriber: Int
        let time: Double
        let line: [UInt8]
    }

    /// How the connections fared.
    struct Tally: Sendable {
        var connected = 0
        var subscribed = 0
        /// Subscribed connections that closed since.
        var closed = 0
        /// Error replies instead of a subscription (e.g. too-many-clients), by their text.
        var refusals: [String: Int] = [:]
        /// Connections that ended or failed before their reply, by error.
        var failures: [String: Int] = [:]

        var refused: Int { refusals.values.reduce(0, +) }
        var failed: Int { failures.values.reduce(0, +) }
        /// Connections whose subscription has been settled one way or the other.
        var answered: Int { subscribed + refused + failed }
        /// Subscribers that can still receive events.
        var active: Int { subscribed - closed }
    }

    private struct State {
        var tally = Tally()
        var inbox: [Arrival] = []
    }

    private let state = NIOLockedValueBox(State())

    var tally: Tally { state.withLockedValue { $0.tally } }

    func connected() { state.withLockedValue { $0.tally.connected += 1 } }
    func subscribed() { state.withLockedValue { $0.tally.subscribed += 1 } }
    func refused(_ reason: String) { state.withLockedValue { $0.tally.refusals[reason, default: 0] += 1 } }
    func failed(_ reason: String) { state.withLockedValue { $0.tally.failures[reason, default: 0] += 1 } }
    func closed() { state.withLockedValue { $0.tally.closed += 1 } }

    /// Called by a reader with the lines its subscribers received since it last called: kept cheap.
    func deliver(_ arrivals: [Arrival]) { state.withLockedValue { $0.inbox += arrivals } }

    /// Lines waiting to be picked up.
    var waiting: Int { state.withLockedValue { $0.inbox.count } }

    /// Takes every line waiting, oldest first.
    func take() -> [Arrival] {
        state.withLockedValue { state in
            defer { state.inbox.removeAll(keepingCapacity: true) }
            return state.inbox
        }
    }
}
