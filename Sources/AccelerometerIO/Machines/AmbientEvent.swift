import OrientationCore

/// What `AmbientSensorPoller` reports about the ambient light and proximity sensors and the
/// compass of its context.
public enum AmbientEvent: Sendable, Equatable {
    /// A light sensor was found: "iio:device1 (als)".
    case lightAppeared(device: String)
    /// The light level (in lux, or in percent of an hwmon sensor's range, `vendor`): on the
    /// first read after demand starts, then whenever it changes.
    case lightLevel(Double, unit: LightUnit)
    case lightGone(reason: String)
    case proximityAppeared(device: String)
    /// Whether something is near: on the first read after demand starts, then whenever it changes.
    case proximity(near: Bool)
    case proximityGone(reason: String)
    /// A compass (a magnetometer with a tilt-compensated heading) was found: "iio:device3 (magn_3d)".
    case compassAppeared(device: String)
    /// Degrees clockwise from magnetic north: on the first read after demand starts, then whenever it changes.
    case compassHeading(Double)
    case compassGone(reason: String)
}

/// The kinds of ambient sensor.
public enum AmbientSensorKind: String, Sendable, CaseIterable {
    case light, proximity, compass

    func appeared(_ device: String) -> AmbientEvent {
        switch self {
        case .light: .lightAppeared(device: device)
        case .proximity: .proximityAppeared(device: device)
        case .compass: .compassAppeared(device: device)
        }
    }

    func gone(_ reason: String) -> AmbientEvent {
        switch self {
        case .light: .lightGone(reason: reason)
        case .proximity: .proximityGone(reason: reason)
        case .compass: .compassGone(reason: reason)
        }
    }

    /// "light sensor", "proximity sensor", "compass": for log lines.
    var noun: String { self == .compass ? "compass" : "\(rawValue) sensor" }
}
