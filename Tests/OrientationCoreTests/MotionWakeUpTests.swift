@testable import OrientationCore
import Testing

/// Which accelerometer events may wake a still device, from the names of its `events/` files.
@Suite struct MotionWakeUpTests {
    @Test func aRateOfChangeEventIsMotionOnAnyDriver() {
        let files = ["in_accel_x_roc_either_en", "in_accel_x_roc_either_value", "in_accel_y_roc_either_en",
                     "in_accel_z_roc_either_en", "in_accel_roc_either_period"]
        let axes = MotionWakeUp.events(enable: ["in_accel_x_roc_either_en", "in_accel_y_roc_either_en", "in_accel_z_roc_either_en"])
        #expect(MotionWakeUp.choose(deviceName: "bmc150_accel", eventFiles: files) == axes)
        #expect(MotionWakeUp.choose(deviceName: "some_new_chip", eventFiles: files) == axes)
    }

    @Test func mma8452sTransientMagnitudeEventIsMotionNotItsFreeFall() {
        let files = ["in_accel_x&y&z_mag_falling_en", "in_accel_mag_rising_en", "in_accel_mag_rising_value"]
        #expect(MotionWakeUp.choose(deviceName: "mma8452", eventFiles: files) == .events(enable: ["in_accel_mag_rising_en"]))
    }

    /// bma400 has activity (mag rising), inactivity (mag falling) and AC-coupled activity: the
    /// adaptive one is motion by definition and wins.
    @Test func bma400PrefersItsAdaptiveActivityEvent() {
        let files = ["in_accel_mag_rising_en", "in_accel_mag_falling_en", "in_accel_mag_adaptive_rising_en", "in_steps_change_en"]
        #expect(MotionWakeUp.choose(deviceName: "bma400", eventFiles: files) == .events(enable: ["in_accel_mag_adaptive_rising_en"]))
        #expect(MotionWakeUp.choose(deviceName: "bma400", eventFiles: ["in_accel_mag_rising_en", "in_accel_mag_falling_en"])
            == .events(enable: ["in_accel_mag_rising_en"]))
    }

    /// Under ACPI the driver names its IIO device after the i2c client, "i2c-KIOX000A:00"
    /// (kxcjk1013_match_acpi_device returns dev_name(); i2c_dev_set_name prefixes "i2c-").
    @Test("kxcjk-1013's threshold event is its wake-up engine, however the name is spelt",
          arguments: ["kxcjk1013", "KXCJK1013:00", "kxcjk-1013", "kxtj21009", "i2c-KIOX000A:00", "i2c-KXCJ1013:00", "i2c-SMO8500:00"])
    func kxcjkThresholdIsMotion(name: String) {
        let files = ["in_accel_thresh_either_en", "in_accel_thresh_either_value", "in_accel_thresh_either_period"]
        #expect(MotionWakeUp.choose(deviceName: name, eventFiles: files) == .events(enable: ["in_accel_thresh_either_en"]))
    }

    /// A plain threshold on an unknown driver may be crossed by gravity alone: poll instead.
    @Test func aPlainThresholdOnAnUnknownDriverFallsBackToPolling() {
        guard case .polling(let reason) = MotionWakeUp.choose(deviceName: "accel_3d", eventFiles: ["in_accel_x_thresh_rising_en"]) else {
            Issue.record("a plain threshold was trusted")
            return
        }
        #expect(reason.contains("accel_3d") && reason.contains("thresh"))
    }

    @Test("no motion event: polling", arguments: [
        [String](), ["in_accel_x&y&z_mag_falling_en"], ["in_proximity_thresh_rising_en", "in_illuminance_thresh_either_en"],
        ["in_accel_x_roc_either_value", "garbage", "in_accel__en", "in_accel_en", "in_accel_x_en"],
    ])
    func noMotionEventPolls(files: [String]) {
        guard case .polling = MotionWakeUp.choose(deviceName: "mma8452", eventFiles: files) else {
            Issue.record("chose an event among \(files)")
            return
        }
    }

    /// bmi270's no-motion detector is a rate of change rising on the AND of the axes: it fires
    /// while the device is still, never on motion; its any-motion is on the OR.
    @Test func anAndCombinedEventIsNeverChosen() {
        let files = ["in_accel_x&y&z_roc_rising_en", "in_accel_x|y|z_roc_rising_en", "in_accel_roc_rising_value"]
        #expect(MotionWakeUp.choose(deviceName: "bmi270", eventFiles: files) == .events(enable: ["in_accel_x|y|z_roc_rising_en"]))
        guard case .polling = MotionWakeUp.choose(deviceName: "bmi270", eventFiles: ["in_accel_x&y&z_roc_rising_en"]) else {
            Issue.record("the no-motion event was chosen")
            return
        }
    }

    @Test func rawInTheNameIsUnderstood() {
        #expect(MotionWakeUp.EventFile("in_accel_x_raw_roc_rising_en")?.kind == "roc")
        #expect(MotionWakeUp.EventFile("in_accel_x&y&z_mag_adaptive_rising_en")?.kind == "mag_adaptive")
    }

    /// mma8652/3 have mma8452's event names but no high-pass filter: their level compares with
    /// gravity, so a still device would fire it forever.
    @Test func mma8652sPlainMagnitudeEventIsNotTrusted() {
        let files = ["in_accel_x_mag_rising_en", "in_accel_mag_rising_value"]
        #expect(MotionWakeUp.choose(deviceName: "mma8652", eventFiles: files) != .events(enable: ["in_accel_x_mag_rising_en"]))
    }

    /// mma8452 leaves its transient threshold at 8 g: orientd writes 1 m/s² in its 8 g / 127 steps.
    @Test func mma8452sThresholdIsSetToAHandsMotion() throws {
        let files = ["in_accel_x_mag_rising_en", "in_accel_y_mag_rising_en", "in_accel_z_mag_rising_en",
                     "in_accel_mag_rising_value", "in_accel_mag_rising_period"]
        let enable = ["in_accel_x_mag_rising_en", "in_accel_y_mag_rising_en", "in_accel_z_mag_rising_en"]
        let threshold = try #require(MotionWakeUp.threshold(deviceName: "mma8452", eventFiles: files, enable: enable, acceleration: 1))
        #expect(threshold.file == "in_accel_mag_rising_value")
        #expect(threshold.value == "2")
        #expect(MotionWakeUp.threshold(deviceName: "mma8452", eventFiles: files, enable: enable, acceleration: 0.01)?.value == "1")
        #expect(MotionWakeUp.threshold(deviceName: "mma8452", eventFiles: files, enable: enable, acceleration: 500)?.value == "127")
    }

    @Test func otherDriversKeepTheirOwnThreshold() {
        let files = ["in_accel_x_roc_either_en", "in_accel_x_roc_either_value"]
        #expect(MotionWakeUp.threshold(deviceName: "bmc150_accel", eventFiles: files, enable: ["in_accel_x_roc_either_en"], acceleration: 1) == nil)
    }

    /// Issue 43, point 9: inv_mpu6050's wake-on-motion (mpu6500 and later, Linux 6.10 on) is a
    /// `roc` rising on the OR of the axes; icm42600's is the same. Both drivers need an IRQ.
    @Test(arguments: ["mpu6500", "icm20602", "icm42688-accel"])
    func wakeOnMotionOfInvenSenseChips(name: String) {
        let files = ["in_accel_x|y|z_roc_rising_en", "in_accel_x|y|z_roc_rising_value"]
        #expect(MotionWakeUp.choose(deviceName: name, eventFiles: files) == .events(enable: ["in_accel_x|y|z_roc_rising_en"]))
    }

    /// Every driver of the table names the kernel file it was read from.
    @Test func theDriverTableNamesItsSources() {
        for row in MotionWakeUp.highPassedEvents {
            #expect(row.source.hasPrefix("drivers/iio/"), "\(row.names)")
        }
    }
}
