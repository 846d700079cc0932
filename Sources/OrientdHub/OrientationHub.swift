import Foundation
import Logging
import NIOConcurrencyHelpers
import OrientationCore
import OrientdProtocol

/// The one place that knows the current orientation, the rotation lock and who wants to hear of
/// changes. `publish…` and the freshness calls come from the sensor thread; everything else from
/// the connections' event loops. Nothing here waits for a client.
public final class OrientationHub: Sendable {
    private struct State {
        var orientation: Orientation = .unknown
        var sequence = 0
        var timestamp = Date().timeIntervalSince1970
        /// The last in-plane device orientation: what drives interfaces while unlocked.
        var lastInPlane: Orientation?
        var lock = RotationLock.unlocked
        var subscriptions: [ObjectIdentifier: Subscription] = [:]
        var angleSubscriptions: [ObjectIdentifier: Subscription] = [:]
        /// False while the sensor sleeps: the orientation may be stale, so requests wait for a reading.
        var fresh = true
        var freshnessWaiters: [@Sendable () -> Void] = []
        var sensor: SensorStatus?

        var update: HubUpdate {
            HubUpdate(orientation: orientation, sequence: sequence, timestamp: timestamp,
                      driving: lock.locked ? lock.orientation : lastInPlane, locked: lock.locked)
        }
    }

    public let serverName: String
    let lockPolicy: LockPolicy
    private let lockStore: RotationLockStore?
    private let demand: (any SensorDemand)?
    private let logger: Logger
    private let startedAt = MonotonicTime.now()
    private let state: NIOLockedValueBox<State>

    /// - Parameters:
    ///   - lockStore: where the rotation lock persists; it is loaded now.
    ///   - demand: told who needs readings; nil when readings come regardless (a replayed trace).
    public init(serverName: String, lockPolicy: LockPolicy, lockStore: RotationLockStore?,
                demand: (any SensorDemand)?, logger: Logger) {
        self.serverName = serverName
        self.lockPolicy = lockPolicy
        self.lockStore = lockStore
        self.demand = demand
        self.logger = logger
        var initial = State()
        if let lockStore {
            initial.lock = lockStore.load(logger: logger)
            if initial.lock.locked {
                logger.info("the rotation lock is on (from \(lockStore.path)), in \(initial.lock.orientation?.rawValue ?? "no known orientation")")
            }
        }
        state = NIOLockedValueBox(initial)
    }

    public var orientation: Orientation { state.withLockedValue { $0.orientation } }

    // MARK: From the sensor

    /// Records a change and hands it to every subscriber. A change to the orientation already
    /// held (the first reading after the sensor slept) is no change.
    public func publish(_ orientation: Orientation, at timestamp: Double = Date().timeIntervalSince1970) {
        let (update, subscriptions): (HubUpdate?, [Subscription]) = state.withLockedValue { state in
            guard orientation != state.orientation else { return (nil, []) }
            state.orientation = orientation
            state.sequence += 1
            state.timestamp = timestamp
            if orientation.inPlaneAngle != nil { state.lastInPlane = orientation }
            return (state.update, Array(state.subscriptions.values))
        }
        guard let update else { return }
        for subscription in subscriptions { subscription.deliver(update) }
    }

    /// Whether any client wants angle samples (so the pipeline can skip making them).
    public var wantsAngles: Bool { state.withLockedValue { !$0.angleSubscriptions.isEmpty } }

    public func publishAngles(_ angles: OrientationAngles, acceleration: Vector3, at timestamp: Double) {
        let subscriptions = state.withLockedValue { Array($0.angleSubscriptions.values) }
        let sample = AngleSample(angles: angles, acceleration: acceleration, timestamp: timestamp)
        for subscription in subscriptions { subscription.deliver(sample) }
    }

    /// The sensor went to sleep: what the hub holds may go stale.
    public func sensorPaused() {
        state.withLockedValue { $0.fresh = false }
    }

    /// The sensor read again and the orientation is decided afresh: answer whoever waited.
    public func sensorResumed() {
        let waiters = state.withLockedValue { state in
            state.fresh = true
            defer { state.freshnessWaiters = [] }
            return state.freshnessWaiters
        }
        for waiter in waiters { waiter() }
    }

    public func describeSensor(_ sensor: SensorStatus) {
        state.withLockedValue { $0.sensor = sensor }
    }

    // MARK: From the connections

    /// Whether the orientation is fresh; if not, `whenFresh` is called once it is (after the
    /// sensor has woken and read). Either way the sensor is kept awake a few seconds, as after a `get`.
    func isFresh(orWhenFresh whenFresh: @escaping @Sendable () -> Void) -> Bool {
        let isFresh = state.withLockedValue { state in
            if !state.fresh { state.freshnessWaiters.append(whenFresh) }
            return state.fresh
        }
        demand?.request()
        return isFresh
    }

    /// Makes a subscription from the current state and adds it, under the same lock as `publish`,
    /// so a change is either in the state it starts from or delivered to it.
    func add(_ make: (HubUpdate) -> Subscription) -> (Subscription, start: HubUpdate) {
        let (subscription, start) = state.withLockedValue { state in
            let start = state.update
            let subscription = make(start)
            let key = ObjectIdentifier(subscription)
            state.subscriptions[key] = subscription
            if subscription.parameters.events.contains(.angles) { state.angleSubscriptions[key] = subscription }
            return (subscription, start)
        }
        if subscription.parameters.needsSensor { demand?.hold() }
        return (subscription, start)
    }

    func remove(_ subscription: Subscription) {
        let removed = state.withLockedValue { state in
            let key = ObjectIdentifier(subscription)
            state.angleSubscriptions[key] = nil
            return state.subscriptions.removeValue(forKey: key) != nil
        }
        if removed, subscription.parameters.needsSensor { demand?.release() }
    }

    /// Locks or unlocks the interface orientation for everyone and saves the lock. Returns whether
    /// it was saved; the lock holds either way.
    func setLock(_ locked: Bool) -> Bool {
        let (update, subscriptions, lock, changed) = state.withLockedValue { state in
            let changed = state.lock.locked != locked
            if changed {
                state.lock = locked ? RotationLock(locked: true, orientation: state.lastInPlane) : .unlocked
                state.timestamp = Date().timeIntervalSince1970
            }
            return (state.update, Array(state.subscriptions.values), state.lock, changed)
        }
        if changed {
            logger.info(locked ? "rotation locked in \(lock.orientation?.rawValue ?? "no known orientation")" : "rotation unlocked")
            for subscription in subscriptions { subscription.deliver(update) }
        }
        guard let lockStore else { return false }
        do {
            try lockStore.save(lock)
            return true
        } catch {
            logger.error("\(error); the rotation lock holds until orientd restarts (check the state-file setting and the directory's permissions)")
            return false
        }
    }

    func status(clients: Int) -> StatusResult {
        state.withLockedValue { state in
            StatusResult(
                server: serverName, uptime: ((MonotonicTime.now() - startedAt) * 10).rounded() / 10,
                orientation: state.orientation, locked: state.lock.locked, clients: clients,
                subscribers: state.subscriptions.count,
                sensor: (state.sensor ?? SensorStatus(uri: "", device: "none", location: .display, mountMatrix: .identity,
                                                      mountMatrixSource: "", rate: 0, reading: false))
                    .reading(demand?.isReading ?? true))
        }
    }
}

/// The hub's state as a subscription needs it.
struct HubUpdate: Sendable {
    let orientation: Orientation
    /// Counts the orientation changes since orientd started.
    let sequence: Int
    /// When the orientation (or the lock) last changed, in seconds since the Unix epoch.
    let timestamp: Double
    /// The device orientation interfaces follow: the last in-plane one, or while locked the one locked in.
    let driving: Orientation?
    let locked: Bool
}

/// One angle sample as the hub hands it out.
struct AngleSample: Sendable {
    let angles: OrientationAngles
    let acceleration: Vector3
    let timestamp: Double
}

enum MonotonicTime {
    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1_000_000_000
    }
}

extension SensorStatus {
    func reading(_ reading: Bool) -> SensorStatus {
        var copy = self
        copy.reading = reading
        return copy
    }
}
