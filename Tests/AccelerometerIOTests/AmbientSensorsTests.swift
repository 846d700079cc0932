@testable import AccelerometerIO
import Glibc
import OrientationCore
import Testing

/// One device's files and udev properties, as a test sets them.
private final class FakeDevice: DeviceFiles {
    let device: IIODevice
    var files: [String: String]
    var unreadable: [String: Int32] = [:]
    var properties: [String: String] = [:]

    init(_ index: UInt32, name: String, files: [String: String], properties: [String: String] = [:]) {
        device = IIODevice(index: index, id: "iio:device\(index)", name: name, label: nil)
        self.files = files
        self.properties = properties
    }

    var sysname: String? { device.id }
    var isAccelerometer: Bool { AccelerometerDiscovery.axes.allSatisfy { files["in_\($0)_raw"] != nil } }

    func read(_ file: String) throws(IIOError) -> String? {
        if let code = unreadable[file] { throw IIOError(code: code, operation: "read \(file) of \(device.id)") }
        return files[file]
    }

    func udevProperty(_ name: String) -> String? { properties[name] }
}

@Suite struct AmbientSensorsTests {
    private let accelerometer = FakeDevice(0, name: "accel_3d", files: [
        "in_accel_x_raw": "0\n", "in_accel_y_raw": "-256\n", "in_accel_z_raw": "0\n", "in_accel_scale": "0.038307\n",
    ])

    @Test func aProcessedLevelIsScaled() throws {
        let device = FakeDevice(1, name: "als", files: ["in_illuminance_input": "10\n", "in_illuminance_scale": "1.0\n"])
        let sensor = try #require(try LightSensor(device))
        #expect(sensor.read() == .value(10))
        #expect(sensor.interval == 0.8)
        device.files["in_illuminance_input"] = "250.5\n"
        #expect(sensor.read() == .value(250.5))
        #expect(sensor.found == AmbientLoop.Found(device: "iio:device1 (als)", sysname: "iio:device1", interval: 0.8))
    }

    @Test func aRawLevelGetsItsOffsetThenTheScale() throws {
        let device = FakeDevice(1, name: "als", files: [
            "in_illuminance_raw": "1000\n", "in_illuminance_scale": "0.25\n", "in_illuminance_offset": "-20\n",
            "in_illuminance_integration_time": "0.2\n",
        ])
        let sensor = try #require(try LightSensor(device))
        #expect(sensor.read() == .value(245))
        #expect(sensor.interval == 0.2)
    }

    @Test func illuminance0IsScaledByItsOwnScale() throws {
        let device = FakeDevice(1, name: "als", files: [
            "in_illuminance0_raw": "300\n", "in_illuminance0_scale": "0.5\n", "in_illuminance_scale": "100\n",
        ])
        #expect(try LightSensor(device)?.read() == .value(150))
    }

    @Test func aZeroScaleCountsAsOne() throws {
        let device = FakeDevice(1, name: "als", files: ["in_intensity_clear_raw": "77\n", "in_illuminance_scale": "0\n"])
        #expect(try LightSensor(device)?.read() == .value(77))
    }

    @Test func anUnusableScaleRefusesTheSensorSayingWhichFileAndWhy() {
        let device = FakeDevice(1, name: "als", files: ["in_illuminance_raw": "77\n", "in_illuminance_scale": "lots\n"])
        #expect(throws: AmbientRefusal(description: "refusing the light sensor iio:device1 (als): its in_illuminance_scale is 'lots', not a number; "
            + "orientd will not guess a light level: the kernel driver reporting it must be fixed")) { try LightSensor(device) }
        device.files["in_illuminance_scale"] = "1\n"
        device.files["in_illuminance_offset"] = "-\n"
        #expect(throws: AmbientRefusal.self) { try LightSensor(device) }
    }

    @Test func garbageAndAbsurdLevelsAreFailedReadsNotLevels() throws {
        let device = FakeDevice(1, name: "als", files: ["in_illuminance_input": "abc\n"])
        let sensor = try #require(try LightSensor(device))
        #expect(sensor.read() == .failed(reason: "in_illuminance_input of iio:device1 (als) holds 'abc', not a number", gone: false))
        device.files["in_illuminance_input"] = "nan\n"
        #expect(sensor.read() == .failed(reason: "in_illuminance_input of iio:device1 (als) holds 'nan', not a number", gone: false))
        device.files["in_illuminance_input"] = "1e308\n"
        guard case .failed(_, gone: false) = sensor.read() else {
            Issue.record("1e308 lux was taken as a level")
            return
        }
        device.unreadable["in_illuminance_input"] = EIO
        guard case .failed(_, gone: false) = sensor.read() else {
            Issue.record("an I/O error was taken for a vanished sensor")
            return
        }
    }

    @Test func aVanishedFileIsAGoneSensor() throws {
        let device = FakeDevice(1, name: "als", files: ["in_illuminance_input": "3\n"])
        let sensor = try #require(try LightSensor(device))
        device.files = [:]
        #expect(sensor.read() == .failed(reason: "in_illuminance_input of iio:device1 (als) no longer exists", gone: true))
        device.unreadable["in_illuminance_input"] = ENODEV
        guard case .failed(_, gone: true) = sensor.read() else {
            Issue.record("ENODEV was not taken for a vanished sensor")
            return
        }
    }

    @Test func proximityTakesUdevsNearLevelBeforeTheDrivers() throws {
        let device = FakeDevice(2, name: "prox", files: ["in_proximity_raw": "256\n", "in_proximity_nearlevel": "50\n"],
                                properties: ["PROXIMITY_NEAR_LEVEL": "128"])
        let sensor = try #require(try ProximitySensor(device))
        #expect(sensor.nearLevel == 128)
        #expect(sensor.read() == .value(256))
        #expect(sensor.found == AmbientLoop.Found(device: "iio:device2 (prox)", sysname: "iio:device2", interval: 0.7, nearLevel: 128))
        device.properties = [:]
        #expect(try ProximitySensor(device)?.nearLevel == 50)
    }

    @Test func proximityWithoutANearLevelIsRefusedWithWhatToDo() throws {
        let device = FakeDevice(2, name: "prox", files: ["in_proximity0_raw": "3\n"])
        #expect(throws: AmbientRefusal.self) { try ProximitySensor(device) }
        do {
            _ = try ProximitySensor(device)
        } catch {
            #expect(error.description.hasPrefix("found proximity sensor iio:device2 (prox) but no PROXIMITY_NEAR_LEVEL udev property; set it in hwdb"))
        }
        device.properties["PROXIMITY_NEAR_LEVEL"] = "0"
        #expect(throws: AmbientRefusal.self, "0 is no level") { try ProximitySensor(device) }
        device.properties["PROXIMITY_NEAR_LEVEL"] = "40"
        let sensor = try #require(try ProximitySensor(device))
        #expect(sensor.file == "in_proximity0_raw")
    }

    @Test func anAccelerometerIsNeverAnAmbientSensorNorTheOtherWayRound() throws {
        var confused = accelerometer.files
        confused["in_illuminance_input"] = "5\n"
        confused["in_proximity_raw"] = "5\n"
        let device = FakeDevice(0, name: "accel_3d", files: confused, properties: ["PROXIMITY_NEAR_LEVEL": "1"])
        #expect(try LightSensor(device)?.found == nil)
        #expect(try ProximitySensor(device)?.found == nil)
        let found = AmbientDiscovery.discover([device])
        #expect(found.light == nil && found.proximity == nil && found.refusals.isEmpty)
    }

    /// Many chips (stk3310, ltr559, apds9960) are one IIO device with both channels.
    @Test func oneDeviceCanBeBothTheLightAndTheProximitySensor() {
        let combined = FakeDevice(1, name: "stk3310", files: ["in_illuminance_raw": "40\n", "in_proximity_raw": "0\n"],
                                  properties: ["PROXIMITY_NEAR_LEVEL": "100"])
        let found = AmbientDiscovery.discover([accelerometer, combined])
        #expect(found.light?.found.device == "iio:device1 (stk3310)")
        #expect(found.proximity?.found.device == "iio:device1 (stk3310)")
        #expect(found.light?.read() == .value(40))
        #expect(found.proximity?.read() == .value(0))
    }

    @Test func discoveryTakesTheFirstOfEachKindAndSaysWhyOthersAreRefused() {
        let light = FakeDevice(1, name: "als", files: ["in_illuminance_input": "10\n"])
        let secondLight = FakeDevice(2, name: "als2", files: ["in_illuminance_input": "20\n"])
        let proximity = FakeDevice(3, name: "prox", files: ["in_proximity_raw": "0\n"])
        let found = AmbientDiscovery.discover([accelerometer, light, secondLight, proximity])
        #expect(found.light?.found.device == "iio:device1 (als)")
        #expect(found.proximity == nil)
        #expect(found.refusals.count == 1)
        #expect(found.refusals.first?.contains("iio:device3 (prox) but no PROXIMITY_NEAR_LEVEL") == true)
    }
}

/// A magnetometer's tilt-compensated heading channel (HID sensor hubs' magn_3d) as a compass.
@Suite struct CompassSensorTests {
    private func magnetometer(_ files: [String: String]) -> FakeDevice {
        FakeDevice(3, name: "magn_3d", files: [
            "in_magn_x_raw": "100\n", "in_magn_y_raw": "-20\n", "in_magn_z_raw": "3\n", "in_magn_scale": "0.001\n",
        ].merging(files) { $1 })
    }

    @Test func theHeadingIsTheRawValueTimesTheChannelsScaleThenTheSharedOne() throws {
        let device = magnetometer(["in_rot_from_north_magnetic_tilt_comp_raw": "12350\n", "in_rot_scale": "0.01\n"])
        let compass = try #require(try CompassSensor(device))
        #expect(compass.read() == .value(123.5))
        #expect(compass.found == AmbientLoop.Found(device: "iio:device3 (magn_3d)", sysname: "iio:device3", interval: 0.7))
        device.files["in_rot_from_north_magnetic_tilt_comp_scale"] = "0.001\n"
        #expect(try CompassSensor(device)?.read() == .value(12.35), "the channel's own scale comes first")
    }

    @Test func aMissingOrZeroScaleCountsAsOneAndAnOffsetIsAddedFirst() throws {
        let device = magnetometer(["in_rot_from_north_magnetic_tilt_comp_raw": "271\n"])
        #expect(try CompassSensor(device)?.read() == .value(271))
        device.files["in_rot_scale"] = "0\n"
        #expect(try CompassSensor(device)?.read() == .value(271))
        device.files["in_rot_offset"] = "-1\n"
        #expect(try CompassSensor(device)?.read() == .value(270))
    }

    @Test func anUnusableScaleRefusesTheCompassSayingWhichFileAndWhy() {
        let device = magnetometer(["in_rot_from_north_magnetic_tilt_comp_raw": "10\n", "in_rot_scale": "-0.01\n"])
        #expect(throws: AmbientRefusal(description: "refusing the compass iio:device3 (magn_3d): its in_rot_scale is '-0.01', "
            + "negative: a scale must be positive; orientd will not guess a heading: the kernel driver reporting it must be fixed")) {
            try CompassSensor(device)
        }
        let found = AmbientDiscovery.discover([device])
        #expect(found.compass == nil && found.refusals.count == 1)
    }

    @Test func headingsOutsideACircleAndGarbageAreFailedReadsWithAReason() throws {
        let device = magnetometer(["in_rot_from_north_magnetic_tilt_comp_raw": "36000\n", "in_rot_scale": "0.01\n"])
        let compass = try #require(try CompassSensor(device))
        #expect(compass.read() == .failed(reason: "the compass iio:device3 (magn_3d): in_rot_from_north_magnetic_tilt_comp_raw reads 36000: "
            + "a heading of 360 degrees is not between 0 and 360", gone: false))
        device.files["in_rot_from_north_magnetic_tilt_comp_raw"] = "-5\n"
        guard case .failed(_, gone: false) = compass.read() else {
            Issue.record("a negative heading was taken")
            return
        }
        device.files["in_rot_from_north_magnetic_tilt_comp_raw"] = "north\n"
        #expect(compass.read() == .failed(reason: "in_rot_from_north_magnetic_tilt_comp_raw of iio:device3 (magn_3d) holds 'north', not a number",
                                          gone: false))
        device.files["in_rot_from_north_magnetic_tilt_comp_raw"] = "0\n"
        #expect(compass.read() == .value(0))
        device.files = [:]
        guard case .failed(_, gone: true) = compass.read() else {
            Issue.record("a vanished heading file was not a gone compass")
            return
        }
    }

    @Test func discoveryFindsTheCompassBesideTheOthersButNeverInAnAccelerometer() {
        var confused = [
            "in_accel_x_raw": "0\n", "in_accel_y_raw": "-256\n", "in_accel_z_raw": "0\n",
            "in_rot_from_north_magnetic_tilt_comp_raw": "90\n",
        ]
        #expect(AmbientDiscovery.discover([FakeDevice(0, name: "accel_3d", files: confused)]).compass == nil)
        confused["in_accel_z_raw"] = nil
        let light = FakeDevice(1, name: "als", files: ["in_illuminance_input": "10\n"])
        let found = AmbientDiscovery.discover([light, FakeDevice(2, name: "not_accel", files: confused),
                                               magnetometer(["in_rot_from_north_magnetic_tilt_comp_raw": "1\n"])])
        #expect(found.compass?.found.device == "iio:device2 (not_accel)", "the first device with the channel")
        #expect(found.light?.found.device == "iio:device1 (als)")
        #expect(found.refusals.isEmpty)
    }
}

/// An input device's capabilities as sysfs prints them: hexadecimal longs, the highest first.
@Suite struct CapabilityBitsTests {
    @Test func bitsAreReadFromTheLowestWordUp() {
        let proximity = CapabilityBits("10e00")  // gpio-keys: SW_CAMERA_LENS_COVER, SW_FRONT_PROXIMITY, ...
        #expect(proximity.contains(InputProximitySensor.frontProximity))
        #expect(proximity.contains(9) && proximity.contains(16))
        #expect(!proximity.contains(12) && !proximity.contains(0))
        let accelerometer = CapabilityBits("7\n")
        #expect([0, 1, 2].allSatisfy(accelerometer.contains) && !accelerometer.contains(3))
        let twoWords = CapabilityBits("1 0")
        #expect(twoWords.contains(MemoryLayout<Int>.size * 8) && !twoWords.contains(0))
        #expect(!CapabilityBits("").contains(0))
    }
}
