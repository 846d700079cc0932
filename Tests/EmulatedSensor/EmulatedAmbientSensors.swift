import CUmockdevShim
import Foundation
import OrientationCore

/// Ambient sensors beside the emulated accelerometer: an ambient light sensor and a proximity
/// sensor, each described with what libiio reads (sysfs attributes) and what iio-sensor-proxy
/// needs to take it (its IIO_SENSOR_PROXY_TYPE udev property, and PROXIMITY_NEAR_LEVEL), so one
/// testbed can feed orientd and iio-sensor-proxy alike.
extension EmulatedAccelerometer {
    public static let lightDevicePath = "/devices/platform/orientd-als/iio:device1"
    public static let proximityDevicePath = "/devices/platform/orientd-prox/iio:device2"
    /// The near level the emulated proximity sensor's udev record gives.
    public static let proximityNearLevel = 128

    /// `standard`'s accelerometer (iio:device0) in `orientation`, marked for iio-sensor-proxy as
    /// iio-poll-accel, with an ambient light sensor (iio:device1, "als", reading `lux` from
    /// in_illuminance_input at scale 1) and a proximity sensor (iio:device2, "prox", reading
    /// `proximityRaw` from in_proximity_raw, near level 128); either can be left out.
    public static func withAmbientSensors(_ orientation: Orientation = .portrait, lux: Double = 10, proximityRaw: Int = 0,
                                          light: Bool = true, proximity: Bool = true) throws -> EmulatedAccelerometer {
        var others: [String] = []
        if light { others.append(lightSensor(lux: lux)) }
        if proximity { others.append(proximitySensor(raw: proximityRaw)) }
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

    /// The light sensor now sees `lux`.
    public func setLight(_ lux: Double) {
        set("in_illuminance_input", Self.format(lux), device: Self.lightDevicePath)
    }

    /// The proximity sensor now reads `raw` (above 128 × 1.1 is near).
    public func setProximity(raw: Int) {
        set("in_proximity_raw", String(raw), device: Self.proximityDevicePath)
    }

    /// The device at `path` (`lightDevicePath`, `proximityDevicePath`) disappears as when
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
