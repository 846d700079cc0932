import Synchronization
import Glibc
import Logging
import NIOCore
import NIOPosix
import OrientationCore
import OrientdProtocol

/// The one owner of every published fact and of every wait for a fresh reading: `HubState`
/// decides, under one lock; this does what it decides. Its views are the socket's subscriptions
/// (grouped by event loop) and its observers (the D-Bus face). The sensor threads call the
/// `From the sensors` methods; the connections and the D-Bus face the rest. Nothing here waits
/// for a client: delivery only queues a task on a subscription's loop, or hands the facts to an
/// observer that only queues them.
public final class OrientationHub: Sendable {
    /// What the lock guards: the machine, and who is told of what it decides.
    private struct Locked {
        var machine: HubState
        /// Grouped by event loop, so that an update is one task per loop rather than one per
        /// subscription: with thousands of subscribers the loops' task queues, not the sockets,
        /// would otherwise be the bottleneck.
        var subscriptions = SubscriptionsByLoop()
        var angleSubscriptions = SubscriptionsByLoop()
        var observers: [@Sendable (HubFacts) -> Void] = []
        /// What the observers were told last: they hear only of facts that differ (a hinge or
        /// lock change, which they do not show, wakes none of them).
        var toldFacts: HubFacts?
        /// Whoever waits for a fresh reading, by the number the machine knows them by.
        var waiters: [Int: @Sendable () -> Void] = [:]
        var nextWaiter = 0

        /// Does what the machine decided; returns the waiters to answer once the lock is let go.
        /// Delivery happens here, under the lock, so each view hears of changes in the order
        /// they happened (it only queues a task, or hands the facts on).
        mutating func perform(_ actions: [HubState.Action]) -> [@Sendable () -> Void] {
            var answered: [@Sendable () -> Void] = []
            for action in actions {
                switch action {
                case .deliver(let update):
                    for (eventLoop, onThatLoop) in subscriptions.byLoop.values {
                        eventLoop.execute {
                            for entry in onThatLoop.values { entry.subscription.value.receive(update) }
                        }
                    }
                case .tell(let facts):
                    guard facts != toldFacts else { continue }
                    toldFacts = facts
                    for observer in observers { observer(facts) }
                case .answer(let numbers):
                    answered += numbers.compactMap { waiters.removeValue(forKey: $0) }
                }
            }
            return answered
        }
    }

    public let serverName: String
    let lockPolicy: LockPolicy
    private let lockStore: RotationLockStore?
    private let demand: (any SensorDemand)?
    private let lightDemand: (any SensorDemand)?
    private let proximityDemand: (any SensorDemand)?
    private let compassDemand: (any SensorDemand)?
    private let logger: Logger
    private let startedAt = NIODeadline.now()
    private let state: Mutex<Locked>
    /// What the state file holds (nil: unknown, e.g. it was corrupt); held while saving, on the
    /// thread pool, never on an event loop.
    private let savedLock: Mutex<RotationLock?>

    /// - Parameters:
    ///   - lockStore: where the rotation lock persists; it is loaded now.
    ///   - demand: told who needs readings; nil when readings come regardless (a replayed trace).
    ///   - lightDemand, proximityDemand, compassDemand: told who needs the ambient light and
    ///     proximity sensors and the compass read; nil when there can be no such sensor (every
    ///     hub but the main one).
    ///   - staleAfter: how old (seconds) the last reading may be for a request to be answered at
    ///     once; a few reading periods.
    public init(serverName: String, lockPolicy: LockPolicy, lockStore: RotationLockStore?,
                demand: (any SensorDemand)?, lightDemand: (any SensorDemand)? = nil,
                proximityDemand: (any SensorDemand)? = nil, compassDemand: (any SensorDemand)? = nil,
                staleAfter: Double = 0.5, logger: Logger) {
        self.serverName = serverName
        self.lightDemand = lightDemand
        self.proximityDemand = proximityDemand
        self.compassDemand = compassDemand
        self.lockPolicy = lockPolicy
        self.lockStore = lockStore
        self.demand = demand
        self.logger = logger
        var saved: RotationLock?
        if let lockStore {
            saved = lockStore.load(logger: logger)
            if let saved, saved.locked {
                logger.info("the rotation lock is on (from \(lockStore.path)), in \(saved.orientation?.rawValue ?? "no known orientation")")
            }
        }
        let machine = HubState(staleAfter: Self.timeAmount(seconds: staleAfter), lock: saved ?? .unlocked, at: WallClock.now())
        state = Mutex(Locked(machine: machine))
        savedLock = Mutex(saved)
    }

    public var orientation: Orientation { state.withLock { $0.machine.orientation } }

    /// The ids of the accelerometers this hub's sensor was opened with, the one it follows first.
    public var deviceIDs: [String] { state.withLock { $0.machine.devices.compactMap(\.id) } }

    /// The id of the accelerometer whose orientation this hub holds.
    public var sensorID: String? { state.withLock { $0.machine.sensor?.id } }

    /// Hands `event` to the machine and does what it decides: delivery under the lock, the
    /// waiters it answers after.
    private func step<Result>(_ event: (inout HubState) -> (Result, [HubState.Action])) -> Result {
        let (result, answered) = state.withLock { locked in
            let (result, actions) = event(&locked.machine)
            return (result, locked.perform(actions))
        }
        for waiter in answered { waiter() }
        return result
    }

    private func step(_ event: (inout HubState) -> [HubState.Action]) {
        step { machine in ((), event(&machine)) }
    }

    // MARK: From the sensors

    /// A change of the orientation, to every view. A change to the orientation already held
    /// (the first reading after the sensor slept) is no change.
    public func publish(_ orientation: Orientation, at timestamp: Double = WallClock.now()) {
        step { $0.orientationDecided(orientation, at: timestamp) }
    }

    /// Whether any client wants angle samples (so the pipeline can skip making them).
    public var wantsAngles: Bool { state.withLock { $0.angleSubscriptions.count > 0 } }

    /// One sample's angles; `time` is the sample's monotonic time (which paces each client's rate),
    /// `timestamp` the wall-clock time clients are told.
    /// `raw`: the sample in the sensor's axes, before the mount matrix, where known.
    public func publishAngles(_ angles: OrientationAngles, acceleration: Vector3, raw: Vector3? = nil, time: Double, timestamp: Double) {
        let byLoop = state.withLock { $0.angleSubscriptions.byLoop.values }
        guard !byLoop.isEmpty else { return }
        // Encoded once for all, and one task per event loop, as for orientation changes.
        let sample = AngleSample(angles: angles, acceleration: acceleration, raw: raw, time: time, timestamp: timestamp)
        for (eventLoop, onThatLoop) in byLoop {
            eventLoop.execute {
                for entry in onThatLoop.values { entry.subscription.value.receive(sample) }
            }
        }
    }

    /// How old (seconds) a reading may be for a request to be answered at once, from now on (the
    /// classifier's settings were reloaded).
    public func setStaleAfter(_ seconds: Double) {
        state.withLock { $0.machine.staleAfter = Self.timeAmount(seconds: seconds) }
    }

    private static func timeAmount(seconds: Double) -> TimeAmount {
        .nanoseconds(Int64(min(seconds, 1e9) * 1e9))
    }

    /// The sensor went to sleep: what the hub holds may go stale.
    public func sensorPaused() {
        state.withLock { $0.machine.sensorPaused() }
    }

    /// The sensor was read and the orientation decided from that reading (published first, if it
    /// changed): answer whoever waited for a fresh one.
    public func sensorRead(at time: NIODeadline = .now()) {
        step { $0.sensorRead(at: time) }
    }

    /// The hinge angle or tablet mode of a convertible changed: subscribers hear of it.
    /// The display accelerometer reads far from 1 g at rest (`problem` says how far, and what to do).
    public func sensorScaleWrong(_ problem: String) {
        state.withLock { $0.machine.sensorScaleWrong(problem) }
    }

    /// What the D-Bus face says of itself (the bus name, the claims), for `status`.
    public func sensorProxyChanged(_ status: SensorProxyStatus) {
        state.withLock { $0.machine.sensorProxy = status }
    }

    /// How the still display accelerometer is watched, for `status`.
    public func sensorStillWatch(_ watch: StillDeviceWatch) {
        state.withLock { $0.machine.sensorStillWatch(watch) }
    }

    /// The display's tilt step changed.
    public func tiltDecided(_ tilt: DeviceTilt, at timestamp: Double = WallClock.now()) {
        step { $0.tiltDecided(tilt, at: timestamp) }
    }

    public func hingeChanged(_ hinge: TabletModeDetector.State) {
        step { $0.hingeChanged(hinge, at: WallClock.now()) }
    }

    /// A sensor was opened (at start, or after one was lost), with `devices`, every accelerometer
    /// opened with it (itself first): subscribers hear of it.
    public func sensorOpened(_ sensor: SensorStatus, devices: [SensorStatus]) {
        step { $0.sensorOpened(sensor, devices: devices, at: WallClock.now()) }
    }

    /// The sensor has not opened yet, for `reason` (a board slow to answer): `status` says why and
    /// requests are answered at once with unknown; nothing changes if it has opened meanwhile.
    public func sensorNotOpenedYet(reason: String) {
        step { $0.sensorNotOpenedYet(reason: reason, at: WallClock.now()) }
    }

    /// The sensor is gone (removed, failing, or none yet): subscribers hear why, and the
    /// orientation is unknown until a sensor is read again.
    public func sensorLost(reason: String) {
        step { $0.sensorLost(reason: reason, at: WallClock.now()) }
    }

    /// The ambient light sensor opened now (`device`: its name, for `status` and subscribers),
    /// or nil: there is none (not found, removed, or failing). Subscribers hear of a change.
    public func lightSensorChanged(device: String?) {
        step { $0.ambientSensorChanged(.light, device: device, at: WallClock.now()) }
    }

    /// The light sensor read `level`: subscribers hear of a new one. Ignored while no light
    /// sensor is known (`lightSensorChanged(device:)` comes first) and when not a finite number.
    public func publishLight(level: Double, unit: LightUnit) {
        guard level.isFinite else { return }
        // Hundredths: finer is noise, and never -0.
        let light = AmbientLight(level: (level * 100).rounded() / 100 + 0, unit: unit)
        step { $0.lightRead(light, at: WallClock.now()) }
    }

    /// The proximity sensor opened now, or nil: there is none. Subscribers hear of a change.
    public func proximitySensorChanged(device: String?) {
        step { $0.ambientSensorChanged(.proximity, device: device, at: WallClock.now()) }
    }

    /// The proximity sensor read `near` (something is close: `UIDevice.proximityState`):
    /// subscribers hear of a change. Ignored while no proximity sensor is known.
    public func publishProximity(near: Bool) {
        step { $0.proximityRead(near: near, at: WallClock.now()) }
    }

    /// The compass opened now (`device`), or nil: there is none. Its observers hear of a change
    /// (the socket protocol has no compass).
    public func compassSensorChanged(device: String?) {
        step { $0.ambientSensorChanged(.compass, device: device, at: WallClock.now()) }
    }

    /// The compass read `heading` (degrees clockwise from magnetic north). Ignored while no
    /// compass is known, and when not a finite number.
    public func publishCompass(heading: Double) {
        guard heading.isFinite else { return }
        step { $0.compassRead(heading: heading) }
    }

    /// The last light level read, while the light sensor is being read (nil otherwise: it may be stale).
    public var ambientLight: AmbientLight? {
        guard lightDemand?.isReading == true else { return nil }
        return state.withLock { $0.machine.light.value }
    }

    /// Whether something is near the proximity sensor, while it is being read (nil otherwise).
    public var proximityNear: Bool? {
        guard proximityDemand?.isReading == true else { return nil }
        return state.withLock { $0.machine.proximity.value?.near }
    }

    // MARK: Views other than the socket

    /// Tells `observer` the facts now and after every change, in order, from the thread that
    /// made the change (under the hub's lock: it must only hand them on).
    public func observe(_ observer: @escaping @Sendable (HubFacts) -> Void) {
        state.withLock { locked in
            let facts = locked.machine.facts
            locked.observers.append(observer)
            locked.toldFacts = facts
            observer(facts)
        }
    }

    /// Someone needs `sensor` read until `release`: a D-Bus claim, as a subscription holds it.
    public func hold(_ sensor: HubSensor) {
        let demand = demand(for: sensor)
        let asleep = demand?.isReading != true
        state.withLock { $0.machine.hold(sensor, asleep: asleep) }
        demand?.hold()
    }

    public func release(_ sensor: HubSensor) {
        state.withLock { $0.machine.release(sensor) }
        demand(for: sensor)?.release()
    }

    /// Calls `then` once `sensor`'s value is fresh: at once (on this thread) when it is (read
    /// recently for someone, or no such sensor: no reading is coming), else from the sensor's
    /// thread after its next reading. The wait every client's claim, `get` and `subscribe` share;
    /// the accelerometer is kept awake a few seconds either way, as after a `get`.
    public func whenFresh(_ sensor: HubSensor, now: NIODeadline = .now(), then: @escaping @Sendable () -> Void) {
        _ = wait(for: sensor, now: now) { _ in then() }
    }

    private func demand(for sensor: HubSensor) -> (any SensorDemand)? {
        switch sensor {
        case .accelerometer: demand
        case .light: lightDemand
        case .proximity: proximityDemand
        case .compass: compassDemand
        }
    }

    // MARK: From the connections

    /// Nil when the orientation is fresh at `now`: decided from a reading less than `staleAfter`
    /// old, or unknown for want of a sensor (no reading is coming). Otherwise `whenFresh` is
    /// called with the returned ticket once it is (after the sensor has woken and read), and the
    /// ticket lets a waiter that gives up withdraw. Either way the sensor is kept awake a few
    /// seconds, as after a `get`.
    func waitForFreshness(now: NIODeadline, _ whenFresh: @escaping @Sendable (Int) -> Void) -> Int? {
        wait(for: .accelerometer, now: now, whenFresh)
    }

    /// The one wait for a fresh reading: nil when `sensor` is fresh at `now` (`then` has been
    /// called), else the ticket `then` is called with later.
    private func wait(for sensor: HubSensor, now: NIODeadline, _ then: @escaping @Sendable (Int) -> Void) -> Int? {
        let (ticket, answered) = state.withLock { locked in
            locked.nextWaiter += 1
            let ticket = locked.nextWaiter
            locked.waiters[ticket] = { then(ticket) }
            let actions = locked.machine.awaitFresh(sensor, waiter: ticket, now: now)
            let answered = locked.perform(actions)
            return (answered.isEmpty ? ticket : nil, answered)
        }
        for waiter in answered { waiter() }
        // Answered from a recent reading, a `get` reads nothing: a flood of them must not make a
        // device watched still be read once per request.
        if sensor == .accelerometer { demand?.request(needsFreshReading: answered.isEmpty) }
        return ticket
    }

    func stopWaiting(_ ticket: Int) {
        state.withLock { locked in
            locked.waiters[ticket] = nil
            locked.machine.stopWaiting(ticket)
        }
    }

    /// Makes a subscription from the current state and adds it, under the same lock as the
    /// changes, so a change is either in the state it starts from or delivered to it. An ambient
    /// sensor asleep may hold a stale value: a subscription that wakes it starts from none, and
    /// hears of the first reading. Called on the subscription's event loop, which it is bound to.
    func add(_ parameters: SubscribeParameters, _ make: (HubUpdate) -> Subscription) -> (Subscription, start: HubUpdate) {
        let held = Self.sensors(heldBy: parameters)
        let asleep = Set(held.filter { $0 != .accelerometer && demand(for: $0)?.isReading != true })
        let (subscription, start) = state.withLock { locked in
            let start = locked.machine.subscriptionStart(asleep: asleep)
            let subscription = make(start)
            locked.subscriptions.insert(subscription)
            if parameters.events.contains(.angles) { locked.angleSubscriptions.insert(subscription) }
            return (subscription, start)
        }
        for sensor in held { hold(sensor) }
        return (subscription, start)
    }

    /// Called on the subscription's event loop.
    func remove(_ subscription: Subscription) {
        let removed = state.withLock { locked in
            _ = locked.angleSubscriptions.remove(subscription)
            return locked.subscriptions.remove(subscription)
        }
        guard removed else { return }
        for sensor in Self.sensors(heldBy: subscription.parameters) { release(sensor) }
    }

    /// The sensors a subscription with `parameters` needs read, held while it lasts.
    private static func sensors(heldBy parameters: SubscribeParameters) -> [HubSensor] {
        SensorKind.allCases.filter(parameters.needs).map(HubSensor.init)
    }

    /// How many subscriptions need `sensor` read: what its demand should be held for.
    func subscriptionCount(needing sensor: SensorKind) -> Int {
        state.withLock { locked in
            locked.subscriptions.byLoop.values.reduce(0) { count, loop in
                count + loop.1.values.filter { $0.parameters.needs(sensor) }.count
            }
        }
    }

    /// Locks or unlocks the interface orientation for everyone at once, and saves the lock off
    /// the event loop (a save syncs the disk). The future, on `eventLoop`, says whether the saved
    /// lock is the one in force; the lock holds either way.
    func setLock(_ locked: Bool, on eventLoop: any EventLoop) -> EventLoopFuture<Bool> {
        let changed = step { $0.setLock(locked, at: WallClock.now()) }
        if let changed {
            logger.info(locked ? "rotation locked in \(changed.orientation?.rawValue ?? "no known orientation")" : "rotation unlocked")
        }
        guard lockStore != nil else { return eventLoop.makeSucceededFuture(false) }
        return NIOThreadPool.singleton.runIfActive(eventLoop: eventLoop) { self.saveLock() }.recover { _ in false }
    }

    /// Saves the lock in force, one save at a time, so that the file ends with the latest lock
    /// whatever order concurrent requests finish in. Called on a thread of the pool.
    private func saveLock() -> Bool {
        guard let lockStore else { return false }
        return savedLock.withLock { saved in
            // Read after taking the save's turn: the latest lock, whichever request asked for it.
            let current = state.withLock { $0.machine.lock }
            guard current != saved else { return true }
            do {
                try lockStore.save(current)
                saved = current
                return true
            } catch {
                logger.error("\(error); the rotation lock holds until orientd restarts")
                return false
            }
        }
    }

    public func status(clients: Int) -> StatusResult {
        state.withLock { locked in
            let state = locked.machine
            // An ambient sensor's value only while it is read: asleep, it may be stale.
            let lightReading = state.light.available && (lightDemand?.isReading ?? false)
            let proximityReading = state.proximity.available && (proximityDemand?.isReading ?? false)
            return StatusResult(
                server: serverName, uptime: (Double((NIODeadline.now() - startedAt).nanoseconds) / 1e8).rounded() / 10,
                orientation: state.orientation, tilt: state.tilt, locked: state.lock.locked, clients: clients,
                subscribers: locked.subscriptions.count,
                sensor: (state.sensor ?? .noSensor).reading(state.sensorAvailable && (demand?.isReading ?? true)),
                devices: state.devices.map { $0.reading($0.available && (demand?.isReading ?? true)) },
                light: LightSensorStatus(available: state.light.available, device: state.light.device ?? "none",
                                         reading: lightReading, light: lightReading ? state.light.value : nil),
                proximity: ProximitySensorStatus(available: state.proximity.available, device: state.proximity.device ?? "none",
                                                 reading: proximityReading,
                                                 proximityState: proximityReading ? state.proximity.value?.near : nil),
                sensorProxy: state.sensorProxy)
        }
    }
}

/// The hub's subscriptions, grouped by the event loop each is confined to: a subscription is
/// bound to its loop (`NIOLoopBound` checks every use of it happens there), and what it asked for
/// is kept beside it, for the hub's questions from any thread.
struct SubscriptionsByLoop {
    struct Entry: Sendable {
        let subscription: NIOLoopBound<Subscription>
        let parameters: SubscribeParameters
    }

    private(set) var byLoop: [ObjectIdentifier: (any EventLoop, [ObjectIdentifier: Entry])] = [:]
    private(set) var count = 0

    /// Called on the subscription's event loop.
    mutating func insert(_ subscription: Subscription) {
        let loop = ObjectIdentifier(subscription.eventLoop)
        if byLoop[loop] == nil { byLoop[loop] = (subscription.eventLoop, [:]) }
        let entry = Entry(subscription: NIOLoopBound(subscription, eventLoop: subscription.eventLoop), parameters: subscription.parameters)
        if byLoop[loop]!.1.updateValue(entry, forKey: ObjectIdentifier(subscription)) == nil { count += 1 }
    }

    /// Whether it was there.
    mutating func remove(_ subscription: Subscription) -> Bool {
        let loop = ObjectIdentifier(subscription.eventLoop)
        guard byLoop[loop]?.1.removeValue(forKey: ObjectIdentifier(subscription)) != nil else { return false }
        count -= 1
        return true
    }
}
