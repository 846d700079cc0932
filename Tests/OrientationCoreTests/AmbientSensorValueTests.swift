import OrientationCore
import Testing

@Suite struct LightChannelTests {
    @Test func aProcessedValueIsPreferredToARawOne() {
        let files: Set = ["in_illuminance_raw", "in_illuminance0_input"]
        let channel = LightChannel(choosingFrom: files.contains)
        #expect(channel == LightChannel(channel: "in_illuminance0", isRaw: false))
        #expect(channel?.file == "in_illuminance0_input")
        #expect(channel?.offsetFile == nil, "an _input value is lux already: no offset")
    }

    @Test func theChannelsAreTriedInIioSensorProxysOrder() {
        #expect(LightChannel(choosingFrom: ["in_intensity_clear_input", "in_illuminance_clear_input"].contains)?.channel == "in_illuminance_clear")
        #expect(LightChannel(choosingFrom: ["in_intensity_clear_raw", "in_illuminance0_raw"].contains)
            == LightChannel(channel: "in_illuminance0", isRaw: true))
        #expect(LightChannel(choosingFrom: ["in_intensity_clear_raw"].contains)?.file == "in_intensity_clear_raw")
    }

    @Test func aDeviceWithoutAnyOfThemIsNoLightSensor() {
        #expect(LightChannel(choosingFrom: ["in_accel_x_raw", "in_proximity_raw", "in_illuminance_scale"].contains) == nil)
    }

    @Test func illuminance0HasItsOwnScaleTheOthersShareIlluminances() {
        #expect(LightChannel(channel: "in_illuminance0", isRaw: true).scaleFile == "in_illuminance0_scale")
        #expect(LightChannel(channel: "in_illuminance", isRaw: true).scaleFile == "in_illuminance_scale")
        #expect(LightChannel(channel: "in_intensity_clear", isRaw: true).scaleFile == "in_illuminance_scale")
        #expect(LightChannel(channel: "in_illuminance0", isRaw: true).offsetFile == "in_illuminance0_offset")
    }

    @Test func theIntegrationTimeIsLookedForOnTheChannelFirst() {
        #expect(LightChannel(channel: "in_intensity_clear", isRaw: true).integrationTimeFiles
            == ["in_intensity_clear_integration_time", "in_illuminance_integration_time", "in_illuminance0_integration_time"])
        #expect(LightChannel(channel: "in_illuminance", isRaw: false).integrationTimeFiles
            == ["in_illuminance_integration_time", "in_illuminance0_integration_time"])
    }
}

@Suite struct LightCalibrationTests {
    @Test func aLevelIsTheValuePlusTheOffsetTimesTheScale() throws {
        #expect(LightCalibration(scale: 0.5, offset: 0).lux(fromValue: 300) == 150)
        #expect(LightCalibration(scale: 2, offset: -10).lux(fromValue: 60) == 100)
        #expect(LightCalibration().lux(fromValue: 42.5) == 42.5)
    }

    @Test func aMissingOrZeroScaleCountsAsOneAsInIioSensorProxy() throws {
        #expect(try LightCalibration.scale(fromText: nil) == 1)
        #expect(try LightCalibration.scale(fromText: "0\n") == 1)
        #expect(try LightCalibration.scale(fromText: "0.000000\n") == 1)
        #expect(try LightCalibration.scale(fromText: "1.0\n") == 1)
        #expect(try LightCalibration.scale(fromText: "0.012500\n") == 0.0125)
    }

    @Test("a scale that is not a positive number refuses the sensor", arguments: ["abc", "", "nan", "inf", "-0.5", "1,5", "0x10"])
    func unusableScale(text: String) {
        #expect(throws: CalibrationValueError.self) { try LightCalibration.scale(fromText: text + "\n") }
    }

    @Test func anOffsetIsReadAsCountsAndAbsentIsZero() throws {
        #expect(try LightCalibration.offset(fromText: nil) == 0)
        #expect(try LightCalibration.offset(fromText: "-12\n") == -12)
        #expect(throws: CalibrationValueError.self) { try LightCalibration.offset(fromText: "twelve") }
        #expect(throws: CalibrationValueError.self) { try LightCalibration.offset(fromText: "1e12") }
    }

    @Test func theErrorQuotesTheValueAndSaysWhy() {
        #expect(throws: CalibrationValueError(text: "abc", reason: "not a number")) { try LightCalibration.scale(fromText: "abc\n") }
        #expect(throws: CalibrationValueError(text: "-2", reason: "negative: a scale must be positive")) { try LightCalibration.scale(fromText: "-2") }
    }

    @Test("levels no sensor gives", arguments: [Double.nan, .infinity, -.infinity, -0.5, 1e7 + 1, 1e308])
    func implausibleLevel(lux: Double) {
        #expect(LightCalibration.problem(withLevel: lux) != nil)
    }

    @Test("levels a sensor can give", arguments: [0, 0.01, 350, 130_000, 1e7])
    func plausibleLevel(lux: Double) {
        #expect(LightCalibration.problem(withLevel: lux) == nil)
    }
}

@Suite struct LightPollingTests {
    @Test func aSaneIntegrationTimeIsTheInterval() {
        #expect(LightPolling.interval(fromIntegrationTime: "0.100000\n") == 0.1)
        #expect(LightPolling.interval(fromIntegrationTime: "0.8") == 0.8)
        #expect(LightPolling.interval(fromIntegrationTime: "5") == 5)
    }

    @Test("otherwise 0.8 s", arguments: [nil, "", "abc", "0", "-1", "0.000050", "0.01", "100", "nan"] as [String?])
    func defaultInterval(text: String?) {
        #expect(LightPolling.interval(fromIntegrationTime: text) == LightPolling.defaultInterval)
        #expect(LightPolling.defaultInterval == 0.8)
    }
}

@Suite struct ProximityDetectorTests {
    /// The answers of `detector` to `raws`, one after another.
    private func answers(_ detector: ProximityDetector, _ raws: [Double]) -> [Bool] {
        var detector = detector
        return raws.map { detector.update(raw: $0) }
    }

    /// iio-sensor-proxy's decision (drv-iio-poll-proximity.c): the margin follows the previous
    /// raw reading. Probed on Debian's 3.0 with a near level of 128, each value held 3 s (four
    /// polls): near at 129 and 135, far at 127, 120 and 125 once near.
    @Test(arguments: [
        // (raw values in order, the answers) — a held value is polled twice here.
        ([129, 129], [false, true]),                          // from 0: one poll late
        ([135, 135], [false, true]),
        ([135, 135, 127, 127], [false, true, true, false]),   // near, then 127: far a poll later
        ([135, 135, 120, 120], [false, true, true, false]),
        ([135, 135, 125, 125], [false, true, true, false]),
        ([141, 141], [true, true]),                           // above the level + 10%: at once
        ([200, 116, 116], [true, true, false]),               // just above the level - 10%, from above: near once
        ([200, 114], [true, false]),                          // at or below 115.2: far at once
        ([0, 128, 128], [false, false, false]),               // the level itself is not near
    ] as [([Double], [Bool])])
    func itDecidesAsIioSensorProxyDoes(raws: [Double], expected: [Bool]) {
        #expect(answers(ProximityDetector(nearLevel: 128), raws) == expected)
    }

    @Test func itStartsFar() {
        #expect(!ProximityDetector(nearLevel: 100).isNear)
        #expect(ProximityDetector(nearLevel: 100).previousRaw == 0)
    }

    /// A value hovering about the level follows it one poll late, as the incumbent's does.
    @Test func aHoveringValueFollowsOnePollLate() {
        #expect(answers(ProximityDetector(nearLevel: 128), [127, 129, 127, 129, 200, 127, 129, 127])
            == [false, false, true, false, true, true, false, true])
    }

    @Test func theNearLevelMustBeAPositiveNumber() throws {
        #expect(try ProximityDetector.nearLevel(fromText: "128") == 128)
        #expect(try ProximityDetector.nearLevel(fromText: "25.5\n") == 25.5)
        #expect(throws: CalibrationValueError(text: "0", reason: "zero: a near level must be positive")) {
            try ProximityDetector.nearLevel(fromText: "0")
        }
        for text in ["", "abc", "-5", "nan", "1e10"] {
            #expect(throws: CalibrationValueError.self, "\(text)") { try ProximityDetector.nearLevel(fromText: text) }
        }
    }

    @Test func rawValuesBeyondThirtyTwoBitsAreRefused() {
        #expect(ProximityDetector.problem(withRaw: 65535) == nil)
        #expect(ProximityDetector.problem(withRaw: 0) == nil)
        #expect(ProximityDetector.problem(withRaw: 1e19) != nil)
        #expect(ProximityDetector.problem(withRaw: .nan) != nil)
    }
}

@Suite struct CompassCalibrationTests {
    @Test func aHeadingIsTheRawValuePlusTheOffsetTimesTheScale() {
        #expect(CompassCalibration(scale: 0.01).heading(fromRaw: 12350) == 123.5)
        #expect(CompassCalibration(scale: 0.1, offset: -10).heading(fromRaw: 100) == 9)
        #expect(CompassCalibration().heading(fromRaw: 271) == 271)
    }

    @Test func aMissingOrZeroScaleIsOneAndGarbageIsRefused() throws {
        #expect(try CompassCalibration.scale(fromText: nil) == 1)
        #expect(try CompassCalibration.scale(fromText: "0\n") == 1)
        #expect(try CompassCalibration.scale(fromText: "0.000010\n") == 0.00001)
        #expect(throws: CalibrationValueError(text: "degrees", reason: "not a number")) { try CompassCalibration.scale(fromText: "degrees\n") }
        #expect(try CompassCalibration.offset(fromText: nil) == 0)
        #expect(throws: CalibrationValueError.self) { try CompassCalibration.offset(fromText: "1e12") }
    }

    @Test func onlyAHeadingFromZeroToBelow360IsPlausible() {
        for heading in [0, 0.001, 123.5, 359.99] { #expect(CompassCalibration.problem(withHeading: heading) == nil, "\(heading)") }
        #expect(CompassCalibration.problem(withHeading: 360) == "a heading of 360 degrees is not between 0 and 360")
        #expect(CompassCalibration.problem(withHeading: -0.5) == "a heading of -0.5 degrees is not between 0 and 360")
        #expect(CompassCalibration.problem(withHeading: .nan) != nil)
        #expect(CompassCalibration.problem(withHeading: .infinity) != nil)
    }

    @Test func theChannelIsIioSensorProxysWithItsOwnScaleBeforeTheSharedOne() {
        #expect(CompassChannel.file == "in_rot_from_north_magnetic_tilt_comp_raw")
        #expect(CompassChannel.scaleFiles == ["in_rot_from_north_magnetic_tilt_comp_scale", "in_rot_scale"])
        #expect(CompassChannel.interval == 0.7)
    }
}

/// An hwmon light sensor's "(A,B)": the brighter of the two, in percent of 255, as
/// iio-sensor-proxy's hwmon-als driver reads it (its own tests: (128,128) is 50, (255,255) 100).
@Suite struct HwmonLightLevelTests {
    @Test(arguments: [("(128,128)\n", 128.0), ("(255,255)", 255), ("(0,0)", 0), ("(200,10)", 200), ("(3, 250)", 250)])
    func levels(text: String, brighter: Double) {
        #expect(HwmonLightLevel.percent(fromText: text) == brighter / 255 * 100)
    }

    @Test(arguments: ["", "128,128", "(128)", "(a,b)", "(1,2,3)", "(,5)", "(5,)", "(1.5,2)"])
    func notALevel(text: String) {
        #expect(HwmonLightLevel.percent(fromText: text) == nil)
    }
}
