/// Who needs the sensor read, reference-counted as `beginGeneratingDeviceOrientationNotifications`
/// is: holders (subscriptions) keep it read for as long as they last, a one-off request keeps it
/// read for `keepReadingAfterRequest` seconds. With no demand the poller reads nothing at all.
public final class ReadingDemand: @unchecked Sendable {
    public let keepReadingAfterRequest: Double
    private let lock = Lock()
    private var holders = 0
    private var lastRequest = -Double.infinity
    private var reading = true
    private var wakeUp: (@Sendable () -> Void)?

    public init(keepReadingAfterRequest: Double = 5) {
        self.keepReadingAfterRequest = keepReadingAfterRequest
    }

    /// A subscription starts needing readings.
    public func hold() { change { $0.holders += 1 } }

    /// A subscription no longer needs readings.
    public func release() { change { $0.holders = max(0, $0.holders - 1) } }

    /// A one-off request: read for a few seconds from now.
    public func request(at time: Double = MonotonicClock.now()) { change { $0.lastRequest = time } }

    /// Whether the sensor is being read (false while the poller sleeps for want of demand).
    public var isReading: Bool { locked { reading } }

    /// Called by the poller: stops reading, unless there is demand at `time`. Returns true when
    /// the poller should sleep until woken.
    func goIdleUnlessNeeded(at time: Double) -> Bool {
        locked {
            guard holders == 0, time - lastRequest >= keepReadingAfterRequest else { return false }
            reading = false
            return true
        }
    }

    /// Called by the poller when it reads again.
    func noteReading() { locked { reading = true } }

    /// The poller's way to be woken when demand appears while it sleeps.
    func onDemand(_ wake: @escaping @Sendable () -> Void) { locked { wakeUp = wake } }

    private func change(_ body: (ReadingDemand) -> Void) {
        let wake: (@Sendable () -> Void)? = locked {
            body(self)
            return reading ? nil : wakeUp
        }
        wake?()
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.withLock(body)
    }
}
