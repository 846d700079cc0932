import OrientationCore
import OrientdProtocol

/// The sensors a hub publishes facts of, and waits for fresh readings of: the accelerometer and
/// the ambient sensors (the compass for the D-Bus face alone: the socket protocol has none).
/// They are the sensors a D-Bus client claims too; the raw values are the C shim's
/// (enum orientd_bus_sensor).
public enum HubSensor: Int, CaseIterable, Sendable, CustomStringConvertible {
    case accelerometer, light, proximity, compass

    public var description: String {
        switch self {
        case .accelerometer: "accelerometer"
        case .light: "light sensor"
        case .proximity: "proximity sensor"
        case .compass: "compass"
        }
    }

    /// Its name in `status`: "accelerometer", "light", "proximity", "compass".
    public var statusName: String {
        switch self {
        case .accelerometer: "accelerometer"
        case .light: "light"
        case .proximity: "proximity"
        case .compass: "compass"
        }
    }
}

extension HubSensor {
    /// The sensor a socket subscription needs read.
    init(_ kind: SensorKind) {
        switch kind {
        case .accelerometer: self = .accelerometer
        case .light: self = .light
        case .proximity: self = .proximity
        }
    }
}

/// What a hub holds, as a view other than the socket (the D-Bus face) reads it: handed to its
/// observers at once and after every change, in the order the changes happened. A value is nil
/// while unknown (not read yet, or asleep since a client woke the sensor and its first reading
/// is awaited): a view keeps what it last showed.
public struct HubFacts: Equatable, Sendable {
    public var accelerometerAvailable = false
    public var orientation = Orientation.unknown
    public var tilt = DeviceTilt.unknown
    public var lightAvailable = false
    public var light: AmbientLight?
    public var proximityAvailable = false
    public var proximityNear: Bool?
    public var compassAvailable = false
    /// Degrees clockwise from magnetic north.
    public var compassHeading: Double?

    public init() {}
}

/// The compass as the hub holds it: the device (nil while there is none) and its last heading.
struct CompassState: Equatable, Sendable {
    var device: String?
    var heading: Double?
}
