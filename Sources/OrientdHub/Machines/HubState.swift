import NIOCore
import OrientationCore
import OrientdProtocol

/// Everything a hub knows and decides, as a pure state machine: every published fact (the
/// orientation, the tilt, the interface orientation's driver, the rotation lock, the hinge and tablet
/// mode, availability, light, proximity, the compass) and every wait for a fresh reading. Each
/// event is a method; what it returns is what the hub must do. No lock, no I/O, no clock: the
/// times come with the events. `OrientationHub` keeps it under its lock and does the actions.
struct HubState {
    enum Action {
        /// Hand this update to every subscription (the socket's view).
        case deliver(HubUpdate)
        /// Tell the observers (the D-Bus face) these facts.
        case tell(HubFacts)
        /// These waiters' sensor is fresh, or no reading is coming: answer them.
        case answer([Int])
    }

    private(set) var orientation: Orientation = .unknown
    /// The orientation before the last change.
    private var previous: Orientation = .unknown
    private var sequence = 0
    private var timestamp: Double
    /// The last in-plane device orientation: what drives interfaces while unlocked.
    private(set) var lastInPlane: Orientation?
    private(set) var lock: RotationLock
    /// True while the sensor sleeps: the orientation may be stale, so requests wait for a reading.
    private var paused = false
    /// When the sensor was last read (on the hub's clock): a reading older than `staleAfter`
    /// is not trusted either (the daemon was stopped, the machine suspended, a read hung).
    private var lastReading: NIODeadline?
    /// How old a reading may be and still answer a request.
    var staleAfter: TimeAmount
    /// The sensor open now, or the last one (`available` false once lost); nil before any.
    /// The D-Bus face's own account of itself (served, the name's owner, the claims), for
    /// `status`; nil without one.
    var sensorProxy: SensorProxyStatus?
    private(set) var sensor: SensorStatus?
    var sensorAvailable: Bool { sensor?.available ?? false }
    private var sensorChangedAt: Double
    /// Every accelerometer opened with the sensor, for `status`.
    private(set) var devices: [SensorStatus] = []
    private(set) var tilt = DeviceTilt.unknown
    private var tiltChangedAt: Double
    private var hinge = TabletModeDetector.State(problem: HubUpdate.noHingeYet)
    private var hingeChangedAt: Double
    private(set) var light: AmbientSensor<AmbientLight>
    private(set) var proximity: AmbientSensor<Proximity>
    private var compass = CompassState()
    /// How many hold each sensor (subscriptions, D-Bus claims).
    private var holds: [HubSensor: Int] = [:]
    /// The ambient sensors whose value is fresh: reported since they were last woken.
    private var ambientFresh: Set<HubSensor> = []
    /// Who waits for each sensor's next reading.
    private var waiters: [HubSensor: [Int]] = [:]
    /// The state as subscriptions see it, remade on every change rather than for every
    /// subscription: its events are encoded once, however many subscribers there are.
    private(set) var update: HubUpdate

    init(staleAfter: TimeAmount, lock: RotationLock, at time: Double) {
        self.staleAfter = staleAfter
        self.lock = lock
        (timestamp, sensorChangedAt, hingeChangedAt, tiltChangedAt) = (time, time, time, time)
        light = AmbientSensor(timestamp: time)
        proximity = AmbientSensor(timestamp: time)
        update = HubUpdate(orientation: .unknown, previous: .unknown, sequence: 0, timestamp: time,
                           driving: lock.locked ? lock.orientation : nil, locked: lock.locked,
                           sensorAvailability: SensorAvailabilityEvent(available: false, device: nil, reason: nil, timestamp: time),
                           tilt: tilt, tiltChangedAt: time,
                           hinge: hinge, hingeChangedAt: time, light: light, proximity: proximity)
        update = makeUpdate()
    }

    var facts: HubFacts {
        var facts = HubFacts()
        facts.accelerometerAvailable = sensorAvailable
        facts.orientation = orientation
        facts.tilt = tilt
        (facts.lightAvailable, facts.light) = (light.available, light.value)
        (facts.proximityAvailable, facts.proximityNear) = (proximity.available, proximity.value?.near)
        (facts.compassAvailable, facts.compassHeading) = (compass.device != nil, compass.heading)
        return facts
    }

    // MARK: From the sensors

    /// A change of the orientation (none if it is the one held: the first reading after the
    /// sensor slept).
    mutating func orientationDecided(_ newOrientation: Orientation, at time: Double) -> [Action] {
        guard newOrientation != orientation else { return [] }
        change(to: newOrientation, at: time)
        return changed()
    }

    /// The sensor was read and the orientation decided from that reading: whoever waited for a
    /// fresh one is answered.
    mutating func sensorRead(at time: NIODeadline) -> [Action] {
        paused = false
        lastReading = time
        return answering(.accelerometer)
    }

    /// The sensor went to sleep: what the hub holds may go stale.
    mutating func sensorPaused() { paused = true }

    /// A sensor was opened, with `devices`, every accelerometer opened with it (itself first).
    mutating func sensorOpened(_ opened: SensorStatus, devices: [SensorStatus], at time: Double) -> [Action] {
        let wasAvailable = sensorAvailable
        sensor = opened
        self.devices = devices
        guard !wasAvailable else { return [] }
        sensorChangedAt = time
        return changed()
    }

    /// The sensor is gone (removed, failing, or none yet): the orientation is unknown until a
    /// sensor is read again, and nobody should wait for a reading that will not come.
    /// The sensor has not answered yet (a board slow to connect): the same as lost, unless it
    /// has opened in the meantime.
    mutating func sensorNotOpenedYet(reason: String, at time: Double) -> [Action] {
        guard sensor == nil else { return [] }
        return sensorLost(reason: reason, at: time)
    }

    mutating func sensorLost(reason: String, at time: Double) -> [Action] {
        sensor = (sensor ?? .noSensor).unavailable(because: reason)
        devices = devices.map { $0.unavailable(because: reason) }
        sensorChangedAt = time
        change(to: .unknown, at: time)
        if tilt != .unknown { (tilt, tiltChangedAt) = (.unknown, time) }
        return changed() + answering(.accelerometer)
    }

    /// The display's tilt step changed (unknown when the orientation went unknown).
    mutating func tiltDecided(_ newTilt: DeviceTilt, at time: Double) -> [Action] {
        guard newTilt != tilt else { return [] }
        tilt = newTilt
        tiltChangedAt = time
        return changed()
    }

    /// The display accelerometer reads far from 1 g at rest: `status` says so.
    mutating func sensorScaleWrong(_ problem: String) {
        sensor?.scaleProblem = problem
        if !devices.isEmpty { devices[0].scaleProblem = problem }
    }

    /// How the still display accelerometer is watched: `status` says so.
    mutating func sensorStillWatch(_ watch: StillDeviceWatch) {
        sensor?.stillWatch = watch
        if !devices.isEmpty { devices[0].stillWatch = watch }
    }

    mutating func hingeChanged(_ newHinge: TabletModeDetector.State, at time: Double) -> [Action] {
        guard newHinge != hinge else { return [] }
        hinge = newHinge
        hingeChangedAt = time
        return changed()
    }

    /// An ambient sensor opened now (`device`), another replaced it, or it went (nil); its value
    /// is unknown until read. Gone, nobody should wait for its reading.
    mutating func ambientSensorChanged(_ kind: HubSensor, device: String?, at time: Double) -> [Action] {
        let news: Bool
        switch kind {
        case .light: news = light.deviceChanged(to: device, at: time)
        case .proximity: news = proximity.deviceChanged(to: device, at: time)
        case .compass:
            news = compass.device != device
            if news { compass = CompassState(device: device, heading: nil) }
        case .accelerometer:
            preconditionFailure("the accelerometer comes with sensorOpened and goes with sensorLost")
        }
        guard news else { return [] }
        // A sensor that came is not fresh until its first reading; one that went has no reading to wait for.
        if device != nil { ambientFresh.remove(kind) }
        return (kind == .compass ? [.tell(facts)] : changed()) + (device == nil ? answering(kind) : [])
    }

    /// The light sensor read `value` (changed or not: a waiter is answered either way). News
    /// when it changed, or when it is the first reading since the sensor woke (a subscriber that
    /// woke it waits for it).
    mutating func lightRead(_ value: AmbientLight, at time: Double) -> [Action] {
        let firstSinceWoken = ambientFresh.insert(.light).inserted
        let changedValue = light.read(value, at: time)
        return (changedValue || (firstSinceWoken && light.available) ? changed() : []) + answering(.light)
    }

    mutating func proximityRead(near: Bool, at time: Double) -> [Action] {
        let firstSinceWoken = ambientFresh.insert(.proximity).inserted
        let changedValue = proximity.read(Proximity(near: near), at: time)
        return (changedValue || (firstSinceWoken && proximity.available) ? changed() : []) + answering(.proximity)
    }

    /// The compass read `heading`; ignored while no compass is known.
    mutating func compassRead(heading: Double) -> [Action] {
        guard compass.device != nil else { return [] }
        var actions: [Action] = []
        if compass.heading != heading {
            compass.heading = heading
            actions.append(.tell(facts))
        }
        return actions + answering(.compass)
    }

    // MARK: From the clients

    /// Locks or unlocks the interface orientation for everyone at once. Returns the lock now in
    /// force when it changed.
    mutating func setLock(_ locked: Bool, at time: Double) -> (RotationLock?, [Action]) {
        guard lock.locked != locked else { return (nil, []) }
        lock = locked ? RotationLock(locked: true, orientation: lastInPlane) : .unlocked
        timestamp = time
        return (lock, changed())
    }

    /// Someone holds `kind` (a subscription, a D-Bus claim). `asleep`: its reader sleeps, so
    /// what the hub holds of it may be stale until its next reading.
    mutating func hold(_ kind: HubSensor, asleep: Bool) {
        holds[kind, default: 0] += 1
        if holds[kind] == 1, asleep { ambientFresh.remove(kind) }
    }

    mutating func release(_ kind: HubSensor) {
        holds[kind] = max(0, holds[kind, default: 0] - 1)
    }

    /// `waiter` wants `kind` fresh: answered at once when it is (read recently; or no such
    /// sensor, so no reading is coming), else after its next reading.
    mutating func awaitFresh(_ kind: HubSensor, waiter: Int, now: NIODeadline) -> [Action] {
        guard !isFresh(kind, at: now) else { return [.answer([waiter])] }
        waiters[kind, default: []].append(waiter)
        return []
    }

    /// `waiter` gave up (its client left).
    mutating func stopWaiting(_ waiter: Int) {
        for kind in waiters.keys { waiters[kind]?.removeAll { $0 == waiter } }
    }

    /// The state a new subscription starts from. An ambient sensor in `asleep` may hold a stale
    /// value: the subscription starts from none, and hears of the first reading (`hold` makes
    /// the sensor stale, and its first reading after is delivered, changed or not). The value
    /// the hub holds stays: the other views keep showing it.
    func subscriptionStart(asleep: Set<HubSensor>) -> HubUpdate {
        asleep.isEmpty ? update : update.withoutValues(of: asleep)
    }

    func isFresh(_ kind: HubSensor, at now: NIODeadline) -> Bool {
        switch kind {
        case .accelerometer:
            guard sensorAvailable else { return true }
            guard !paused, let lastReading else { return false }
            return now - lastReading <= staleAfter
        case .light: return !light.available || ambientFresh.contains(.light)
        case .proximity: return !proximity.available || ambientFresh.contains(.proximity)
        case .compass: return compass.device == nil || ambientFresh.contains(.compass)
        }
    }

    // MARK: Making the actions

    private mutating func change(to newOrientation: Orientation, at time: Double) {
        guard newOrientation != orientation else { return }
        previous = orientation
        orientation = newOrientation
        sequence += 1
        timestamp = time
        if newOrientation.inPlaneAngle != nil { lastInPlane = newOrientation }
    }

    /// A change every view hears of: the update is remade once for all its subscribers.
    private mutating func changed() -> [Action] {
        update = makeUpdate()
        return [.tell(facts), .deliver(update)]
    }

    /// `kind` was read (or is gone): its waiters are answered.
    private mutating func answering(_ kind: HubSensor) -> [Action] {
        if kind != .accelerometer { ambientFresh.insert(kind) }
        guard let answered = waiters.removeValue(forKey: kind), !answered.isEmpty else { return [] }
        return [.answer(answered)]
    }

    private func makeUpdate() -> HubUpdate {
        HubUpdate(orientation: orientation, previous: previous, sequence: sequence, timestamp: timestamp,
                  driving: lock.locked ? lock.orientation : lastInPlane, locked: lock.locked,
                  sensorAvailability: SensorAvailabilityEvent(
                    available: sensorAvailable, device: sensorAvailable ? sensor?.device : nil,
                    reason: sensorAvailable ? nil : sensor?.problem, timestamp: sensorChangedAt),
                  tilt: tilt, tiltChangedAt: tiltChangedAt,
                  hinge: hinge, hingeChangedAt: hingeChangedAt,
                  // A sensor woken and not read since holds a value that may be stale: subscribers
                  // are not told it (the other views keep showing it, through `facts`).
                  light: ambientFresh.contains(.light) ? light : light.withoutValue,
                  proximity: ambientFresh.contains(.proximity) ? proximity : proximity.withoutValue)
    }
}
