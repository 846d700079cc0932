import OrientationCore
import OrientdHub

/// The accelerometer as iio-sensor-proxy's properties describe it.
public struct ProxyAccelerometer: Equatable, Sendable {
    public var present = false
    /// `AccelerometerOrientation`: `undefined`, `normal`, `bottom-up`, `left-up` or `right-up`.
    public var orientation = "undefined"
    /// `AccelerometerTilt`: `undefined`, `vertical`, `tilted-up`, `tilted-down`, `face-up` or
    /// `face-down` (`DeviceTilt`, decided as iio-sensor-proxy 3.6+ decides it).
    public var tilt = "undefined"

    public init() {}

    /// iio-sensor-proxy's name for an in-plane orientation, in the frame both share (x to the
    /// right of the screen, y to its top, z out of it, reaction to gravity): the device turned to
    /// the left (`landscapeLeft`, -x up) has its right edge up.
    public static func orientationName(_ orientation: Orientation) -> String? {
        switch orientation {
        case .portrait: "normal"
        case .portraitUpsideDown: "bottom-up"
        case .landscapeLeft: "right-up"
        case .landscapeRight: "left-up"
        case .faceUp, .faceDown, .unknown: nil
        }
    }

    /// The orientation an `AccelerometerOrientation` value names (`undefined`: unknown), or nil
    /// for a name iio-sensor-proxy does not use: what its clients read.
    public static func orientation(named name: String) -> Orientation? {
        name == "undefined" ? .unknown : Orientation.allCases.first { orientationName($0) == name }
    }

    /// After orientd decided `orientation` and `tilt`: lying flat keeps the last in-plane
    /// orientation (as iio-sensor-proxy does, so that a screen does not turn when the device is
    /// put down); a lost reading (`unknown`) changes nothing.
    public mutating func follow(_ orientation: Orientation, tilt: DeviceTilt) {
        if let name = Self.orientationName(orientation) { self.orientation = name }
        if tilt != .unknown { self.tilt = tilt.sensorProxyName }
    }
}

/// The ambient light sensor as iio-sensor-proxy's properties describe it.
public struct ProxyLight: Equatable, Sendable {
    public var present = false
    public var level = 0.0
    /// `lux`, or `vendor` for a sensor that reports a share of its own range.
    public var unit = "lux"
    public init() {}
}

/// The proximity sensor as iio-sensor-proxy's properties describe it.
public struct ProxyProximity: Equatable, Sendable {
    public var present = false
    public var near = false
    public init() {}
}

/// The compass as iio-sensor-proxy's properties describe it.
public struct ProxyCompass: Equatable, Sendable {
    public var present = false
    /// `CompassHeading`: degrees clockwise from magnetic north; -1 until the compass is read.
    public var heading = -1.0
    public init() {}
}

/// The properties of iio-sensor-proxy's interfaces; the raw values are the C shim's.
public enum ProxyProperty: Int32, CaseIterable, Sendable {
    case hasAccelerometer = 0, accelerometerOrientation, accelerometerTilt
    case hasAmbientLight, lightLevelUnit, lightLevel
    case hasProximity, proximityNear
    case hasCompass, compassHeading

    /// Whether it says the sensor is there (`Has…`), rather than what it reads.
    public var isPresence: Bool {
        [.hasAccelerometer, .hasAmbientLight, .hasProximity, .hasCompass].contains(self)
    }

    /// The sensor whose claimers are told of a change.
    public var sensor: HubSensor {
        switch self {
        case .hasAccelerometer, .accelerometerOrientation, .accelerometerTilt: .accelerometer
        case .hasAmbientLight, .lightLevelUnit, .lightLevel: .light
        case .hasProximity, .proximityNear: .proximity
        case .hasCompass, .compassHeading: .compass
        }
    }
}

/// A property's value, in its D-Bus type.
public enum ProxyValue: Equatable, Sendable {
    case boolean(Bool)
    case number(Double)
    case text(String)
}

/// One PropertiesChanged signal: these properties, in this order, to each of these clients
/// (the claimers of their sensor; iio-sensor-proxy 3.1 and later send to claimers only).
public struct ProxySignal: Equatable, Sendable {
    public let properties: [ProxyProperty]
    public let destinations: [String]

    public init(_ properties: [ProxyProperty], to destinations: [String]) {
        self.properties = properties
        self.destinations = destinations
    }
}
