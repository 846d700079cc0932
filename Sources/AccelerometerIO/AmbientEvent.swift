/// What `AmbientSensorPoller` reports about the ambient light and proximity sensors of its context.
public enum AmbientEvent: Sendable, Equatable {
    /// A light sensor was found: "iio:device1 (als)".
    case lightAppeared(device: String)
    /// The light level in lux: on the first read after demand starts, then whenever it changes.
    case lightLevel(Double)
    case lightGone(reason: String)
    case proximityAppeared(device: String)
    /// Whether something is near: on the first read after demand starts, then whenever it changes.
    case proximity(near: Bool)
    case proximityGone(reason: String)
}

/// The two kinds of ambient sensor.
public enum AmbientSensorKind: String, Sendable, CaseIterable {
    case light, proximity

    func appeared(_ device: String) -> AmbientEvent {
        switch self {
        case .light: .lightAppeared(device: device)
        case .proximity: .proximityAppeared(device: device)
        }
    }

    func gone(_ reason: String) -> AmbientEvent {
        switch self {
        case .light: .lightGone(reason: reason)
        case .proximity: .proximityGone(reason: reason)
        }
    }

    /// "light sensor", "proximity sensor": for log lines.
    var noun: String { "\(rawValue) sensor" }
}
