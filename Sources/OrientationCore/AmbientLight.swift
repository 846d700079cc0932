/// What an ambient light sensor measures in: lux, or a scale of its own that only grows with the light
/// (an hwmon sensor's share of its range, in percent).
public enum LightUnit: String, Codable, Sendable, CaseIterable {
    case lux
    case vendor
}

/// Where an IIO ambient light sensor keeps its reading: the first of its channel files that
/// exists, in iio-sensor-proxy's order, a processed value (`_input`, already lux) before a raw one.
public struct LightChannel: Equatable, Sendable {
    /// The channels, in order of preference.
    public static let channels = ["in_illuminance", "in_illuminance0", "in_illuminance_clear", "in_intensity_clear"]

    /// "in_illuminance".
    public let channel: String
    /// Whether the value is `_raw` counts rather than a processed `_input`.
    public let isRaw: Bool

    /// The file read on every poll: "in_illuminance_input".
    public var file: String { channel + (isRaw ? "_raw" : "_input") }
    /// The scale of the value: in_illuminance0's own for that channel, else in_illuminance's,
    /// which is the one iio-sensor-proxy reads for the clear channels too.
    public var scaleFile: String { channel == "in_illuminance0" ? "in_illuminance0_scale" : "in_illuminance_scale" }
    /// The channel's offset, added to a raw value before the scale; nil for a processed value.
    public var offsetFile: String? { isRaw ? channel + "_offset" : nil }
    /// Where the integration time (seconds) may be, the channel's own first.
    public var integrationTimeFiles: [String] {
        var files: [String] = []
        for channel in [channel, "in_illuminance", "in_illuminance0"] where !files.contains(channel + "_integration_time") {
            files.append(channel + "_integration_time")
        }
        return files
    }

    public init(channel: String, isRaw: Bool) {
        self.channel = channel
        self.isRaw = isRaw
    }

    /// The first `_input` file that `exists`, else the first `_raw` one; nil when the device has
    /// none: it is no light sensor.
    public init?(choosingFrom exists: (String) -> Bool) {
        for isRaw in [false, true] {
            if let channel = Self.channels.first(where: { exists($0 + (isRaw ? "_raw" : "_input")) }) {
                self.init(channel: channel, isRaw: isRaw)
                return
            }
        }
        return nil
    }
}

/// How a light sensor's value becomes lux: (value + offset) × scale, the IIO ABI's formula.
///
/// iio-sensor-proxy multiplies by the scale and applies no offset. orientd adds the channel's
/// `_offset` to a `_raw` value when that file exists, as the IIO ABI says a raw value needs;
/// no light sensor iio-sensor-proxy supports has one, so their levels agree. A processed
/// `_input` value is already lux: it is only scaled, as iio-sensor-proxy scales it.
public struct LightCalibration: Equatable, Sendable {
    public var scale: Double
    public var offset: Double

    /// More than 70 times direct sunlight (about 130 000 lux), and room enough for the counts of
    /// a 24-bit sensor whose driver gives no scale: a level beyond it is garbage.
    public static let largestLevel = 10_000_000.0

    public init(scale: Double = 1, offset: Double = 0) {
        self.scale = scale
        self.offset = offset
    }

    /// The scale from the text of the scale file (nil: no such file). A missing or zero scale
    /// counts as 1, as in iio-sensor-proxy; one that is not a number or is negative is refused: a
    /// guessed one would report wrong levels for the life of the sensor.
    public static func scale(fromText text: String?) throws(CalibrationValueError) -> Double {
        guard let text else { return 1 }
        guard let value = parseDecimal(text) else { throw CalibrationValueError(text: text, reason: "not a number") }
        guard value >= 0 else { throw CalibrationValueError(text: text, reason: "negative: a scale must be positive") }
        return value == 0 ? 1 : value
    }

    /// The offset from the text of the offset file (nil: no such file, 0): a number of counts of
    /// at most 2^32 either way.
    public static func offset(fromText text: String?) throws(CalibrationValueError) -> Double {
        guard let text else { return 0 }
        guard let value = parseDecimal(text) else { throw CalibrationValueError(text: text, reason: "not a number") }
        guard abs(value) <= AxisCalibration.largestOffset else {
            throw CalibrationValueError(text: text, reason: "beyond ±2^32 counts, more than any raw value")
        }
        return value
    }

    /// The level in lux of a value read from the channel's file.
    public func lux(fromValue value: Double) -> Double { (value + offset) * scale }

    /// Why `lux` cannot be a real light level; nil when it can.
    public static func problem(withLevel lux: Double) -> String? {
        guard lux.isFinite else { return "\(lux) lux is not a finite light level" }
        guard lux >= 0 else { return "\(lux) lux is negative, which no light level is" }
        guard lux <= largestLevel else { return "\(lux) lux is beyond 10 000 000 lux, more than any light a sensor can see" }
        return nil
    }
}

/// How often a light sensor is read while someone needs it: every integration time (the time
/// the sensor takes to measure, in seconds), as iio-sensor-proxy does, when the driver gives a
/// sane one, else every `defaultInterval` seconds.
public enum LightPolling {
    public static let defaultInterval = 0.8
    /// Integration times taken as intervals: shorter would read the sensor tens of times a second
    /// for a level nobody sees change that fast; longer would leave a screen's brightness stale.
    public static let usableIntervals: ClosedRange<Double> = 0.05...5

    /// The interval from the text of an integration time file (nil: no such file).
    public static func interval(fromIntegrationTime text: String?) -> Double {
        guard let text, let seconds = parseDecimal(text), usableIntervals.contains(seconds) else { return defaultInterval }
        return seconds
    }
}

/// An hwmon ambient light sensor's level (Apple's applesmc; udev type `hwmon-als`): its sysfs
/// `light` holds "(A,B)", the levels of two sensors, 0 to 255. Reported as iio-sensor-proxy
/// reports it: the brighter of the two, in percent of 255, in `vendor` units.
public enum HwmonLightLevel {
    public static let maximum = 255.0

    /// The level in percent, or nil when the text is not "(A,B)" with two whole numbers
    /// (a trailing newline allowed).
    public static func percent(fromText text: String) -> Double? {
        var body = Substring(text)
        while body.last == "\n" || body.last == " " { body.removeLast() }
        guard body.first == "(", body.last == ")" else { return nil }
        let numbers = body.dropFirst().dropLast().split(separator: ",", omittingEmptySubsequences: false)
        guard numbers.count == 2,
              let a = Int(numbers[0].drop { $0 == " " }), let b = Int(numbers[1].drop { $0 == " " })
        else { return nil }
        return Double(max(a, b)) / maximum * 100
    }
}
