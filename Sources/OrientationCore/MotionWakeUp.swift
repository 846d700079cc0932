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

    /// The kinds of event that mean motion on any driver, best first. `roc` is a rate of change:
    /// bmc150-accel-core.c's slope (any-motion) detector, and the wake-on-motion of
    /// inv_icm42600_accel.c and of inv_mpu_core.c (mpu6500 and later, Linux 6.10 on), both on
    /// the OR of the axes (`in_accel_x|y|z_roc_rising_en`).
    static let motionKinds = ["roc", "mag_adaptive", "thresh_adaptive"]

    /// A driver whose plain event of one kind is a high-passed motion detector, as its kernel
    /// source makes it: the table is data, each row naming the file it was read from.
    struct HighPassedEvent {
        /// The IIO `name`s the driver gives its devices (`normalized`).
        let names: Set<String>
        /// The event kind that is motion on it: "mag", "thresh".
        let kind: String
        /// m/s² per count of the event's `_value`, where the driver leaves a threshold a hand's
        /// turn would not cross (orientd then writes its own); nil where the driver's stays.
        let step: Double?
        /// Where in the kernel this comes from.
        let source: String
    }

    static let highPassedEvents: [HighPassedEvent] = [
        HighPassedEvent(names: ["mma8451", "mma8452", "mma8453", "fxls8471"], kind: "mag", step: 8 * 9.80665 / 127,
                        source: "drivers/iio/accel/mma8452.c: the transient detector (high-passed), threshold in steps of 8 g / 127 whatever the range, set to 127 at probe"),
        HighPassedEvent(names: ["bma400"], kind: "mag", step: nil,
                        source: "drivers/iio/accel/bma400_core.c: activity detection (generic interrupt 1, AC-referenced), 80 mg written at each enabling"),
        HighPassedEvent(names: ["kxcjk1013", "kxcj91008", "kxtj21009", "kxtf9", "kx0231025"], kind: "thresh", step: nil,
                        source: "drivers/iio/accel/kxcjk-1013.c: the wake-up engine (motion over the threshold in 1 count steps)"),
    ]

    static func highPassed(_ deviceName: String) -> HighPassedEvent? {
        let name = normalized(deviceName)
        return highPassedEvents.first { $0.names.contains(name) }
    }

    /// The `_value` file to write before enabling `enable`, and the count that stands for a
    /// motion of `acceleration` m/s² (at least 1); nil where the driver's own threshold stays.
    public static func threshold(deviceName: String, eventFiles: [String], enable: [String],
                                 acceleration: Double) -> (file: String, value: String)? {
        guard let step = highPassed(deviceName)?.step, let first = enable.first.flatMap(EventFile.init) else { return nil }
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
        let trusted = motionKinds + (highPassed(deviceName).map { [$0.kind] } ?? [])
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
