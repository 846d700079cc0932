import OrientationCore

/// The name in `"event"` of every event the server sends: those a client may subscribe to and
/// those it gets unasked (`hello`, `sensorAvailability`, `stopping`).
public enum EventName: String, Codable, Sendable, CaseIterable {
    case hello
    case deviceOrientationDidChange
    case deviceTiltDidChange
    case interfaceOrientationDidChange
    case rotationLockDidChange
    case angles
    case hingeAngleDidChange
    case tabletModeDidChange
    case proximityStateDidChange
    case ambientLightDidChange
    case sensorAvailability
    case stopping

    /// The name as `subscribe` takes it; nil for the events nobody subscribes to.
    public var subscribable: EventKind? {
        switch self {
        case .deviceOrientationDidChange: .deviceOrientationDidChange
        case .deviceTiltDidChange: .deviceTiltDidChange
        case .interfaceOrientationDidChange: .interfaceOrientationDidChange
        case .rotationLockDidChange: .rotationLockDidChange
        case .angles: .angles
        case .hingeAngleDidChange: .hingeAngleDidChange
        case .tabletModeDidChange: .tabletModeDidChange
        case .proximityStateDidChange: .proximityStateDidChange
        case .ambientLightDidChange: .ambientLightDidChange
        case .hello, .sensorAvailability, .stopping: nil
        }
    }
}

/// The events a client may subscribe to, by the name they carry in `"event"`. `subscribe` accepts
/// these names only; the events sent unasked are in `EventName` alone.
public enum EventKind: String, Codable, Sendable, CaseIterable {
    case deviceOrientationDidChange
    case deviceTiltDidChange
    case interfaceOrientationDidChange
    case rotationLockDidChange
    case angles
    case hingeAngleDidChange
    case tabletModeDidChange
    case proximityStateDidChange
    case ambientLightDidChange

    /// The sensor read while the event is subscribed (nil: none, the lock is no reading).
    public var sensor: SensorKind? {
        switch self {
        case .deviceOrientationDidChange, .deviceTiltDidChange, .interfaceOrientationDidChange, .angles, .hingeAngleDidChange, .tabletModeDidChange: .accelerometer
        case .proximityStateDidChange: .proximity
        case .ambientLightDidChange: .light
        case .rotationLockDidChange: nil
        }
    }

    /// Events that need the accelerometer read while they are subscribed.
    public var needsSensor: Bool { sensor == .accelerometer }

    /// The same name among every event's.
    public var name: EventName {
        switch self {
        case .deviceOrientationDidChange: .deviceOrientationDidChange
        case .deviceTiltDidChange: .deviceTiltDidChange
        case .interfaceOrientationDidChange: .interfaceOrientationDidChange
        case .rotationLockDidChange: .rotationLockDidChange
        case .angles: .angles
        case .hingeAngleDidChange: .hingeAngleDidChange
        case .tabletModeDidChange: .tabletModeDidChange
        case .proximityStateDidChange: .proximityStateDidChange
        case .ambientLightDidChange: .ambientLightDidChange
        }
    }
}

/// The kinds of sensor orientd reads, each only while a subscription needs it.
public enum SensorKind: String, Codable, Sendable, CaseIterable {
    case accelerometer
    case light
    case proximity
}

/// An event's members as one of the protocol's types. `name` is what its `"event"` member holds;
/// `ServerEvent` picks the type by it.
public protocol ProtocolEvent: Codable, Equatable, Sendable {
    static var name: EventName { get }
}

/// `{"event": "hello", ...}`: the first line the server sends on every connection. It carries no
/// orientation: the sensor may be asleep, and only a request wakes it.
public struct HelloEvent: ProtocolEvent {
    public static let name = EventName.hello
    public var event = Self.name.rawValue
    public var `protocol`: Int
    public var server: String

    public init(protocol: Int = Wire.protocolVersion, server: String) {
        self.protocol = `protocol`
        self.server = server
    }
}

/// `{"event": "deviceOrientationDidChange", ...}`: sent to subscribers on every change.
public struct DeviceOrientationDidChangeEvent: ProtocolEvent {
    public static let name = EventName.deviceOrientationDidChange
    public var event = Self.name.rawValue
    public var orientation: Orientation
    /// The orientation this client was last told of.
    public var previous: Orientation
    /// When the daemon decided the change, in seconds since the Unix epoch.
    public var timestamp: Double
    /// Counts the daemon's orientation changes since it started; a gap means changes were coalesced.
    public var sequence: Int

    public init(orientation: Orientation, previous: Orientation, timestamp: Double, sequence: Int) {
        self.orientation = orientation
        self.previous = previous
        self.timestamp = timestamp
        self.sequence = sequence
    }
}

/// `{"event": "interfaceOrientationDidChange", ...}`: this client's content should now be drawn
/// in `interfaceOrientation`, turned `rotation` degrees clockwise against the panel.
public struct InterfaceOrientationDidChangeEvent: ProtocolEvent {
    public static let name = EventName.interfaceOrientationDidChange
    public var event = Self.name.rawValue
    public var interfaceOrientation: InterfaceOrientation
    /// The interface orientation this client was last told of.
    public var previous: InterfaceOrientation
    public var rotation: Int
    /// The device orientation that drove the change (while locked: the one locked in).
    public var deviceOrientation: Orientation
    public var timestamp: Double

    public init(interfaceOrientation: InterfaceOrientation, previous: InterfaceOrientation,
                deviceOrientation: Orientation, timestamp: Double) {
        self.interfaceOrientation = interfaceOrientation
        self.previous = previous
        rotation = interfaceOrientation.rotation
        self.deviceOrientation = deviceOrientation
        self.timestamp = timestamp
    }
}

/// `{"event": "rotationLockDidChange", ...}`: someone locked or unlocked the interface orientation.
public struct RotationLockDidChangeEvent: ProtocolEvent {
    public static let name = EventName.rotationLockDidChange
    public var event = Self.name.rawValue
    public var locked: Bool
    public var timestamp: Double

    public init(locked: Bool, timestamp: Double) {
        self.locked = locked
        self.timestamp = timestamp
    }
}

/// `{"event": "angles", ...}`: one sample of the continuous angles, for smooth rotation.
public struct AnglesEvent: ProtocolEvent {
    public static let name = EventName.angles
    public var event = Self.name.rawValue
    /// Degrees in the screen plane: 0 portrait, 90 landscapeLeft, 180 upside down, 270 landscapeRight.
    public var inPlane: Double
    /// Degrees: +90 screen to the sky, -90 to the floor, 0 upright.
    public var tilt: Double
    public var pitch: Double
    public var roll: Double
    /// The sample itself, m/s² in orientd's frame (after the mount matrix), unfiltered.
    public var acceleration: [Double]
    /// The same sample in the sensor's own axes: m/s² after scale and offset, before the mount
    /// matrix (what `orientctl calibrate` measures a matrix from). Left out where unknown (a
    /// replayed trace) and by daemons from before it.
    public var raw: [Double]?
    /// When the sample was read: seconds since the Unix epoch.
    public var timestamp: Double
    /// Samples this client missed since its last one because it read too slowly.
    public var dropped: Int

    public init(angles: OrientationAngles, acceleration: Vector3, raw: Vector3? = nil, timestamp: Double, dropped: Int = 0) {
        inPlane = Self.rounded(angles.inPlane, 100)
        tilt = Self.rounded(angles.tilt, 100)
        pitch = Self.rounded(angles.pitch, 100)
        roll = Self.rounded(angles.roll, 100)
        self.acceleration = [acceleration.x, acceleration.y, acceleration.z].map { Self.rounded($0, 10000) }
        self.raw = raw.map { [$0.x, $0.y, $0.z].map { Self.rounded($0, 10000) } }
        self.timestamp = timestamp
        self.dropped = dropped
    }

    /// Rounded to what a sensor can tell apart, and never -0.
    private static func rounded(_ value: Double, _ scale: Double) -> Double { (value * scale).rounded() / scale + 0 }
}

/// `{"event": "deviceTiltDidChange", ...}`: the screen leans into another of iio-sensor-proxy's
/// five tilt steps (`DeviceTilt`: upright within 20°, leaning from 21°, flat from 70°), or the
/// tilt became unknown with the orientation.
public struct DeviceTiltDidChangeEvent: ProtocolEvent {
    public static let name = EventName.deviceTiltDidChange
    public var event = Self.name.rawValue
    public var tilt: DeviceTilt
    public var timestamp: Double

    public init(tilt: DeviceTilt, timestamp: Double) {
        self.tilt = tilt
        self.timestamp = timestamp
    }
}

/// `{"event": "hingeAngleDidChange", ...}`: on a convertible with a display and a base
/// accelerometer, the angle between its halves moved by 5° or more, or could no longer be told.
public struct HingeAngleDidChangeEvent: ProtocolEvent {
    public static let name = EventName.hingeAngleDidChange
    public var event = Self.name.rawValue
    /// Degrees: 0 closed, about 110 a laptop, 180 flat, about 300 a tent, 360 a tablet. Absent
    /// while it cannot be told; `problem` then says why.
    public var hingeAngle: Double?
    public var problem: String?
    public var timestamp: Double

    public init(hingeAngle: Double?, problem: String?, timestamp: Double) {
        self.hingeAngle = hingeAngle
        self.problem = problem
        self.timestamp = timestamp
    }
}

/// `{"event": "tabletModeDidChange", ...}`: the convertible became a tablet (hinge angle 200° or
/// more) or stopped being one (160° or less).
public struct TabletModeDidChangeEvent: ProtocolEvent {
    public static let name = EventName.tabletModeDidChange
    public var event = Self.name.rawValue
    public var tabletMode: Bool
    public var hingeAngle: Double?
    public var timestamp: Double

    public init(tabletMode: Bool, hingeAngle: Double?, timestamp: Double) {
        self.tabletMode = tabletMode
        self.hingeAngle = hingeAngle
        self.timestamp = timestamp
    }
}

/// `{"event": "proximityStateDidChange", ...}`: something came near the proximity sensor or went
/// away from it, as `UIDevice.proximityStateDidChangeNotification`.
public struct ProximityStateDidChangeEvent: ProtocolEvent {
    public static let name = EventName.proximityStateDidChange
    public var event = Self.name.rawValue
    /// True while something is near (`UIDevice.proximityState`).
    public var proximityState: Bool
    public var timestamp: Double

    public init(proximityState: Bool, timestamp: Double) {
        self.proximityState = proximityState
        self.timestamp = timestamp
    }
}

/// An ambient light reading.
public struct AmbientLight: Codable, Equatable, Sendable {
    public var level: Double
    public var unit: LightUnit

    public init(level: Double, unit: LightUnit) {
        self.level = level
        self.unit = unit
    }
}

/// `{"event": "ambientLightDidChange", ...}`: the ambient light sensor reads a new level.
public struct AmbientLightDidChangeEvent: ProtocolEvent {
    public static let name = EventName.ambientLightDidChange
    public var event = Self.name.rawValue
    public var level: Double
    public var unit: LightUnit
    public var timestamp: Double

    public init(_ light: AmbientLight, timestamp: Double) {
        level = light.level
        unit = light.unit
        self.timestamp = timestamp
    }

    public var light: AmbientLight { AmbientLight(level: level, unit: unit) }
}

/// `{"event": "sensorAvailability", ...}`: a sensor went away (`available` false, with the
/// `reason`) or one came (`available` true, with its `device`). Without `sensor` it is the
/// accelerometer (the orientation becomes `unknown` when it goes); `sensor` names the others
/// (`light`, `proximity`: their value is unknown until one is read again). Sent to every
/// subscriber whose events need that sensor.
public struct SensorAvailabilityEvent: ProtocolEvent {
    public static let name = EventName.sensorAvailability
    public var event = Self.name.rawValue
    public var available: Bool
    public var device: String?
    public var reason: String?
    /// Left out for the accelerometer, as protocol 1 always sent it.
    public var sensor: SensorKind?
    public var timestamp: Double

    public init(available: Bool, device: String?, reason: String?, sensor: SensorKind? = nil, timestamp: Double) {
        self.available = available
        self.device = device
        self.reason = reason
        self.sensor = sensor == .accelerometer ? nil : sensor
        self.timestamp = timestamp
    }

    /// The sensor it is about.
    public var sensorKind: SensorKind { sensor ?? .accelerometer }
}

/// `{"event": "stopping", ...}`: the daemon is stopping (SIGTERM, shutdown) and closes the
/// connection next. Clients that want to keep up reconnect; the socket may answer again at once
/// (systemd socket activation) or once orientd is started again.
public struct StoppingEvent: ProtocolEvent {
    public static let name = EventName.stopping
    public var event = Self.name.rawValue
    public var timestamp: Double

    public init(timestamp: Double) {
        self.timestamp = timestamp
    }
}
