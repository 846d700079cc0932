/// Whether something is near a proximity sensor, from its raw readings and its near level (the
/// raw value above which an object counts as near, from udev's `PROXIMITY_NEAR_LEVEL` or the
/// driver's `in_proximity_nearlevel`), decided as iio-sensor-proxy decides it, so that a phone
/// shell blanks the screen in a call at the same readings with either daemon.
///
/// A reading is near above the near level lowered by 10% when the previous raw reading was above
/// the level, and above the level raised by 10% when it was not (the first reading counts as
/// following a 0). So a reading held steady is near exactly when it is above the level, from its
/// second poll on; a value within 10% of the level is near when the reading before it was above
/// the level, so a reading that crosses the level counts one poll late.
public struct ProximityDetector: Equatable, Sendable {
    public let nearLevel: Double
    public private(set) var isNear: Bool
    /// The previous raw reading, which picks the margin for the next one.
    public private(set) var previousRaw: Double

    /// Raw values beyond ±2^32 are garbage: IIO raw values are at most 32-bit.
    public static let largestRaw = 4_294_967_296.0

    public init(nearLevel: Double, isNear: Bool = false, previousRaw: Double = 0) {
        self.nearLevel = nearLevel
        self.isNear = isNear
        self.previousRaw = previousRaw
    }

    /// Takes a reading in; returns whether something is near now.
    @discardableResult
    public mutating func update(raw: Double) -> Bool {
        isNear = raw > nearLevel * (previousRaw > nearLevel ? 0.9 : 1.1)
        previousRaw = raw
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
