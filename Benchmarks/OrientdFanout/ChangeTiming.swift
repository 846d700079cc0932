import OrientationCore
import ProcessHarness

/// One orientation change as the subscribers heard it. Times are wall-clock seconds.
struct ChangeTiming {
    /// When the benchmark began writing the new acceleration to the sensor's files.
    var written: Double
    /// When orientd decided the change: the event's `timestamp`.
    var decided: Double?
    var firstReceipt: Double?
    var lastReceipt: Double?
    /// Subscribers that had not received the change when the wait ended.
    var missing: Int

    /// orientd's fan-out: from deciding the change until the last subscriber has it.
    var toLast: Double? { lastReceipt.flatMap { last in decided.map { last - $0 } } }
    var toFirst: Double? { firstReceipt.flatMap { first in decided.map { first - $0 } } }
    /// Includes the poll period and the classifier's settling: context, not the hub's own figure.
    var sensorToLast: Double? { lastReceipt.map { $0 - written } }
}

/// Matches the lines the subscribers received against the changes the benchmark makes, on the
/// benchmark's own thread. Lines are parsed only once every subscriber can have its line, so
/// that parsing does not compete with the fan-out being timed.
struct ChangeCollector {
    let board: ReceiptBoard
    /// The highest `sequence` of the changes collected so far.
    private(set) var sequence = 0
    /// Change events that were not the change made (another orientation, a second one), and
    /// events of an earlier change that came after its wait had ended.
    private(set) var unexpected = 0
    private(set) var late = 0

    init(board: ReceiptBoard) {
        self.board = board
    }

    /// Waits until every active subscriber has received the change to `target`, or `timeout`
    /// seconds pass. Events that are not change events are ignored.
    mutating func collect(changeTo target: Orientation, writtenAt written: Double, timeout: Double) -> ChangeTiming {
        var timing = ChangeTiming(written: written, missing: 0)
        let active = board.tally.active
        var heard = Set<Int>()
        var highest = sequence
        let deadline = monotonicNow() + timeout
        while heard.count < active {
            let needed = active - heard.count
            let allCanHaveIt = waitUntil(timeout: max(0, deadline - monotonicNow()), every: 0.002) { board.waiting >= needed }
            for arrival in board.take() {
                guard let message = ServerLine(arrival.line), message.isChange, let number = message.sequence else { continue }
                guard number > sequence else { late += 1; continue }
                guard message.orientation == target.rawValue, !heard.contains(arrival.subscriber) else { unexpected += 1; continue }
                heard.insert(arrival.subscriber)
                highest = max(highest, number)
                if let decided = message.timestamp { timing.decided = min(timing.decided ?? decided, decided) }
                timing.firstReceipt = min(timing.firstReceipt ?? arrival.time, arrival.time)
                timing.lastReceipt = max(timing.lastReceipt ?? arrival.time, arrival.time)
            }
            if !allCanHaveIt { break }
        }
        sequence = highest
        timing.missing = active - heard.count
        return timing
    }
}
