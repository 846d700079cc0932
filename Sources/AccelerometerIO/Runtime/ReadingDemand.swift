import DaemonThreads
import Synchronization

/// Who needs the sensor read, reference-counted as `beginGeneratingDeviceOrientationNotifications`
/// is: holders (subscriptions) keep it read for as long as they last, a one-off request keeps it
/// read for `keepReadingAfterRequest` seconds. With no demand the poller reads nothing at all.
public final class ReadingDemand: Sendable {
    public let keepReadingAfterRequest: Double

    private struct State {
        var holders = 0
        var lastRequest = -Double.infinity
        var reading = true
        var wakeUp: (@Sendable () -> Void)?
        var watch = Watch.notWatching
    }

    /// Whether the poller sleeps on the still sensor's watch (then a request wakes it for a
    /// fresh reading), and whether one came meanwhile.
    private enum Watch {
        case notWatching
        case watching
        case requested
    }

    private let state = Mutex(State())

    public init(keepReadingAfterRequest: Double = 5) {
        self.keepReadingAfterRequest = keepReadingAfterRequest
    }

    /// A subscription starts needing readings.
    public func hold() { change { $0.holders += 1 } }

    /// A subscription no longer needs readings.
    public func release() { change { $0.holders = max(0, $0.holders - 1) } }

    /// A one-off request: read for a few seconds from now. A poller sleeping on the device's
    /// motion is woken to read once only when the request `needsFreshReading`.
    public func request(at time: Double = MonotonicClock.now(), needsFreshReading: Bool = true) {
        change(wakingAWatch: needsFreshReading) { state in
            state.lastRequest = time
            if state.watch == .watching, needsFreshReading { state.watch = .requested }
        }
    }

    /// Whether the sensor is being read (false while the poller sleeps for want of demand).
    public var isReading: Bool { state.withLock { $0.reading } }

    /// Called by the poller: stops reading, unless there is demand at `time`. Returns true when
    /// the poller should sleep until woken.
    func goIdleUnlessNeeded(at time: Double) -> Bool {
        state.withLock { state in
            guard state.holders == 0, time - state.lastRequest >= keepReadingAfterRequest else { return false }
            state.reading = false
            return true
        }
    }

    /// Called by the poller when it reads again.
    func noteReading() { state.withLock { $0.reading = true } }

    /// Called by the poller when it starts or stops sleeping on the sensor's motion event.
    func watchMotion(_ watching: Bool) {
        state.withLock { $0.watch = watching ? .watching : .notWatching }
    }

    /// Whether a request came while the poller slept on motion (it then reads once); clears it.
    func takeRequestWhileWatching() -> Bool {
        state.withLock { state in
            guard state.watch == .requested else { return false }
            state.watch = .watching
            return true
        }
    }

    /// The poller's way to be woken when demand appears while it sleeps.
    func onDemand(_ wake: @escaping @Sendable () -> Void) { state.withLock { $0.wakeUp = wake } }

    /// Changes the demand; wakes the poller (outside the lock) if it sleeps.
    /// `wakingAWatch`: a poller sleeping on the motion event is woken too (else only one asleep
    /// for want of demand).
    private func change(wakingAWatch: Bool = true, _ body: (inout State) -> Void) {
        let wake: (@Sendable () -> Void)? = state.withLock { state in
            body(&state)
            return state.reading && !(state.watch != .notWatching && wakingAWatch) ? nil : state.wakeUp
        }
        wake?()
    }
}
