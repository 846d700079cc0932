import OrientationCore

/// What the D-Bus face decides, as a pure step function: which sensors its clients claim (each a
/// demand on the sensor, as a socket subscriber's is), when a claim may be answered, and what the
/// properties say. Time is passed in; `SensorProxyBus` performs the actions.
///
/// A claim is answered once the claimed sensor has been read since it was claimed, so that a
/// client's `Get` right after `ClaimAccelerometer` (mutter's way) sees the real orientation; at
/// once when the sensor is already being read for another claimer, or absent; and after
/// `settleAfter` seconds at the latest, with what is known, if the sensor does not answer.
public struct SensorProxyState: Sendable {
    public enum Event: Equatable, Sendable {
        /// The first client claimed the sensor (true), or the last one released it or left
        /// (false). `beingRead`: it was read for someone else already (a socket subscriber), so
        /// what the properties say is current.
        case claimsChanged(ProxySensor, claimed: Bool, beingRead: Bool = false)
        /// A claim was accepted; `answerNow` in the result says whether it is answered at once.
        case claimArrived(ProxySensor, at: Double)
        case accelerometerPresent(Bool)
        case orientationDecided(Orientation)
        /// The sensor was read (or failed to be): what it says is in the properties now.
        case sensorRead(ProxySensor)
        case light(ProxyLight)
        case proximity(ProxyProximity)
        case compass(ProxyCompass)
        case time(Double)
    }

    public enum Action: Equatable, Sendable {
        case holdSensor(ProxySensor)
        case releaseSensor(ProxySensor)
        /// Answer the claims waiting for the sensor.
        case settle(ProxySensor)
        case publishAccelerometer(ProxyAccelerometer)
        case publishLight(ProxyLight)
        case publishProximity(ProxyProximity)
        case publishCompass(ProxyCompass)
    }

    public static let settleAfter = 2.0

    public private(set) var accelerometer = ProxyAccelerometer()
    public private(set) var light = ProxyLight()
    public private(set) var proximity = ProxyProximity()
    public private(set) var compass = ProxyCompass()
    private var claimed: Set<ProxySensor> = []
    /// Claimed sensors read since their claim began: a further claim needs no wait.
    private var current: Set<ProxySensor> = []
    /// When the claims waiting for each sensor are answered anyway.
    private var settleBy: [ProxySensor: Double] = [:]

    public init() {}

    /// Whether a claim waits for the sensor's next reading.
    public func awaitsReading(_ sensor: ProxySensor) -> Bool { settleBy[sensor] != nil }

    /// The earliest moment a waiting claim must be answered, if any waits.
    public var nextDeadline: Double? { settleBy.values.min() }

    /// Whether a claim that just arrived is answered at once (the rest of the step's result).
    public private(set) var answerNow = false

    public mutating func handle(_ event: Event) -> [Action] {
        answerNow = false
        switch event {
        case .claimsChanged(let sensor, let isClaimed, let beingRead):
            guard isClaimed != claimed.contains(sensor) else { return [] }
            if isClaimed {
                claimed.insert(sensor)
                if beingRead { current.insert(sensor) }
                return [.holdSensor(sensor)]
            }
            claimed.remove(sensor)
            current.remove(sensor)
            // Claims still waiting belonged to clients that left: the shim answers them.
            settleBy[sensor] = nil
            return [.releaseSensor(sensor)]
        case .claimArrived(let sensor, let time):
            if current.contains(sensor) || !isPresent(sensor) {
                answerNow = true
                return []
            }
            if settleBy[sensor] == nil { settleBy[sensor] = time + Self.settleAfter }
            return []
        case .accelerometerPresent(let present):
            guard present != accelerometer.present else { return [] }
            accelerometer.present = present
            if !present {
                accelerometer = ProxyAccelerometer()
                current.remove(.accelerometer)
            }
            return [.publishAccelerometer(accelerometer)] + (present ? [] : settling(.accelerometer))
        case .orientationDecided(let orientation):
            var next = accelerometer
            next.follow(orientation)
            guard next != accelerometer else { return [] }
            accelerometer = next
            return [.publishAccelerometer(accelerometer)]
        case .sensorRead(let sensor):
            guard claimed.contains(sensor) else { return [] }
            current.insert(sensor)
            return settling(sensor)
        case .light(let light):
            return update(\.light, to: light, publish: Action.publishLight, sensor: .light, present: light.present)
        case .proximity(let proximity):
            return update(\.proximity, to: proximity, publish: Action.publishProximity, sensor: .proximity, present: proximity.present)
        case .compass(let compass):
            return update(\.compass, to: compass, publish: Action.publishCompass, sensor: .compass, present: compass.present)
        case .time(let now):
            let due = settleBy.filter { $0.value <= now }.keys.sorted { $0.rawValue < $1.rawValue }
            return due.flatMap { settling($0) }
        }
    }

    private func isPresent(_ sensor: ProxySensor) -> Bool {
        switch sensor {
        case .accelerometer: accelerometer.present
        case .light: light.present
        case .proximity: proximity.present
        case .compass: compass.present
        }
    }

    private mutating func settling(_ sensor: ProxySensor) -> [Action] {
        guard settleBy.removeValue(forKey: sensor) != nil else { return [] }
        return [.settle(sensor)]
    }

    /// A new light, proximity or compass state: published when it differs; a sensor that went away
    /// answers the claims waiting for it (with `Has…` false).
    private mutating func update<Value: Equatable>(_ path: WritableKeyPath<SensorProxyState, Value>, to value: Value,
                                                   publish: (Value) -> Action, sensor: ProxySensor, present: Bool) -> [Action] {
        guard self[keyPath: path] != value else { return [] }
        self[keyPath: path] = value
        if present { return [publish(value)] }
        // Gone: a claim made after it comes back waits for its first reading again.
        current.remove(sensor)
        return [publish(value)] + settling(sensor)
    }
}
