/// The sampling frequency orientd needs from a sensor: slower devices are raised to at least
/// `minimum` Hz, picking the slowest listed rate that reaches it when the device lists its rates.
public enum SamplingFrequency {
    public static let minimum: Double = 10

    /// The frequency to write, or nil when `current` is already fast enough (or unknown).
    /// `available` is the device's `sampling_frequency_available` list, in any order.
    public static func raised(current: Double, available: [Double], minimum: Double = minimum) -> Double? {
        guard current < minimum else { return nil }
        let fastEnough = available.filter { $0 >= minimum }
        return fastEnough.min() ?? minimum
    }

    /// Parses a `sampling_frequency_available` list ("3 6 12 25", "800.000000 ... 1.560000").
    public static func parseAvailable(_ text: String) -> [Double] {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).compactMap { parseDecimal($0) }
    }
}
