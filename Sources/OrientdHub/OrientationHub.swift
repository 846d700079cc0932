import Glibc
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import OrientationCore
import OrientdProtocol

/// The one place that knows the current orientation, the rotation lock and who wants to hear of
/// changes. `publish…` and the freshness calls come from the sensor thread; everything else from
/// the connections' event loops. Nothing here waits for a client.
public final class OrientationHub: Sendable {
    private struct State {
        var orientation: Orientation = .unknown
        /// The orientation before the last change.
        var previous: Orientation = .unknown
        var sequence = 0
        var timestamp = WallClock.now()
        /// The last in-plane device orientation: what drives interfaces while unlocked.
        var lastInPlane: Orientation?
        var lock = RotationLock.unlocked
        /// Grouped by event loop, so that an update is one task per loop rather than one per
        /// subscription: with thousands of subscribers the loops' task queues, not the sockets,
        /// would otherwise be the bottleneck.
        var subscriptions = SubscriptionsByLoop()
        var angleSubscriptions = SubscriptionsByLoop()
        /// True while the sensor sleeps: the orientation may be stale, so requests wait for a reading.
        var paused = false
        /// When the sensor was last read (on the hub's clock): a reading older than `staleAfter`
        /// is not trusted either (the daemon was stopped, the machine suspended, a read hung).
        var lastReading: NIODeadline?
        /// How old a reading may be and still answer a request.
        var staleAfter: TimeAmount
        var freshnessWaiters: [Int: @Sendable (Int) -> Void] = [:]
        var nextWaiter = 0
        /// The sensor open now, or the last one (`available` false once lost); nil before any.
        var sensor: SensorStatus?
        var sensorAvailable: Bool { sensor?.available ?? false }
        var sensorChangedAt = WallClock.now()
        /// Every accelerometer opened with the sensor, for `status`.
        var devices: [SensorStatus] = []
        var hinge = TabletModeDetector.State(problem: HubUpdate.noHingeYet)
        var hingeChangedAt = WallClock.now()
        var light = AmbientSensor<AmbientLight>(timestamp: WallClock.now())
        var proximity = AmbientSensor<Proximity>(timestamp: WallClock.now())
        var compass = CompassState()
        /// Views other than the socket (the D-Bus face), told the facts after every change.
        var observers: [@Sendable (HubFacts) -> Void] = []
        /// How many hold each sensor (subscriptions, D-Bus claims).
        var holds: [HubSensor: Int] = [:]
        /// The ambient sensors whose value is fresh: reported since they were last woken.
        var ambientFresh: Set<HubSensor> = []
        /// Whoever waits for an ambient sensor's next reading.
        var ambientWaiters: [HubSensor: [@Sendable () -> Void]] = [:]

        var facts: HubFacts {
            var facts = HubFacts()
            facts.accelerometerAvailable = sensorAvailable
            facts.orientation = orientation
            (facts.lightAvailable, facts.light) = (light.available, light.value)
            (facts.proximityAvailable, facts.proximityNear) = (proximity.available, proximity.value?.near)
            (facts.compassAvailable, facts.compassHeading) = (compass.device != nil, compass.heading)
            return facts
        }

        /// Tells the observers the facts; under the hub's lock, so they hear of changes in order.
        func notifyObservers() {
            guard !observers.isEmpty else { return }
            let facts = self.facts
            for observer in observers { observer(facts) }
        }

        /// An ambient sensor was read (or is gone): its waiters, taken, are to be told.
        mutating func ambientRead(_ sensor: HubSensor) -> [@Sendable () -> Void] {
            ambientFresh.insert(sensor)
            return ambientWaiters.removeValue(forKey: sensor) ?? []
        }

        /// Whoever waits for a fresh reading, taken: each is to be told (a reading came, or none will).
        mutating func takeFreshnessWaiters() -> [Int: @Sendable (Int) -> Void] {
            defer { freshnessWaiters = [:] }
            return freshnessWaiters
        }

        func isFresh(at now: NIODeadline) -> Bool {
            guard sensorAvailable else { return true }
            guard !paused, let lastReading else { return false }
            return now - lastReading <= staleAfter
        }

        /// Records a change of the orientation (none if it is the one held).
        mutating func change(to newOrientation: Orientation, at time: Double) {
            guard newOrientation != orientation else { return }
            previous = orientation
            orientation = newOrientation
            sequence += 1
            timestamp = time
            if newOrientation.inPlaneAngle != nil { lastInPlane = newOrientation }
        }

        /// Hands the current state to every subscription. Called under the hub's lock, so each
        /// subscription's event loop receives updates in the order they happened (delivery only
        /// queues a task there).
        mutating func deliverUpdate() {
            notifyObservers()
            update = makeUpdate()
            let update = self.update
            for (eventLoop, onThatLoop) in subscriptions.byLoop.values {
                eventLoop.execute {
                    for subscription in onThatLoop.values { subscription.receive(update) }
                }
            }
        }

        /// The state as subscriptions see it, remade on every change rather than for every
        /// subscription: its events are encoded once, however many subscribers there are.
        lazy var update = makeUpdate()

        /// Remakes `update` after a change no subscriber needs to hear of.
        mutating func refreshUpdate() { update = makeUpdate() }

        private func makeUpdate() -> HubUpdate {
            HubUpdate(orientation: orientation, previous: previous, sequence: sequence, timestamp: timestamp,
                      driving: lock.locked ? lock.orientation : lastInPlane, locked: lock.locked,
                      sensorAvailability: SensorAvailabilityEvent(
                        available: sensorAvailable, device: sensorAvailable ? sensor?.device : nil,
                        reason: sensorAvailable ? nil : sensor?.problem, timestamp: sensorChangedAt),
                      hinge: hinge, hingeChangedAt: hingeChangedAt, light: light, proximity: proximity)
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
    private let state: NIOLockedValueBox<State>
    /// What the state file holds (nil: unknown, e.g. it was corrupt); held while saving, on the
    /// thread pool, never on an event loop.
    private let savedLock: NIOLockedValueBox<RotationLock?>

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
        var initial = State(staleAfter: Self.timeAmount(seconds: staleAfter))
        var saved: RotationLock?
        if let lockStore {
            saved = lockStore.load(logger: logger)
            initial.lock = saved ?? .unlocked
            if initial.lock.locked {
                logger.info("the rotation lock is on (from \(lockStore.path)), in \(initial.lock.orientation?.rawValue ?? "no known orientation")")
            }
        }
        state = NIOLockedValueBox(initial)
        savedLock = NIOLockedValueBox(saved)
    }

    public var orientation: Orientation { state.withLockedValue { $0.orientation } }

    /// The ids of the accelerometers this hub's sensor was opened with, the one it follows first.
    public var deviceIDs: [String] { state.withLockedValue { $0.devices.compactMap(\.id) } }

    /// The id of the accelerometer whose orientation this hub holds.
    public var sensorID: String? { state.withLockedValue { $0.sensor?.id } }

    // MARK: From the sensor

    /// Records a change and hands it to every subscriber. A change to the orientation already
    /// held (the first reading after the sensor slept) is no change.
    public func publish(_ orientation: Orientation, at timestamp: Double = WallClock.now()) {
        state.withLockedValue { state in
            guard orientation != state.orientation else { return }
            state.change(to: orientation, at: timestamp)
            state.deliverUpdate()
        }
    }

    /// Whether any client wants angle samples (so the pipeline can skip making them).
    public var wantsAngles: Bool { state.withLockedValue { $0.angleSubscriptions.count > 0 } }

    /// One sample's angles; `time` is the sample's monotonic time (which paces each client's rate),
    /// `timestamp` the wall-clock time clients are told.
    /// `raw`: the sample in the sensor's axes, before the mount matrix, where known.
    public func publishAngles(_ angles: OrientationAngles, acceleration: Vector3, raw: Vector3? = nil, time: Double, timestamp: Double) {
        let byLoop = state.withLockedValue { $0.angleSubscriptions.byLoop.values }
        guard !byLoop.isEmpty else { return }
        // Encoded once for all, and one task per event loop, as for orientation changes.
        let sample = AngleSample(angles: angles, acceleration: acceleration, raw: raw, time: time, timestamp: timestamp)
        for (eventLoop, onThatLoop) in byLoop {
            eventLoop.execute {
                for subscription in onThatLoop.values { subscription.receive(sample) }
            }
        }
    }

    /// How old (seconds) a reading may be for a request to be answered at once, from now on (the
    /// classifier's settings were reloaded).
    public func setStaleAfter(_ seconds: Double) {
        state.withLockedValue { $0.staleAfter = Self.timeAmount(seconds: seconds) }
    }

    private static func timeAmount(seconds: Double) -> TimeAmount {
        .nanoseconds(Int64(min(seconds, 1e9) * 1e9))
    }

    /// The sensor went to sleep: what the hub holds may go stale.
    public func sensorPaused() {
        state.withLockedValue { $0.paused = true }
    }

    /// The sensor was read and the orientation decided from that reading (published first, if it
    /// changed): answer whoever waited for a fresh one.
    public func sensorRead(at time: NIODeadline = .now()) {
        let waiters = state.withLockedValue { state in
            state.paused = false
            state.lastReading = time
            return state.takeFreshnessWaiters()
        }
        for (ticket, waiter) in waiters { waiter(ticket) }
    }

    /// The hinge angle or tablet mode of a convertible changed: subscribers hear of it.
    public func hingeChanged(_ hinge: TabletModeDetector.State) {
        state.withLockedValue { state in
            guard hinge != state.hinge else { return }
            state.hinge = hinge
            state.hingeChangedAt = WallClock.now()
            state.deliverUpdate()
        }
    }

    /// A sensor was opened (at start, or after one was lost), with `devices`, every accelerometer
    /// opened with it (itself first): subscribers hear of it.
    public func sensorOpened(_ sensor: SensorStatus, devices: [SensorStatus]) {
        state.withLockedValue { state in
            let wasAvailable = state.sensorAvailable
            state.sensor = sensor
            state.devices = devices
            guard !wasAvailable else { return }
            state.sensorChangedAt = WallClock.now()
            state.deliverUpdate()
        }
    }

    /// The sensor is gone (removed, failing, or none yet): subscribers hear why, and the
    /// orientation is unknown until a sensor is read again.
    public func sensorLost(reason: String) {
        let waiters = state.withLockedValue { state in
            state.sensor = (state.sensor ?? .noSensor).unavailable(because: reason)
            state.devices = state.devices.map { $0.unavailable(because: reason) }
            let now = WallClock.now()
            state.sensorChangedAt = now
            state.change(to: .unknown, at: now)
            state.deliverUpdate()
            return state.takeFreshnessWaiters()
        }
        // Nobody should wait for a reading that will not come.
        for (ticket, waiter) in waiters { waiter(ticket) }
    }

    // MARK: From the ambient sensors

    /// The ambient light sensor opened now (`device`: its name, for `status` and subscribers),
    /// or nil: there is none (not found, removed, or failing). Subscribers hear of a change.
    public func lightSensorChanged(device: String?) {
        let waiters = state.withLockedValue { state in
            guard state.light.deviceChanged(to: device, at: WallClock.now()) else { return [@Sendable () -> Void]() }
            state.deliverUpdate()
            // Gone: nobody should wait for a reading that will not come.
            return device == nil ? state.ambientRead(.light) : []
        }
        for waiter in waiters { waiter() }
    }

    /// The light sensor read `level`: subscribers hear of a new one. Ignored while no light
    /// sensor is known (`lightSensorChanged(device:)` comes first) and when not a finite number.
    public func publishLight(level: Double, unit: LightUnit) {
        guard level.isFinite else { return }
        // Hundredths: finer is noise, and never -0.
        let light = AmbientLight(level: (level * 100).rounded() / 100 + 0, unit: unit)
        let waiters = state.withLockedValue { state in
            if state.light.read(light, at: WallClock.now()) { state.deliverUpdate() }
            return state.ambientRead(.light)
        }
        for waiter in waiters { waiter() }
    }

    /// The proximity sensor opened now, or nil: there is none. Subscribers hear of a change.
    public func proximitySensorChanged(device: String?) {
        let waiters = state.withLockedValue { state in
            guard state.proximity.deviceChanged(to: device, at: WallClock.now()) else { return [@Sendable () -> Void]() }
            state.deliverUpdate()
            return device == nil ? state.ambientRead(.proximity) : []
        }
        for waiter in waiters { waiter() }
    }

    /// The proximity sensor read `near` (something is close: `UIDevice.proximityState`):
    /// subscribers hear of a change. Ignored while no proximity sensor is known.
    public func publishProximity(near: Bool) {
        let waiters = state.withLockedValue { state in
            if state.proximity.read(Proximity(near: near), at: WallClock.now()) { state.deliverUpdate() }
            return state.ambientRead(.proximity)
        }
        for waiter in waiters { waiter() }
    }

    /// The compass opened now (`device`), or nil: there is none. Its observers hear of a change
    /// (the socket protocol has no compass).
    public func compassSensorChanged(device: String?) {
        let waiters = state.withLockedValue { state in
            guard state.compass.device != device else { return [@Sendable () -> Void]() }
            state.compass = CompassState(device: device, heading: nil)
            state.notifyObservers()
            return device == nil ? state.ambientRead(.compass) : []
        }
        for waiter in waiters { waiter() }
    }

    /// The compass read `heading` (degrees clockwise from magnetic north). Ignored while no
    /// compass is known, and when not a finite number.
    public func publishCompass(heading: Double) {
        guard heading.isFinite else { return }
        let waiters = state.withLockedValue { state in
            guard state.compass.device != nil else { return [@Sendable () -> Void]() }
            if state.compass.heading != heading {
                state.compass.heading = heading
                state.notifyObservers()
            }
            return state.ambientRead(.compass)
        }
        for waiter in waiters { waiter() }
    }

    // MARK: Views other than the socket

    /// Tells `observer` the facts now and after every change, in order, from the thread that
    /// made the change (under the hub's lock: it must only hand them on).
    public func observe(_ observer: @escaping @Sendable (HubFacts) -> Void) {
        state.withLockedValue { state in
            state.observers.append(observer)
            observer(state.facts)
        }
    }

    /// Someone needs `sensor` read until `release`: a D-Bus claim, as a subscription holds it.
    public func hold(_ sensor: HubSensor) {
        let demand = demand(for: sensor)
        state.withLockedValue { state in
            state.holds[sensor, default: 0] += 1
            // Woken from sleep: what it holds may be stale until its next reading.
            if state.holds[sensor] == 1, demand?.isReading != true { state.ambientFresh.remove(sensor) }
        }
        demand?.hold()
    }

    public func release(_ sensor: HubSensor) {
        state.withLockedValue { state in state.holds[sensor] = max(0, state.holds[sensor, default: 0] - 1) }
        demand(for: sensor)?.release()
    }

    /// Calls `then` once `sensor`'s value is fresh: at once (on this thread) when it is (read
    /// recently for someone, or no such sensor: no reading is coming), else from the sensor's
    /// thread after its next reading. The wait every client's claim, `get` and `subscribe` share.
    public func whenFresh(_ sensor: HubSensor, now: NIODeadline = .now(), then: @escaping @Sendable () -> Void) {
        if sensor == .accelerometer {
            if waitForFreshness(now: now, { _ in then() }) == nil { then() }
            return
        }
        let freshNow = state.withLockedValue { state in
            let available = switch sensor {
            case .light: state.light.available
            case .proximity: state.proximity.available
            case .compass: state.compass.device != nil
            case .accelerometer: state.sensorAvailable
            }
            guard available, !state.ambientFresh.contains(sensor) else { return true }
            state.ambientWaiters[sensor, default: []].append(then)
            return false
        }
        if freshNow { then() }
    }

    private func demand(for sensor: HubSensor) -> (any SensorDemand)? {
        switch sensor {
        case .accelerometer: demand
        case .light: lightDemand
        case .proximity: proximityDemand
        case .compass: compassDemand
        }
    }

    /// The last light level read, while the light sensor is being read (nil otherwise: it may be stale).
    public var ambientLight: AmbientLight? {
        guard lightDemand?.isReading == true else { return nil }
        return state.withLockedValue { $0.light.value }
    }

    /// Whether something is near the proximity sensor, while it is being read (nil otherwise).
    public var proximityNear: Bool? {
        guard proximityDemand?.isReading == true else { return nil }
        return state.withLockedValue { $0.proximity.value?.near }
    }

    // MARK: From the connections

    /// Nil when the orientation is fresh at `now`: decided from a reading less than `staleAfter`
    /// old, or unknown for want of a sensor (no reading is coming). Otherwise `whenFresh` is
    /// called with the returned ticket once it is (after the sensor has woken and read), and the
    /// ticket lets a waiter that gives up withdraw. Either way the sensor is kept awake a few
    /// seconds, as after a `get`.
    func waitForFreshness(now: NIODeadline, _ whenFresh: @escaping @Sendable (Int) -> Void) -> Int? {
        let ticket: Int? = state.withLockedValue { state in
            guard !state.isFresh(at: now) else { return nil }
            state.nextWaiter += 1
            state.freshnessWaiters[state.nextWaiter] = whenFresh
            return state.nextWaiter
        }
        demand?.request()
        return ticket
    }

    func stopWaiting(_ ticket: Int) {
        _ = state.withLockedValue { $0.freshnessWaiters.removeValue(forKey: ticket) }
    }

    /// Makes a subscription from the current state and adds it, under the same lock as `publish`,
    /// so a change is either in the state it starts from or delivered to it. An ambient sensor
    /// asleep may hold a stale value: a subscription that wakes it starts from none, and hears of
    /// the first reading.
    func add(_ parameters: SubscribeParameters, _ make: (HubUpdate) -> Subscription) -> (Subscription, start: HubUpdate) {
        let lightAsleep = parameters.needs(.light) && lightDemand?.isReading != true
        let proximityAsleep = parameters.needs(.proximity) && proximityDemand?.isReading != true
        let (subscription, start) = state.withLockedValue { state in
            if lightAsleep { state.light.forget() }
            if proximityAsleep { state.proximity.forget() }
            if lightAsleep || proximityAsleep { state.refreshUpdate() }
            let start = state.update
            let subscription = make(start)
            state.subscriptions.insert(subscription)
            if subscription.parameters.events.contains(.angles) { state.angleSubscriptions.insert(subscription) }
            return (subscription, start)
        }
        if parameters.needsSensor { demand?.hold() }
        if parameters.needs(.light) { hold(.light) }
        if parameters.needs(.proximity) { hold(.proximity) }
        return (subscription, start)
    }

    func remove(_ subscription: Subscription) {
        let removed = state.withLockedValue { state in
            _ = state.angleSubscriptions.remove(subscription)
            return state.subscriptions.remove(subscription)
        }
        guard removed else { return }
        let parameters = subscription.parameters
        if parameters.needsSensor { demand?.release() }
        if parameters.needs(.light) { release(.light) }
        if parameters.needs(.proximity) { release(.proximity) }
    }

    /// How many subscriptions need `sensor` read: what its demand should be held for.
    func subscriptionCount(needing sensor: SensorKind) -> Int {
        state.withLockedValue { state in
            state.subscriptions.byLoop.values.reduce(0) { count, loop in
                count + loop.1.values.filter { $0.parameters.needs(sensor) }.count
            }
        }
    }

    /// Locks or unlocks the interface orientation for everyone at once, and saves the lock off
    /// the event loop (a save syncs the disk). The future, on `eventLoop`, says whether the saved
    /// lock is the one in force; the lock holds either way.
    func setLock(_ locked: Bool, on eventLoop: any EventLoop) -> EventLoopFuture<Bool> {
        let changed: RotationLock? = state.withLockedValue { state in
            guard state.lock.locked != locked else { return nil }
            state.lock = locked ? RotationLock(locked: true, orientation: state.lastInPlane) : .unlocked
            state.timestamp = WallClock.now()
            state.deliverUpdate()
            return state.lock
        }
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
        return savedLock.withLockedValue { saved in
            // Read after taking the save's turn: the latest lock, whichever request asked for it.
            let current = state.withLockedValue { $0.lock }
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
        state.withLockedValue { state in
            // An ambient sensor's value only while it is read: asleep, it may be stale.
            let lightReading = state.light.available && (lightDemand?.isReading ?? false)
            let proximityReading = state.proximity.available && (proximityDemand?.isReading ?? false)
            return StatusResult(
                server: serverName, uptime: (Double((NIODeadline.now() - startedAt).nanoseconds) / 1e8).rounded() / 10,
                orientation: state.orientation, locked: state.lock.locked, clients: clients,
                subscribers: state.subscriptions.count,
                sensor: (state.sensor ?? .noSensor).reading(state.sensorAvailable && (demand?.isReading ?? true)),
                devices: state.devices.map { $0.reading($0.available && (demand?.isReading ?? true)) },
                light: LightSensorStatus(available: state.light.available, device: state.light.device ?? "none",
                                         reading: lightReading, light: lightReading ? state.light.value : nil),
                proximity: ProximitySensorStatus(available: state.proximity.available, device: state.proximity.device ?? "none",
                                                 reading: proximityReading,
                                                 proximityState: proximityReading ? state.proximity.value?.near : nil))
        }
    }
}

/// The hub's state as a subscription needs it.
struct HubUpdate: Sendable {
    let orientation: Orientation
    /// The orientation before the last change.
    let previous: Orientation
    /// Counts the orientation changes since orientd started.
    let sequence: Int
    /// When the orientation (or the lock) last changed, in seconds since the Unix epoch.
    let timestamp: Double
    /// The device orientation interfaces follow: the last in-plane one, or while locked the one locked in.
    let driving: Orientation?
    let locked: Bool
    /// The `deviceOrientationDidChange` line for a subscriber last told of `previous` (nearly all of
    /// them), and the `rotationLockDidChange` line, encoded once and shared by every subscription.
    let deviceOrientationLine: ByteBuffer
    let rotationLockLine: ByteBuffer
    let sensorAvailable: Bool
    let sensorAvailabilityLine: ByteBuffer
    let hinge: TabletModeDetector.State
    let hingeAngleLine: ByteBuffer
    let tabletModeLine: ByteBuffer?
    let light: AmbientSensor<AmbientLight>
    let proximity: AmbientSensor<Proximity>

    /// What the hinge state says before the sensors were opened.
    static let noHingeYet = "no accelerometers opened yet"

    init(orientation: Orientation, previous: Orientation, sequence: Int, timestamp: Double, driving: Orientation?, locked: Bool,
         sensorAvailability: SensorAvailabilityEvent, hinge: TabletModeDetector.State, hingeChangedAt: Double,
         light: AmbientSensor<AmbientLight>, proximity: AmbientSensor<Proximity>) {
        self.hinge = hinge
        self.light = light
        self.proximity = proximity
        hingeAngleLine = ByteBuffer(bytes: Wire.line(HingeAngleDidChangeEvent(
            hingeAngle: hinge.angle, problem: hinge.problem, timestamp: hingeChangedAt)))
        tabletModeLine = hinge.tabletMode.map { ByteBuffer(bytes: Wire.line(TabletModeDidChangeEvent(
            tabletMode: $0, hingeAngle: hinge.angle, timestamp: hingeChangedAt))) }
        sensorAvailable = sensorAvailability.available
        sensorAvailabilityLine = ByteBuffer(bytes: Wire.line(sensorAvailability))
        self.orientation = orientation
        self.previous = previous
        self.sequence = sequence
        self.timestamp = timestamp
        self.driving = driving
        self.locked = locked
        deviceOrientationLine = ByteBuffer(bytes: Wire.line(DeviceOrientationDidChangeEvent(
            orientation: orientation, previous: previous, timestamp: timestamp, sequence: sequence)))
        rotationLockLine = ByteBuffer(bytes: Wire.line(RotationLockDidChangeEvent(locked: locked, timestamp: timestamp)))
    }

    /// The `deviceOrientationDidChange` line for a subscriber last told of `told`.
    func deviceOrientationLine(toldOf told: Orientation) -> ByteBuffer {
        guard told != previous else { return deviceOrientationLine }
        return ByteBuffer(bytes: Wire.line(DeviceOrientationDidChangeEvent(
            orientation: orientation, previous: told, timestamp: timestamp, sequence: sequence)))
    }
}

/// The hub's subscriptions, grouped by the event loop each is confined to.
struct SubscriptionsByLoop {
    private(set) var byLoop: [ObjectIdentifier: (any EventLoop, [ObjectIdentifier: Subscription])] = [:]
    private(set) var count = 0

    mutating func insert(_ subscription: Subscription) {
        let loop = ObjectIdentifier(subscription.eventLoop)
        if byLoop[loop] == nil { byLoop[loop] = (subscription.eventLoop, [:]) }
        if byLoop[loop]!.1.updateValue(subscription, forKey: ObjectIdentifier(subscription)) == nil { count += 1 }
    }

    /// Whether it was there.
    mutating func remove(_ subscription: Subscription) -> Bool {
        let loop = ObjectIdentifier(subscription.eventLoop)
        guard byLoop[loop]?.1.removeValue(forKey: ObjectIdentifier(subscription)) != nil else { return false }
        count -= 1
        return true
    }
}

/// One angle sample as the hub hands it out.
struct AngleSample: Sendable {
    let angles: OrientationAngles
    let acceleration: Vector3
    let raw: Vector3?
    /// Monotonic seconds.
    let time: Double
    /// Seconds since the Unix epoch.
    let timestamp: Double
    /// The `angles` line for a subscriber that missed none, encoded once for every subscriber.
    let line: ByteBuffer

    init(angles: OrientationAngles, acceleration: Vector3, raw: Vector3?, time: Double, timestamp: Double) {
        self.angles = angles
        self.acceleration = acceleration
        self.raw = raw
        self.time = time
        self.timestamp = timestamp
        line = ByteBuffer(bytes: Wire.line(AnglesEvent(angles: angles, acceleration: acceleration, raw: raw, timestamp: timestamp, dropped: 0)))
    }

    /// The line for a subscriber that missed `dropped` samples before this one.
    func line(dropped: Int) -> ByteBuffer {
        guard dropped > 0 else { return line }
        return ByteBuffer(bytes: Wire.line(AnglesEvent(angles: angles, acceleration: acceleration, raw: raw, timestamp: timestamp, dropped: dropped)))
    }
}

extension SensorStatus {
    /// Before any sensor was seen.
    static let noSensor = SensorStatus(uri: "", device: "none", location: .display, mountMatrix: .identity,
                                   mountMatrixSource: "", rate: 0, reading: false, available: false)

    func reading(_ reading: Bool) -> SensorStatus {
        var copy = self
        copy.reading = reading
        return copy
    }

    func unavailable(because problem: String) -> SensorStatus {
        var copy = self
        copy.available = false
        copy.problem = problem
        return copy
    }
}
