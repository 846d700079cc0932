import CUmockdevShim
import Foundation
import OrientationCore

/// An IIO accelerometer emulated by umockdev: a directory tree that a process started with
/// `environment` sees as /sys, /dev and the udev database. Tests and the benchmark turn the device by rewriting
/// its raw attributes, as a kernel driver would.
public final class EmulatedAccelerometer: @unchecked Sendable {
    public static let countsPerG = 256.0
    public static let devicePath = "/devices/platform/orientd-test/iio:device0"

    let testbed: OpaquePointer
    public let root: String
    /// What was added, so an unplugged accelerometer can be plugged in again.
    var descriptions: [String] = []
    /// The writing ends of the device nodes made FIFOs (`makeScanFIFO`), by sysname.
    private var scanWriters: [String: Int32] = [:]

    /// Builds a testbed holding one accelerometer with `attributes` (sysfs file → value) and udev
    /// `properties`, plus any further devices in umockdev's text format.
    public init(attributes: [String: String], properties: [String: String] = [:], otherDevices: String = "") throws {
        testbed = umockdev_shim_testbed_new()
        root = String(cString: umockdev_shim_testbed_root(testbed))
        try add(Self.machine, remembered: false)
        try add(Self.accelerometer(attributes: attributes, properties: properties))
        if !otherDevices.isEmpty { try add(otherDevices) }
    }

    /// A testbed without the accelerometer, holding only `devices`.
    public init(onlyDevices devices: String) throws {
        testbed = umockdev_shim_testbed_new()
        root = String(cString: umockdev_shim_testbed_root(testbed))
        try add(Self.machine, remembered: false)
        try add(devices)
    }

    deinit {
        for writer in scanWriters.values { close(writer) }
        umockdev_shim_testbed_free(testbed)
    }

    /// A testbed with no accelerometer, only a light sensor (iio:device1), which `plugIn` can add one to.
    public static func lightSensorOnly() throws -> EmulatedAccelerometer {
        try EmulatedAccelerometer(onlyDevices: """
            P: /devices/platform/als/iio:device1
            N: iio:device1
            E: SUBSYSTEM=iio
            A: name=als\\n
            A: in_illuminance_raw=5\\n

            """)
    }

    /// A sysfs attribute's line in a umockdev description: its value and a newline, as drivers
    /// print them, but for a device's unset trigger, which the kernel prints as nothing at all
    /// (industrialio-trigger.c: `iio_trigger_read_current` returns 0), so libiio reads an error.
    public static func attributeLine(_ file: String, _ value: String) -> String {
        file == "trigger/current_trigger" && value.isEmpty ? "A: \(file)=\n" : "A: \(file)=\(value)\\n\n"
    }

    /// IIO triggers named `names`, as devices of their own (triggerN, with their `name`): what a
    /// driver registers beside its device where the chip's interrupt line is wired.
    public static func triggerDevices(_ names: [String]) -> String {
        names.enumerated().map { index, name in
            "P: /devices/platform/orientd-test/trigger\(index)\nE: SUBSYSTEM=iio\nA: name=\(name)\\n\n\n"
        }.joined()
    }

    /// A typical display accelerometer at 1 g = 256 counts, upright, with no mount matrix.
    public static func standard(_ orientation: Orientation = .portrait, extra: [String: String] = [:],
                         properties: [String: String] = [:], triggers: [String] = []) throws -> EmulatedAccelerometer {
        var attributes = standardAttributes(orientation)
        attributes.merge(extra) { $1 }
        return try EmulatedAccelerometer(attributes: attributes, properties: properties, otherDevices: triggerDevices(triggers))
    }

    /// A 360° convertible: `standard`'s accelerometer in the display, and one of the same driver in
    /// the base (iio:device1, sysfs label `accel-base`), both at 1 g = 256 counts, as `pose` stands.
    public static func convertible(_ pose: (display: Vector3, base: Vector3)) throws -> EmulatedAccelerometer {
        var base = "P: \(baseDevicePath)\nN: iio:device1\nE: SUBSYSTEM=iio\nE: DEVNAME=/dev/iio:device1\n"
        var attributes = standardAttributes(.portrait)
        attributes["label"] = "accel-base"
        for (file, value) in attributes.sorted(by: { $0.key < $1.key }) { base += attributeLine(file, value) }
        let sensor = try EmulatedAccelerometer(attributes: standardAttributes(.portrait), otherDevices: base)
        sensor.pose(display: pose.display, base: pose.base)
        return sensor
    }

    public static let baseDevicePath = "/devices/platform/orientd-test/iio:device1"

    /// Sets both halves of a `convertible` at once, from accelerations in m/s².
    public func pose(display: Vector3, base: Vector3) {
        let counts = { (v: Vector3) in Vector3((v.x / 9.80665 * Self.countsPerG).rounded(), (v.y / 9.80665 * Self.countsPerG).rounded(), (v.z / 9.80665 * Self.countsPerG).rounded()) }
        setRaw(counts(display))
        let baseCounts = counts(base)
        for (axis, value) in [("x", baseCounts.x), ("y", baseCounts.y), ("z", baseCounts.z)] {
            set("in_accel_\(axis)_raw", Self.format(value), device: Self.baseDevicePath)
        }
    }

    /// `standard`'s accelerometer reading `orientation` from its raw attributes, with scan elements
    /// for a kernel buffer (x, y, z as le:s16/32, a le:s64 timestamp) whose /dev/iio:device0 is a
    /// FIFO: what `appendScans` writes is what the buffer yields, once, and a reader waits for
    /// more as it would on a capturing device.
    public static func buffered(rawAttributes orientation: Orientation) throws -> EmulatedAccelerometer {
        var attributes = standardAttributes(orientation)
        attributes["buffer/enable"] = "0"
        attributes["buffer/length"] = "0"
        attributes["trigger/current_trigger"] = ""
        for (index, channel) in ["accel_x", "accel_y", "accel_z", "timestamp"].enumerated() {
            attributes["scan_elements/in_\(channel)_en"] = "0"
            attributes["scan_elements/in_\(channel)_index"] = String(index)
            attributes["scan_elements/in_\(channel)_type"] = channel == "timestamp" ? "le:s64/64>>0" : "le:s16/32>>0"
        }
        // A HID hub's accelerometer: hid-sensor-trigger registers its trigger whatever the wiring.
        let sensor = try EmulatedAccelerometer(attributes: attributes, otherDevices: triggerDevices(["accel_3d-dev0"]))
        try sensor.makeScanFIFO()
        return sensor
    }

    /// Makes the device node of `sysname` a FIFO: what `appendScanBytes` writes is what its
    /// buffer yields, once, and a reader waits for more as it would on a capturing device.
    public func makeScanFIFO(sysname: String = "iio:device0") throws {
        let node = root + "/dev/" + sysname
        unlink(node)
        guard mkfifo(node, 0o666) == 0 else { throw EmulationError("cannot make \(node) a FIFO: \(String(cString: strerror(errno)))") }
        // Read and write, so opening never waits for a reader and readers never see the end.
        let writer = open(node, O_RDWR | O_NONBLOCK)
        guard writer >= 0 else { throw EmulationError("cannot open \(node): \(String(cString: strerror(errno)))") }
        scanWriters[sysname] = writer
    }

    /// Scans as the driver's buffer holds them, into the FIFO `makeScanFIFO` made.
    public func appendScanBytes(_ bytes: [UInt8], sysname: String = "iio:device0") {
        guard let writer = scanWriters[sysname] else { return }
        _ = bytes.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
    }

    /// Scans the device captured, one per entry: `orientation` at kernel time `time` (seconds).
    public func appendScans(_ scans: [(orientation: Orientation, time: Double)]) {
        appendScanBytes(Array(Self.scanData(scans)))
    }

    /// x, y, z in 32-bit little-endian words, 4 bytes of padding, then the 64-bit timestamp.
    private static func scanData(_ scans: [(orientation: Orientation, time: Double)]) -> Data {
        var data = Data()
        for scan in scans {
            let raw = rawCounts(for: scan.orientation)
            for value in [Int32(raw.x), Int32(raw.y), Int32(raw.z), 0] { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
            withUnsafeBytes(of: Int64(scan.time * 1e9).littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    /// The sysfs attributes of `standard`'s accelerometer.
    public static func standardAttributes(_ orientation: Orientation) -> [String: String] {
        let raw = rawCounts(for: orientation)
        return [
            "name": "accel_3d",
            "in_accel_x_raw": format(raw.x), "in_accel_y_raw": format(raw.y), "in_accel_z_raw": format(raw.z),
            "in_accel_scale": String(9.80665 / countsPerG),
        ]
    }

    /// The machine around the accelerometers: their parent, a platform device enumerated from
    /// ACPI as Bosch accelerometers are (`acpi:BOSC0200:`), and the DMI identity udev's
    /// 60-sensor.rules reads, so the hwdb key orientd reports is what udev would look up.
    static let machine = """
        P: /devices/platform/orientd-test
        E: SUBSYSTEM=platform
        A: modalias=\(parentModalias)\\n

        P: /devices/virtual/dmi/id
        E: SUBSYSTEM=dmi
        A: modalias=\(dmiModalias)\\n

        """
    public static let parentModalias = "acpi:BOSC0200:"
    /// With characters udev does not pass into a rule's string as they are: a firmware version in
    /// parentheses, as Lenovo's are, and a `#`, which udev keeps but a hwdb file cannot.
    public static let dmiModalias = "dmi:bvnLENOVO:bvrN2HET58W(1.41):bd11/24/2026:br1.41:svnOrientdTest:pnEmulatedTablet#2:pvr1:rvnOrientdTest:rnEmulatedBoard:rvr1:cvnOrientdTest:ct30:cvr1:"
    /// The key udev looks the display accelerometer up by in the hwdb (60-sensor.rules), written
    /// out as udev composes it: `(` and `)` become `_`.
    public static let hwdbMatch = "sensor:modalias:acpi:BOSC0200::dmi:bvnLENOVO:bvrN2HET58W_1.41_:bd11/24/2026:br1.41:svnOrientdTest:pnEmulatedTablet#2:pvr1:rvnOrientdTest:rnEmulatedBoard:rvr1:cvnOrientdTest:ct30:cvr1:"
    /// The same key as a hwdb match line: `#` would start a comment there; `?` matches it.
    public static let hwdbMatchLine = "sensor:modalias:acpi:BOSC0200::dmi:bvnLENOVO:bvrN2HET58W_1.41_:bd11/24/2026:br1.41:svnOrientdTest:pnEmulatedTablet?2:pvr1:rvnOrientdTest:rnEmulatedBoard:rvr1:cvnOrientdTest:ct30:cvr1:"

    /// umockdev's description of the accelerometer at `devicePath`.
    private static func accelerometer(attributes: [String: String], properties: [String: String]) -> String {
        var description = "P: \(devicePath)\nN: iio:device0\nE: SUBSYSTEM=iio\nE: DEVNAME=/dev/iio:device0\n"
        for (key, value) in properties.sorted(by: { $0.key < $1.key }) { description += "E: \(key)=\(value)\n" }
        for (file, value) in attributes.sorted(by: { $0.key < $1.key }) { description += Self.attributeLine(file, value) }
        return description
    }

    /// The environment that makes a process see this testbed.
    public var environment: [String: String] {
        ["LD_PRELOAD": "libumockdev-preload.so.0", "UMOCKDEV_DIR": root]
    }

    /// Raw counts of 1 g pointing as docs/conventions.md ("Orientation names") says for `orientation`.
    public static func rawCounts(for orientation: Orientation) -> Vector3 {
        switch orientation {
        case .portrait, .unknown: Vector3(0, -countsPerG, 0)
        case .portraitUpsideDown: Vector3(0, countsPerG, 0)
        case .landscapeLeft: Vector3(-countsPerG, 0, 0)
        case .landscapeRight: Vector3(countsPerG, 0, 0)
        case .faceUp: Vector3(0, 0, countsPerG)
        case .faceDown: Vector3(0, 0, -countsPerG)
        }
    }

    public func turn(to orientation: Orientation) {
        setRaw(Self.rawCounts(for: orientation))
    }

    /// Upright in portrait, leaned back by `degrees` (the screen towards the sky; negative:
    /// forward, towards the floor), at 1 g.
    public func lean(portraitBy degrees: Double) {
        let radians = degrees * .pi / 180
        setRaw(Vector3(0, (-cos(radians) * Self.countsPerG).rounded(), (sin(radians) * Self.countsPerG).rounded()))
    }

    public func setRaw(_ raw: Vector3) {
        set("in_accel_x_raw", Self.format(raw.x))
        set("in_accel_y_raw", Self.format(raw.y))
        set("in_accel_z_raw", Self.format(raw.z))
    }

    /// Replaces a sysfs attribute's value in one step (write a new file, rename it over the old),
    /// so the daemon never reads a half-written value. Plain writes: Foundation's `createFile`
    /// syncs to disk, which under load stalled a turn between two axes for seconds.
    public func set(_ file: String, _ value: String, device: String = devicePath) {
        let path = root + "/sys" + device + "/" + file
        let temporary = path + ".new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        let bytes = Array((value + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        _ = rename(temporary, path)
    }

    /// An attribute's value as the kernel would take it. libiio writes its own attributes
    /// (buffer/enable, the scan elements) with their terminating NUL, where a kernel driver's
    /// parser stops; the emulated file keeps it.
    public func value(of file: String) -> String? {
        bytes(of: file).map { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// An attribute file's bytes, exactly as written.
    public func bytes(of file: String) -> [UInt8]? {
        FileManager.default.contents(atPath: root + "/sys" + Self.devicePath + "/" + file).map(Array.init)
    }

    /// The accelerometer disappears as when unplugged: udev's `remove` event, then its /sys
    /// directory and udev record are gone.
    public func unplug() {
        umockdev_shim_testbed_uevent(testbed, Self.syspath, "remove")
        umockdev_shim_testbed_remove(testbed, Self.syspath)
        unlink(root + "/dev/iio:device0")
    }

    /// The accelerometer appears, with udev's `add` event: as first described (with its first
    /// attribute values) after `unplug`, or a standard one in `orientation`.
    public func plugIn(_ orientation: Orientation? = nil) throws {
        let description = orientation.map { Self.accelerometer(attributes: Self.standardAttributes($0), properties: [:]) }
            ?? descriptions[0]
        // Without its device node: umockdev cannot make a node again for a name it made one for.
        try add(description.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("E: DEVNAME=") && !$0.hasPrefix("N: ") }.joined(separator: "\n"))
        umockdev_shim_testbed_uevent(testbed, Self.syspath, "add")
    }

    /// udev learns a new property value (a hwdb update) and says so with a `change` event.
    public func changeProperty(_ name: String, to value: String) {
        umockdev_shim_testbed_set_property(testbed, Self.syspath, name, value)
        umockdev_shim_testbed_uevent(testbed, Self.syspath, "change")
    }

    private static let syspath = "/sys" + devicePath

    /// `remembered`: whether `plugIn` may add it again (the accelerometer, not the machine).
    func add(_ description: String, remembered: Bool = true) throws {
        if remembered { descriptions.append(description) }
        var error = [CChar](repeating: 0, count: 512)
        guard umockdev_shim_testbed_add(testbed, description, &error, UInt(error.count)) == 1 else {
            throw EmulationError("umockdev rejected the device description: \(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))\n\(description)")
        }
    }

    public static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

public struct EmulationError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
