/// How one axis turns a raw reading into m/s²: the IIO ABI's (raw + offset) × scale.
public struct AxisCalibration: Equatable, Sendable {
    public var scale: Double
    public var offset: Double

    public init(scale: Double = 1, offset: Double = 0) {
        self.scale = scale
        self.offset = offset
    }

    public func acceleration(fromRaw raw: Double) -> Double { (raw + offset) * scale }
}

/// The calibration of the three axes of one accelerometer.
public struct AccelerometerCalibration: Equatable, Sendable {
    public var x: AxisCalibration
    public var y: AxisCalibration
    public var z: AxisCalibration

    public init(x: AxisCalibration, y: AxisCalibration, z: AxisCalibration) {
        self.x = x
        self.y = y
        self.z = z
    }

    public func acceleration(fromRaw raw: Vector3) -> Vector3 {
        Vector3(x.acceleration(fromRaw: raw.x), y.acceleration(fromRaw: raw.y), z.acceleration(fromRaw: raw.z))
    }
}

/// Why the text of a `scale` or `offset` attribute cannot be used.
public struct CalibrationValueError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The value, made safe to print (`printableExcerpt`).
    public let text: String
    public let reason: String

    public init(text: some StringProtocol, reason: String) {
        self.text = printableExcerpt(text.trimmingBlanks())
        self.reason = reason
    }

    public var description: String { "'\(text)' is \(reason)" }
}

extension AxisCalibration {
    /// The scales (m/s² per count) orientd takes. Real accelerometers lie between about 1e-5
    /// (a 20-bit part at ±2 g) and about 1.2 (an 8-bit part at ±16 g), and a driver that counted
    /// whole g would give 9.8. Below 1e-9 even 2^31 counts are less than gravity; above 100 one
    /// count is more than 10 g: neither can tell an orientation.
    public static let usableScales: ClosedRange<Double> = 1e-9...100
    /// The largest |offset|, in counts: IIO raw values are at most 32-bit.
    public static let largestOffset = 4_294_967_296.0

    /// An axis's scale from the text of its `scale` attribute; nil text (no such attribute) is 1,
    /// as iio-sensor-proxy assumes. Anything else that is not a number within `usableScales` is
    /// refused rather than guessed at: a negative scale turns the orientation round, and one far
    /// off makes every reading look like free fall or a shake, which freezes the orientation.
    public static func scale(fromAttribute text: String?) throws(CalibrationValueError) -> Double {
        guard let text else { return 1 }
        let value = try number(text)
        guard value > 0 else {
            throw CalibrationValueError(text: text, reason: "\(value == 0 ? "zero" : "negative"): a scale must be positive")
        }
        guard usableScales.contains(value) else {
            throw CalibrationValueError(text: text, reason: "outside 1e-9 to 100 m/s² per count, the scales of real accelerometers")
        }
        return value
    }

    /// An axis's offset (in counts, added before the scale) from the text of its `offset`
    /// attribute; nil text (no such attribute) is 0. A present offset must be a number of at most
    /// `largestOffset` counts either way.
    public static func offset(fromAttribute text: String?) throws(CalibrationValueError) -> Double {
        guard let text else { return 0 }
        let value = try number(text)
        guard abs(value) <= largestOffset else {
            throw CalibrationValueError(text: text, reason: "beyond ±2^32 counts, more than any raw value")
        }
        return value
    }

    private static func number(_ text: String) throws(CalibrationValueError) -> Double {
        guard !text.trimmingBlanks().isEmpty else { throw CalibrationValueError(text: text, reason: "empty, not a number") }
        guard let value = parseDecimal(text) else { throw CalibrationValueError(text: text, reason: "not a number") }
        return value
    }
}
