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
    ])
    func parsesNumbers(text: String, value: Double) {
        #expect(parseDecimal(text) == value)
    }

    @Test("garbage is not a number", arguments: ["abc", "", "\n", "nan", "inf", "0x10", "1,5", "12abc"])
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
        #expect(SamplingFrequency.format(10) == "10")
        #expect(SamplingFrequency.format(12.5) == "12.5")
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
}
