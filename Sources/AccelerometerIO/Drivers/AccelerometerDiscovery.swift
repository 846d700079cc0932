import OrientationCore

/// Finds the accelerometer that follows the screen among the devices of an IIO context.
public enum AccelerometerDiscovery {
    public static let axes = ["accel_x", "accel_y", "accel_z"]
    /// The axes an accelerometer must have: a few parts have no z (`TwoAxisReading`).
    public static let neededAxes = ["accel_x", "accel_y"]

    /// An accelerometer device and where it sits.
    public struct Found {
        public let device: IIODevice
        /// nil when neither udev nor the label (nor the config file) says; such a sensor is
        /// taken to be in the display.
        public var declaredLocation: SensorLocation?
        public var location: SensorLocation { declaredLocation ?? .display }
    }

    /// Every device with accel_x and accel_y input channels (and accel_z, but for a few parts).
    public static func accelerometers(in context: IIOContext) -> [Found] {
        context.devices
            .filter { device in neededAxes.allSatisfy { context.hasInputChannel($0, on: device) } }
            .map { Found(device: $0, declaredLocation: location(of: $0, in: context)) }
    }

    /// Every accelerometer with its id, the display one first: one declared `display`, else one
    /// with no declared location (a base accelerometer, in the keyboard half of a convertible,
    /// never drives the screen); throws when there is none. A location in `configured` (by id)
    /// wins over udev's and the label's.
    public static func displayFirst(in context: IIOContext, configured: [String: DeviceSettings] = [:])
        throws(DiscoveryError) -> [(found: Found, id: String)] {
        var found = accelerometers(in: context)
        let ids = ids(of: found, uri: context.uri)
        for index in found.indices {
            if let location = configured[ids[index]]?.location { found[index].declaredLocation = location }
        }
        guard let display = found.firstIndex(where: { $0.declaredLocation == .display })
            ?? found.firstIndex(where: { $0.declaredLocation == nil })
        else {
            throw DiscoveryError(uri: context.uri, devices: context.devices, baseOnly: found.map(\.device))
        }
        let paired = Array(zip(found, ids))
        return [paired[display]] + paired.enumerated().filter { $0.offset != display }.map(\.element)
    }

    /// Ids that survive reboots and the kernel's renumbering ("iio:device0" may be another device
    /// after a reboot): the context's URI and the driver's name, "local:/accel_3d". Two devices
    /// with one driver are told apart by their location ("local:/bmc150_accel-base"), and if
    /// that is not enough, by their kernel names.
    public static func ids(of found: [Found], uri: String) -> [String] {
        func name(_ item: Found) -> String { item.device.name ?? item.device.id }
        func located(_ item: Found) -> String { "\(name(item))-\(item.location.rawValue)" }
        return found.map { item in
            if found.filter({ name($0) == name(item) }).count == 1 { return "\(uri)/\(name(item))" }
            if found.filter({ located($0) == located(item) }).count == 1 { return "\(uri)/\(located(item))" }
            return "\(uri)/\(item.device.id)"
        }
    }

    private static func location(of device: IIODevice, in context: IIOContext) -> SensorLocation? {
        let udev = context.isLocal ? UdevProperties.value("ACCEL_LOCATION", subsystem: "iio", sysname: device.id) : nil
        return SensorLocation(udevLocation: udev, sysfsLabel: device.label,
                              sysfsLocation: try? context.attributeFile("location", on: device))
    }
}

/// No display accelerometer in the context: says which context and which devices were seen.
public struct DiscoveryError: Error, CustomStringConvertible {
    public let uri: String
    public let devices: [IIODevice]
    public let baseOnly: [IIODevice]

    public var description: String {
        let seen = devices.isEmpty ? "no IIO devices at all" : "IIO devices seen: " + devices.map(\.description).joined(separator: ", ")
        if !baseOnly.isEmpty {
            let base = baseOnly.map(\.description).joined(separator: ", ")
            return "no display accelerometer in IIO context '\(uri)': only base accelerometers (\(base)), which do not follow the screen; \(seen)"
        }
        return "no accelerometer (device with accel_x and accel_y channels) in IIO context '\(uri)'; \(seen)"
    }
}
