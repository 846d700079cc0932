import Glibc
import OrientationCore
import Testing

@Suite struct CalibrationTests {
    @Test func appliesOffsetBeforeScale() {
        // IIO ABI: value = (raw + offset) * scale
        #expect(AxisCalibration(scale: 0.5, offset: 3).acceleration(fromRaw: 7) == 5)
        #expect(AxisCalibration().acceleration(fromRaw: -25.6) == -25.6)
    }

    @Test func decimalRawTimesScale() throws {
        let raw = try #require(parseDecimal("-25.6\n"))
        let scale = try #require(parseDecimal("10"))
        #expect(abs(AxisCalibration(scale: scale).acceleration(fromRaw: raw) - -256) < 1e-9)
    }

    @Test func perAxisCalibration() {
        let calibration = AccelerometerCalibration(
            x: AxisCalibration(scale: 2, offset: 1), y: AxisCalibration(scale: 1), z: AxisCalibration(scale: 0.5, offset: -2))
        #expect(calibration.acceleration(fromRaw: Vector3(1, 2, 4)) == Vector3(4, 2, 1))
    }

    @Test("sysfs numbers parse", arguments: [
        ("523", 523.0), ("-25.6\n", -25.6), ("0.000010", 0.00001), (" 12.500000 ", 12.5), ("1e-3", 0.001), ("+3", 3),
        (".5", 0.5), ("5.", 5), ("1E+2", 100),
    ])
    func parsesNumbers(text: String, value: Double) {
        #expect(parseDecimal(text) == value)
    }

    @Test("garbage is not a number", arguments: ["abc", "", "\n", "nan", "inf", "0x10", "1,5", "12abc",
                                                   "1-2", "+-1", "1e", "e5", ".", "-", "1..2", "1e2.5", "1 2", "1e400"])
    func rejectsGarbage(text: String) {
        #expect(parseDecimal(text) == nil)
    }

    /// The peer's suite reads scale '0.000010' under fr_FR, whose decimal separator is a comma.
    /// The locale is switched for this thread only, and the test checks the switch really took.
    @Test func parsesTheSameUnderACommaDecimalLocale() throws {
        let numericMask = Int32(1 << LC_NUMERIC)
        let french: locale_t = try #require(newlocale(numericMask, "fr_FR.UTF-8", nil) as locale_t?, "fr_FR.UTF-8 locale missing: run scripts/setup")
        defer { freelocale(french) }
        let previous = uselocale(french)
        defer { uselocale(previous) }
        #expect(String(cString: localeconv().pointee.decimal_point) == ",")
        #expect(parseDecimal("0.000010") == 0.00001)
        #expect(SamplingFrequency.parseAvailable("800.000000 12.500000 6.250000") == [800, 12.5, 6.25])
    }
}

@Suite struct SamplingFrequencyTests {
    @Test func raisesToSlowestListedRateAboveTen() {
        let available = SamplingFrequency.parseAvailable("3 6 12 25 50 100 200 400 800 1600")
        #expect(SamplingFrequency.raised(current: 5.2, available: available) == 12)
    }

    @Test func readsDecimalListsInDescendingOrder() {
        let available = SamplingFrequency.parseAvailable("800.000000 400.000000 200.000000 100.000000 50.000000 25.000000 12.500000 6.250000 1.560000")
        #expect(SamplingFrequency.raised(current: 6.25, available: available) == 12.5)
    }

    @Test func raisesToTenWithoutAList() {
        #expect(SamplingFrequency.raised(current: 5.2, available: []) == 10)
        #expect(formatDecimal(10) == "10")
        #expect(formatDecimal(12.5) == "12.5")
    }

    @Test func leavesFastEnoughSensorsAlone() {
        #expect(SamplingFrequency.raised(current: 10, available: []) == nil)
        #expect(SamplingFrequency.raised(current: 100, available: [3, 6]) == nil)
    }
}

@Suite struct SensorLocationTests {
    @Test func udevPropertyWins() {
        #expect(SensorLocation(udevLocation: "base", sysfsLabel: "accel-display") == .base)
        #expect(SensorLocation(udevLocation: "display\n", sysfsLabel: nil) == .display)
    }

    @Test func labelIsReadWhenUdevSaysNothing() {
        #expect(SensorLocation(udevLocation: nil, sysfsLabel: "accel-base\n") == .base)
        #expect(SensorLocation(udevLocation: "elsewhere", sysfsLabel: "accel-display") == .display)
        #expect(SensorLocation(udevLocation: nil, sysfsLabel: "proximity") == nil)
    }

    /// ChromeOS EC sensors before Linux 6.0: a `location` file, "lid" or "base", and no label.
    @Test func chromeOSLocationIsReadWhenNothingElseSays() {
        #expect(SensorLocation(udevLocation: nil, sysfsLabel: nil, sysfsLocation: "lid\n") == .display)
        #expect(SensorLocation(udevLocation: nil, sysfsLabel: nil, sysfsLocation: "base") == .base)
        #expect(SensorLocation(udevLocation: nil, sysfsLabel: "accel-display", sysfsLocation: "base") == .display)
        #expect(SensorLocation(udevLocation: "base", sysfsLabel: nil, sysfsLocation: "lid") == .base)
        #expect(SensorLocation(udevLocation: nil, sysfsLabel: nil, sysfsLocation: "camera") == nil)
    }
}

/// A driver with no scale: the first reading that is not zero is 1 g; the judge learns the rest.
@Suite struct ScaleFromReadingsTests {
    @Test func theFirstReadingIsOneG() {
        var scale = ScaleFromReadings()
        #expect(scale.acceleration(fromCounts: Vector3(0, 0, 0)) == Vector3(0, 0, 0))
        #expect(scale.scale == nil)
        let first = scale.acceleration(fromCounts: Vector3(0, -4096, 0))
        #expect(abs(first.y + 9.80665) < 1e-9)
        // Later readings keep the first one's scale: a turn stays 1 g, a shake is 2 g.
        let turned = scale.acceleration(fromCounts: Vector3(4096, 0, 0))
        #expect(abs(turned.x - 9.80665) < 1e-9)
        #expect(abs(scale.acceleration(fromCounts: Vector3(0, 0, 8192)).z - 2 * 9.80665) < 1e-9)
    }

    /// A first reading far below 1 g (one count) would make every later one beyond 100 g: the
    /// first reading 50 g or more away is taken as 1 g instead.
    @Test func aTinyFirstReadingIsReplaced() {
        var scale = ScaleFromReadings()
        _ = scale.acceleration(fromCounts: Vector3(0, 1, 0))
        let real = scale.acceleration(fromCounts: Vector3(0, -4096, 0))
        #expect(abs(real.y + 9.80665) < 1e-9)
        #expect(abs(scale.acceleration(fromCounts: Vector3(8192, 0, 0)).x - 2 * 9.80665) < 1e-9, "a shake keeps the scale")
    }

    @Test func garbageGivesNoScale() {
        var scale = ScaleFromReadings()
        _ = scale.acceleration(fromCounts: Vector3(.nan, 0, 0))
        #expect(scale.scale == nil)
    }
}

/// The scale and offset attributes: missing is the IIO default; present must be usable.
@Suite struct CalibrationValueTests {
    @Test func missingAttributesAreTheDefaults() throws {
        #expect(try AxisCalibration.scale(fromAttribute: nil) == 1)
        #expect(try AxisCalibration.offset(fromAttribute: nil) == 0)
    }

    @Test("usable scales", arguments: [("0.038307\n", 0.038307), ("0.000598", 0.000598), ("9.80665", 9.80665), ("1e-9", 1e-9), ("100", 100)])
    func usableScales(text: String, value: Double) throws {
        #expect(try AxisCalibration.scale(fromAttribute: text) == value)
    }

    @Test("unusable scales are refused with the value and why", arguments: [
        ("nan", "'nan' is not a number"),
        ("inf\n", "'inf' is not a number"),
        ("abc", "'abc' is not a number"),
        ("", "'' is empty, not a number"),
        (" \n", "'' is empty, not a number"),
        ("0", "'0' is zero: a scale must be positive"),
        ("-0.0", "'-0.0' is zero: a scale must be positive"),
        ("-0.01", "'-0.01' is negative: a scale must be positive"),
        ("18446744073709551616", "'18446744073709551616' is outside 1e-9 to 100 m/s² per count, the scales of real accelerometers"),
        ("1e-12", "'1e-12' is outside 1e-9 to 100 m/s² per count, the scales of real accelerometers"),
        (String(repeating: "9", count: 5000), "'\(String(repeating: "9", count: 40))... (5000 characters)' is not a number"),
        ("0.01\u{1B}[31m", "'0.01\\u{1B}[31m' is not a number"),
    ])
    func unusableScales(text: String, message: String) {
        #expect(throws: CalibrationValueError.self) { try AxisCalibration.scale(fromAttribute: text) }
        do {
            _ = try AxisCalibration.scale(fromAttribute: text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func offsets() throws {
        #expect(try AxisCalibration.offset(fromAttribute: "-12\n") == -12)
        #expect(try AxisCalibration.offset(fromAttribute: "4294967296") == 4_294_967_296)
        #expect(throws: CalibrationValueError(text: "4294967297", reason: "beyond ±2^32 counts, more than any raw value")) {
            try AxisCalibration.offset(fromAttribute: "4294967297")
        }
        #expect(throws: CalibrationValueError(text: "nan", reason: "not a number")) { try AxisCalibration.offset(fromAttribute: "nan") }
    }
}

/// orientd's one way to write a number, for logs, the config file and sysfs.
@Suite struct DecimalFormattingTests {
    @Test("numbers are written as they read back", arguments: [
        (100.0, "100"), (22.5, "22.5"), (-0.0, "0"), (-3, "-3"), (1e19, "1e+19"), (0.000125, "0.000125"),
    ])
    func formats(value: Double, text: String) {
        #expect(formatDecimal(value) == text)
        #expect(parseDecimal(text) == value)
    }
}

/// A part with x and y only: z is what gravity leaves over, the screen taken to face up.
@Suite struct TwoAxisReadingTests {
    @Test func zIsWhatGravityLeavesOver() {
        let g = 9.80665
        #expect(TwoAxisReading.completed(x: 0, y: -g) == Vector3(0, -g, 0))
        #expect(TwoAxisReading.completed(x: 0, y: 0) == Vector3(0, 0, g))
        let leaning = TwoAxisReading.completed(x: 0, y: -g / 2)
        #expect(abs(leaning.magnitude - g) < 1e-9 && leaning.z > 0)
        #expect(TwoAxisReading.completed(x: 2 * g, y: 0) == Vector3(2 * g, 0, 0), "a shake: no z")
        // On the back of the board the matrix flips z: the screen's front is the part's -z.
        let back = try! MountMatrix(parsing: "-1, 0, 0; 0, 1, 0; 0, 0, -1")
        let flat = TwoAxisReading.completed(x: 0, y: 0, mounting: back)
        #expect(back.apply(to: flat) == Vector3(0, 0, g))
    }
}
