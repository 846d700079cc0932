/// How a still device's motion is noticed: by the accelerometer's own motion interrupt, where its
/// driver exposes one as an IIO event, or by reading it at the still rate (`SamplingPace`).
///
/// An IIO event is usable for this only when it fires on motion, not on gravity: a rate of change
/// (`roc`, bmc150-accel) or an adaptive (AC-coupled) magnitude or threshold are motion by
/// definition; a plain `mag` or `thresh` event is motion only on the drivers known to high-pass
/// it (mma8451/2/3 and fxls8471's transient and bma400's activity detection, both `mag`;
/// kxcjk-1013's wake-up engine, `thresh`): elsewhere gravity alone may exceed it (mma8652/3's
/// `mag` compares the plain level), and the device would never sleep.
/// Falling events (free fall, inactivity) say nothing about a turn. The decision takes the
/// device's `name` attribute and the file names of its sysfs `events/` directory, and never
/// touches either.
public enum MotionWakeUp: Equatable, Sendable {
    /// Write 1 to each of these files of `events/` and wait on the device's event descriptor.
    case events(enable: [String])
    /// No motion event to trust: read at the still rate.
    case polling(reason: String)

    /// The kinds of event that mean motion on any driver, best first.
    static let motionKinds = ["roc", "mag_adaptive", "thresh_adaptive"]

    /// Drivers (their IIO `name`) whose plain event of one kind is a high-passed motion detector.
    static let highPassedEvents: [String: String] = [
        "mma8451": "mag", "mma8452": "mag", "mma8453": "mag", "fxls8471": "mag",
        "bma400": "mag",
        "kxcjk1013": "thresh", "kxcj91008": "thresh", "kxtj21009": "thresh", "kxtf9": "thresh", "kx0231025": "thresh",
    ]

    /// m/s² per count of the motion event's `_value`, for the drivers whose threshold would not
    /// fire on a hand's turn as they leave it: mma8452.c counts its transient threshold in steps
    /// of 8 g / 127 whatever the range, and sets it to 127 (8 g) at probe. The other trusted
    /// drivers keep theirs (bmc150: 1 slope count; kxcjk-1013: 1 wake-up count; bma400: 80 mg,
    /// written by the driver at each enabling), all well under a turn.
    static let thresholdSteps: [String: Double] = [
        "mma8451": 8 * 9.80665 / 127, "mma8452": 8 * 9.80665 / 127, "mma8453": 8 * 9.80665 / 127, "fxls8471": 8 * 9.80665 / 127,
    ]

    /// The `_value` file to write before enabling `enable`, and the count that stands for a
    /// motion of `acceleration` m/s² (at least 1); nil where the driver's own threshold stays.
    public static func threshold(deviceName: String, eventFiles: [String], enable: [String],
                                 acceleration: Double) -> (file: String, value: String)? {
        guard let step = thresholdSteps[normalized(deviceName)], let first = enable.first.flatMap(EventFile.init) else { return nil }
        let suffix = "\(first.kind)_\(first.direction)_value"
        let candidates = [String(first.file.dropLast("_en".count)) + "_value", "in_accel_\(suffix)"]
        guard let file = candidates.first(where: eventFiles.contains) else { return nil }
        let count = min(127, max(1, Int((acceleration / step).rounded())))
        return (file, String(count))
    }

    /// One `in_accel…_en` event file, taken apart.
    struct EventFile: Equatable {
        let file: String
        let kind: String
        let direction: String
        /// On the AND of the axes, `x&y&z`.
        let andCombined: Bool

        /// Reads "in_accel_x_roc_either_en", "in_accel_mag_rising_en", "in_accel_x&y&z_mag_rising_en",
        /// "in_accel_x_raw_roc_rising_en";
        /// nil for anything else (another channel, a value or period file).
        init?(_ file: String) {
            guard file.hasPrefix("in_accel_"), file.hasSuffix("_en") else { return nil }
            var parts = file.dropFirst("in_accel_".count).dropLast("_en".count).split(separator: "_").map(String.init)
            andCombined = parts.first == "x&y&z"
            if let axis = parts.first, ["x", "y", "z", "x&y&z", "x|y|z"].contains(axis) { parts.removeFirst() }
            if parts.first == "raw" { parts.removeFirst() }
            guard parts.count >= 2, let direction = parts.last, ["rising", "falling", "either"].contains(direction) else { return nil }
            self.file = file
            self.direction = direction
            kind = parts.dropLast().joined(separator: "_")
        }
    }

    /// The wake-up for a device named `deviceName` whose `events/` directory holds `eventFiles`
    /// (empty when it has none).
    public static func choose(deviceName: String, eventFiles: [String]) -> MotionWakeUp {
        // An AND-combined event fires only when every axis agrees: bmi270's no-motion is a `roc`
        // rising on x&y&z, which fires while the device is still.
        let events = eventFiles.compactMap(EventFile.init).filter { $0.direction != "falling" && !$0.andCombined }
        guard !events.isEmpty else { return .polling(reason: "\(deviceName) has no accelerometer event that signals motion") }
        let trusted = motionKinds + (highPassedEvents[normalized(deviceName)].map { [$0] } ?? [])
        for kind in trusted {
            let chosen = events.filter { $0.kind == kind }.map(\.file).sorted()
            if !chosen.isEmpty { return .events(enable: chosen) }
        }
        let kinds = Set(events.map(\.kind)).sorted().joined(separator: ", ")
        return .polling(reason: "the events of \(deviceName) (\(kinds)) may fire on gravity alone")
    }

    /// The chip each ACPI id stands for, where a driver names its IIO device after the ACPI
    /// device: kxcjk-1013.c's `kx_acpi_match` (its name is then "i2c-KIOX000A:00").
    static let acpiChips: [String: String] = [
        "kxcj1013": "kxcjk1013", "kxcj1008": "kxcj91008", "kxcj9000": "kxcj91008", "kiox0008": "kxcj91008",
        "kiox0009": "kxtj21009", "kiox000a": "kxcj91008", "kiox010a": "kxcj91008", "kiox020a": "kxcj91008",
        "kxtj1009": "kxtj21009", "kxj2109": "kxtj21009", "smo8500": "kxcj91008",
    ]

    /// "kxcjk-1013" → "kxcjk1013"; an ACPI device name, "i2c-KIOX000A:00" → its chip, "kxcj91008":
    /// drivers and ACPI spell names differently.
    static func normalized(_ name: String) -> String {
        var base = Substring(name.split(separator: ":").first ?? Substring(name))
        if base.hasPrefix("i2c-") { base = base.dropFirst(4) }
        let letters = String(base.lowercased().filter { $0.isLetter || $0.isNumber })
        return acpiChips[letters] ?? letters
    }
}
