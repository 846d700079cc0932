/// Whether something is near a proximity sensor, from its raw readings and its near level (the
/// raw value above which an object counts as near, from udev's `PROXIMITY_NEAR_LEVEL` or the
/// driver's `in_proximity_nearlevel`).
///
/// A reading is near above the near level raised by 10% while far, and above it lowered by 10%
/// while near, so a value hovering about the level does not flip the answer on every poll. It
/// starts far.
///
/// iio-sensor-proxy takes the same margins but picks one by the previous raw value against the
/// plain near level, not by the previous answer; the two agree except for values that stay
/// within 10% of the level.
public struct ProximityDetector: Equatable, Sendable {
    public let nearLevel: Double
    public private(set) var isNear: Bool

    /// Raw values beyond ±2^32 are garbage: IIO raw values are at most 32-bit.
    public static let largestRaw = 4_294_967_296.0

    public init(nearLevel: Double, isNear: Bool = false) {
        self.nearLevel = nearLevel
        self.isNear = isNear
    }

    /// Takes a reading in; returns whether something is near now.
    @discardableResult
    public mutating func update(raw: Double) -> Bool {
        isNear = raw > nearLevel * (isNear ? 0.9 : 1.1)
        return isNear
    }

    /// The near level from the text of the udev property or the sysfs file: a positive number.
    /// iio-sensor-proxy takes 0 as no level at all; orientd refuses it, and anything else that is
    /// not a positive number within `largestRaw`, rather than guess.
    public static func nearLevel(fromText text: String) throws(CalibrationValueError) -> Double {
        guard let value = parseDecimal(text) else { throw CalibrationValueError(text: text, reason: "not a number") }
        guard value > 0 else { throw CalibrationValueError(text: text, reason: "\(value == 0 ? "zero" : "negative"): a near level must be positive") }
        guard value <= largestRaw else { throw CalibrationValueError(text: text, reason: "beyond 2^32, more than any raw value") }
        return value
    }

    /// Why `raw` cannot be a real proximity reading; nil when it can.
    public static func problem(withRaw raw: Double) -> String? {
        guard raw.isFinite, abs(raw) <= largestRaw else { return "\(raw) is beyond ±2^32, more than any IIO raw value" }
        return nil
    }
}
