import CUmockdevShim
import Foundation
import OrientationCore

/// Ambient sensors beside the emulated accelerometer: an ambient light sensor, a proximity
/// sensor and a compass, each described with what libiio reads (sysfs attributes) and what iio-sensor-proxy
/// needs to take it (its IIO_SENSOR_PROXY_TYPE udev property, and PROXIMITY_NEAR_LEVEL), so one
/// testbed can feed orientd and iio-sensor-proxy alike.
extension EmulatedAccelerometer {
    public static let lightDevicePath = "/devices/platform/orientd-als/iio:device1"
    public static let proximityDevicePath = "/devices/platform/orientd-prox/iio:device2"
    public static let compassDevicePath = "/devices/platform/orientd-magn/iio:device3"
    /// The scale of the emulated compass's raw heading (hundredths of a degree).
    public static let compassScale = 0.01
    /// The near level the emulated proximity sensor's udev record gives.
    public static let proximityNearLevel = 128

    /// `standard`'s accelerometer (iio:device0) in `orientation`, marked for iio-sensor-proxy as
    /// iio-poll-accel, with an ambient light sensor (iio:device1, "als", reading `lux` from
    /// in_illuminance_input at scale 1) and a proximity sensor (iio:device2, "prox", reading
    /// `proximityRaw` from in_proximity_raw, near level 128); either can be left out. With
    /// `compass`, a magnetometer too (iio:device3, "magn_3d") whose heading is `heading`.
    public static func withAmbientSensors(_ orientation: Orientation = .portrait, lux: Double = 10, proximityRaw: Int = 0,
                                          light: Bool = true, proximity: Bool = true,
                                          compass: Bool = false, heading: Double = 0) throws -> EmulatedAccelerometer {
        var others: [String] = []
        if light { others.append(lightSensor(lux: lux)) }
        if proximity { others.append(proximitySensor(raw: proximityRaw)) }
        if compass { others.append(self.compass(heading: heading)) }
        return try EmulatedAccelerometer(attributes: standardAttributes(orientation),
                                         properties: ["IIO_SENSOR_PROXY_TYPE": "iio-poll-accel"],
                                         otherDevices: others.joined(separator: "\n"))
    }

    /// umockdev's description of the light sensor.
    public static func lightSensor(lux: Double) -> String {
        """
        P: \(lightDevicePath)
        N: iio:device1
        E: SUBSYSTEM=iio
        E: DEVNAME=/dev/iio:device1
        E: DEVTYPE=iio_device
        E: IIO_SENSOR_PROXY_TYPE=iio-poll-als
        A: name=als\\n
        A: in_illuminance_input=\(format(lux))\\n
        A: in_illuminance_scale=1.0\\n

        """
    }

    public static let hwmonLightDevicePath = "/devices/platform/applesmc.768"

    /// umockdev's description of an hwmon light sensor as Apple's applesmc presents it: its
    /// platform device's `light` holds the levels of its two sensors, "(A,B)", 0 to 255, and udev
    /// marks it hwmon-als for iio-sensor-proxy (as its own tests do); the hwmon device below it,
    /// hwmon3, is named applesmc.
    public static func hwmonLightSensor(_ a: Int, _ b: Int) -> String {
        """
        P: \(hwmonLightDevicePath)
        E: SUBSYSTEM=platform
        E: MODALIAS=platform:applesmc
        E: IIO_SENSOR_PROXY_TYPE=hwmon-als
        A: light=(\(a),\(b))\\n

        P: \(hwmonLightDevicePath)/hwmon/hwmon3
        E: SUBSYSTEM=hwmon
        A: name=applesmc\\n
        L: device=../../../applesmc.768

        """
    }

    public func setHwmonLight(_ a: Int, _ b: Int) {
        set("light", "(\(a),\(b))", device: Self.hwmonLightDevicePath)
    }

    /// umockdev's description of the proximity sensor.
    public static func proximitySensor(raw: Int) -> String {
        """
        P: \(proximityDevicePath)
        N: iio:device2
        E: SUBSYSTEM=iio
        E: DEVNAME=/dev/iio:device2
        E: DEVTYPE=iio_device
        E: IIO_SENSOR_PROXY_TYPE=iio-poll-proximity
        E: PROXIMITY_NEAR_LEVEL=\(proximityNearLevel)
        A: name=prox\\n
        A: in_proximity_raw=\(raw)\\n

        """
    }

    /// umockdev's description of the compass: a HID sensor hub's magnetometer with its
    /// tilt-compensated heading channel, the one iio-sensor-proxy's udev rule marks iio-buffer-compass.
    public static func compass(heading: Double) -> String {
        """
        P: \(compassDevicePath)
        N: iio:device3
        E: SUBSYSTEM=iio
        E: DEVNAME=/dev/iio:device3
        E: DEVTYPE=iio_device
        E: IIO_SENSOR_PROXY_TYPE=iio-buffer-compass
        A: name=magn_3d\\n
        A: in_magn_x_raw=120\\n
        A: in_magn_y_raw=-40\\n
        A: in_magn_z_raw=300\\n
        A: in_magn_scale=0.001\\n
        A: in_rot_from_north_magnetic_tilt_comp_raw=\(compassRaw(heading))\\n
        A: in_rot_scale=\(compassScale)\\n
        A: in_rot_offset=0\\n
        A: scan_elements/in_rot_from_north_magnetic_tilt_comp_en=0\\n
        A: scan_elements/in_rot_from_north_magnetic_tilt_comp_index=3\\n
        A: scan_elements/in_rot_from_north_magnetic_tilt_comp_type=le:s32/32>>0\\n

        """
    }

    private static func compassRaw(_ heading: Double) -> String { String(Int((heading / compassScale).rounded())) }

    /// The compass now points `heading` degrees clockwise from magnetic north.
    public func setCompass(heading: Double) {
        set("in_rot_from_north_magnetic_tilt_comp_raw", Self.compassRaw(heading), device: Self.compassDevicePath)
    }

    /// The light sensor now sees `lux`.
    public func setLight(_ lux: Double) {
        set("in_illuminance_input", Self.format(lux), device: Self.lightDevicePath)
    }

    /// The proximity sensor now reads `raw` (above 128 × 1.1 is near).
    public func setProximity(raw: Int) {
        set("in_proximity_raw", String(raw), device: Self.proximityDevicePath)
    }

    /// The device at `path` (`lightDevicePath`, `proximityDevicePath`, `compassDevicePath`) disappears as when
    /// unplugged: udev's `remove` event, then its /sys directory and udev record are gone.
    public func unplugDevice(at path: String) {
        umockdev_shim_testbed_uevent(testbed, "/sys" + path, "remove")
        umockdev_shim_testbed_remove(testbed, "/sys" + path)
    }

    /// The device at `path` appears again as first described, with udev's `add` event.
    public func plugInDevice(at path: String) throws {
        guard let description = descriptions.flatMap({ $0.components(separatedBy: "\n\n") })
            .first(where: { $0.hasPrefix("P: \(path)\n") })
        else { throw EmulationError("no device was described at \(path)") }
        // Without its device node: umockdev cannot make a node again for a name it made one for.
        try add(description.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("E: DEVNAME=") && !$0.hasPrefix("N: ") }.joined(separator: "\n") + "\n")
        umockdev_shim_testbed_uevent(testbed, "/sys" + path, "add")
    }
}
