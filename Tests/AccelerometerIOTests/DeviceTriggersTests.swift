import AccelerometerIO
import Testing

/// Which trigger clocks a device's buffer, and whether its interrupt line is wired, from the
/// trigger names the kernel's drivers register.
@Suite struct DeviceTriggersTests {
    @Test("the data-ready trigger, as drivers name it", arguments: [
        ("bmc150_accel", "iio:device0", ["bmc150_accel-any-motion-dev0", "bmc150_accel-dev0"], "bmc150_accel-dev0"),
        ("accel_3d", "iio:device2", ["als-dev1", "accel_3d-dev2"], "accel_3d-dev2"),
        ("lis3dh", "iio:device0", ["lis3dh-trigger"], "lis3dh-trigger"),
        ("kx022-accel", "iio:device1", ["kx022-accel-acceldata-rdy-dev1"], "kx022-accel-acceldata-rdy-dev1"),
        ("bmi270", "iio:device0", ["bmi270-trig"], "bmi270-trig"),
        ("KIOX000A:00", "iio:device0", ["KIOX000A:00-any-motion-dev0", "KIOX000A:00-dev0"], "KIOX000A:00-dev0"),
    ])
    func dataReady(name: String, id: String, triggers: [String], expected: String) {
        let found = DeviceTriggers(deviceName: name, deviceID: id, triggers: triggers)
        #expect(found.dataReady == expected)
        #expect(found.showInterruptLine)
    }

    /// A trigger ending in "-dev<N>" belongs to iio:deviceN, whatever it starts with (as in
    /// iio-sensor-proxy's buffered scenario), and never to a sibling of the same name.
    @Test func theDeviceNumberDecides() {
        let named = DeviceTriggers(deviceName: "IIO Test Accelerometer", deviceID: "iio:device0", triggers: ["accel_3d-dev0"])
        #expect(named.dataReady == "accel_3d-dev0")
        let sibling = DeviceTriggers(deviceName: "bmc150_accel", deviceID: "iio:device1",
                                     triggers: ["bmc150_accel-dev0", "bmc150_accel-any-motion-dev0"])
        #expect(sibling.own.isEmpty, "the display bmc150's triggers are not the base's")
        #expect(!sibling.showInterruptLine)
        let nameless = DeviceTriggers(deviceName: "", deviceID: "iio:device2", triggers: ["lis3dh-trigger", "als-dev1"])
        #expect(nameless.own.isEmpty)
    }

    @Test func noTriggerOfItsOwnMeansNoInterruptLine() {
        // bmc150 on an i2c bus with no IRQ: the hub's trigger beside it is not its own.
        let found = DeviceTriggers(deviceName: "bmc150_accel", deviceID: "iio:device1", triggers: ["accel_3d-dev0"])
        #expect(found.dataReady == nil)
        #expect(!found.showInterruptLine)
    }

    @Test func onlyAMotionTriggerClocksNothing() {
        let found = DeviceTriggers(deviceName: "bmc150_accel", deviceID: "iio:device0", triggers: ["bmc150_accel-any-motion-dev0"])
        #expect(found.dataReady == nil)
        #expect(found.showInterruptLine)
    }

    @Test func twoCandidatesChooseNone() {
        let found = DeviceTriggers(deviceName: "acc", deviceID: "iio:device0", triggers: ["acc-a", "acc-b"])
        #expect(found.dataReady == nil)
    }
}
