/// How far the screen leans back or forward, in the five steps iio-sensor-proxy 3.6+ names in
/// its `AccelerometerTilt` property (and the same thresholds): upright within 20°, leaning from
/// 21° to 69°, lying flat from 70°. Unlike the orientation it has no hysteresis and no delay,
/// as there: it is a description of the pose, not a decision a screen acts on.
///
/// The tilt is the angle of the screen's normal above the horizon, asin(z / |a|) on the
/// (filtered) reaction to gravity in the device frame (docs/conventions.md), rounded to whole
/// degrees as iio-sensor-proxy rounds it: +90° the screen to the sky, −90° to the floor.
public enum DeviceTilt: String, CaseIterable, Codable, Sendable, CustomStringConvertible {
    /// No reading yet, or none for a while.
    case unknown
    /// Within 20° of upright.
    case vertical
    /// Leaning back, the screen towards the sky: 21° to 69°.
    case tiltedUp
    /// Leaning forward, the screen towards the floor: −21° to −69°.
    case tiltedDown
    /// Lying screen up: 70° and more.
    case faceUp
    /// Lying screen down: −70° and less.
    case faceDown

    /// Up to this many degrees from upright is `vertical`.
    public static let verticalDegrees = 20.0
    /// From this many degrees on is lying flat.
    public static let flatDegrees = 70.0

    /// The step a tilt of `degrees` (−90...90) is in.
    public init(tiltDegrees degrees: Double) {
        let whole = degrees.rounded()
        switch abs(whole) {
        case ...Self.verticalDegrees: self = .vertical
        case ..<Self.flatDegrees: self = whole > 0 ? .tiltedUp : .tiltedDown
        case ...90: self = whole > 0 ? .faceUp : .faceDown
        default: self = .unknown
        }
    }

    /// The step of an acceleration in the device frame; unknown for a zero vector.
    public init(of acceleration: Vector3) {
        self = acceleration.magnitude > 0 ? DeviceTilt(tiltDegrees: Geometry.tilt(of: acceleration)) : .unknown
    }

    /// iio-sensor-proxy's name, as its `AccelerometerTilt` property says it.
    public var sensorProxyName: String {
        switch self {
        case .unknown: "undefined"
        case .vertical: "vertical"
        case .tiltedUp: "tilted-up"
        case .tiltedDown: "tilted-down"
        case .faceUp: "face-up"
        case .faceDown: "face-down"
        }
    }

    public var description: String { rawValue }
}
