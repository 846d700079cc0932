import OrientationCore

/// The sysfs tree one kernel IIO driver lays out for its accelerometer, as its source declares it
/// (`iio_chan_spec` masks, ext_info, scan types, triggers, events), and the udev properties a real
/// machine with it carries: what `KernelDriverZoo` lists, and `emulated(_:)` builds for umockdev.
///
/// How the kernel names a file by how the driver shares it (the IIO ABI): separate →
/// `in_accel_x_scale`, by type → `in_accel_scale`, by direction → `in_scale`, by all → `scale`.
public struct KernelDriverLayout: Sendable, CustomStringConvertible {
    public enum Sharing: String, Sendable {
        case separate, byType, byDirection, byAll

        /// The file of `attribute` for `axis` of the accelerometer.
        func file(_ attribute: String, axis: String) -> String {
            switch self {
            case .separate: "in_accel_\(axis)_\(attribute)"
            case .byType: "in_accel_\(attribute)"
            case .byDirection: "in_\(attribute)"
            case .byAll: attribute
            }
        }
    }

    /// Where the second accelerometer of a convertible says it sits.
    public enum Pair: Sendable {
        /// Display and base told apart by `label` (accel-display, accel-base).
        case labels
        /// By cros-ec's `location` file (lid, base), before Linux 5.19.
        case locations
        /// By udev's ACCEL_LOCATION (systemd's hwdb).
        case udevLocations
    }

    /// The module, as `lsmod` shows it ("cros_ec_sensors").
    public var driver: String
    /// The kernel source that declares the layout.
    public var source: String
    /// The `name` file.
    public var name: String
    /// The scale's sharing and its text at the driver's default range, as the kernel prints it;
    /// nil: the driver has no scale file.
    public var scale: (sharing: Sharing, text: String)?
    /// Raw counts of 1 g at the default range (what the hardware gives, whatever the scale says).
    public var countsPerG: Double
    /// `in_accel_offset`, in counts, where the driver has one.
    public var offset: Double? = nil
    /// Whether it has `in_accel_<axis>_raw` files (Samsung's ssp hub only fills a buffer).
    public var hasRaw = true
    /// The accelerometer's axes: a few parts have only x and y.
    public var axes = ["x", "y", "z"]
    /// The file its mount matrix is in (`in_mount_matrix`, `in_accel_mount_matrix`, `mount_matrix`).
    public var mountMatrixFile: String? = nil
    /// The matrix of this machine, in the driver's file or udev's ACCEL_MOUNT_MATRIX.
    public var mountMatrix = "1, 0, 0; 0, 1, 0; 0, 0, 1"
    public var samplingFrequencyFile: String? = nil
    public var label: String? = nil
    public var location: String? = nil
    /// The scan type of each axis (`le:s12/16>>4`); nil: no buffer.
    public var scanType: String? = nil
    /// Whether scans carry the kernel's timestamp after the axes.
    public var timestamp = true
    /// The triggers it registers ("bmc150_accel-dev0"); a triggered buffer has `trigger/current_trigger`.
    public var triggers: [String] = []
    /// Its motion events' files under `events/` (any-motion, wake-up, activity); empty: none.
    public var events: [String] = []
    /// Files of its other channels on the same IIO device (an IMU's gyroscope).
    public var otherFiles: [String: String] = [:]
    /// udev properties a real machine with it carries (systemd's 60-sensor.hwdb).
    public var properties: [String: String] = [:]
    /// Where the properties come from: a 60-sensor.hwdb match, or the machine.
    public var machine: String
    /// A convertible's second accelerometer of the same driver, in the base, and how it says so.
    public var pair: Pair? = nil

    public var description: String { "\(driver) (\(name))\(pair.map { " with a base sensor by \($0)" } ?? "")" }

    /// The sysfs files of the accelerometer (`base`: the base half of a pair), reading `raw`
    /// counts on its axes (in its own frame; `raw` holds them in x, y, z order).
    public func files(raw: Vector3, base: Bool = false) -> [String: String] {
        var files = ["name": name]
        let values = ["x": raw.x, "y": raw.y, "z": raw.z]
        for axis in axes {
            if hasRaw { files["in_accel_\(axis)_raw"] = EmulatedAccelerometer.format(values[axis] ?? 0) }
            if let scale { files[scale.sharing.file("scale", axis: axis)] = scale.text }
        }
        if let offset { files["in_accel_offset"] = EmulatedAccelerometer.format(offset) }
        if let mountMatrixFile { files[mountMatrixFile] = mountMatrix }
        if let samplingFrequencyFile { files[samplingFrequencyFile] = "100" }
        switch (pair, base) {
        case (.labels?, _): files["label"] = base ? "accel-base" : "accel-display"
        case (.locations?, _): files["location"] = base ? "base" : "lid"
        case (.udevLocations?, _), (nil, _): break
        }
        if let label, pair == nil { files["label"] = label }
        if let location, pair == nil { files["location"] = location }
        if let scanType {
            for (index, axis) in axes.enumerated() {
                files["scan_elements/in_accel_\(axis)_en"] = "0"
                files["scan_elements/in_accel_\(axis)_index"] = String(index)
                files["scan_elements/in_accel_\(axis)_type"] = scanType
            }
            if timestamp {
                files["scan_elements/in_timestamp_en"] = "0"
                files["scan_elements/in_timestamp_index"] = String(axes.count)
                files["scan_elements/in_timestamp_type"] = "le:s64/64>>0"
            }
            // Both directories, as every kernel since 5.11 has them.
            for directory in ["buffer", "buffer0"] {
                files["\(directory)/enable"] = "0"
                files["\(directory)/length"] = "0"
            }
            if !triggers.isEmpty { files["trigger/current_trigger"] = "" }
        }
        for event in events { files["events/\(event)"] = "0" }
        files.merge(otherFiles) { $1 }
        return files
    }

    /// The udev properties of the accelerometer (`base`: of the base half).
    public func udevProperties(base: Bool = false) -> [String: String] {
        var properties = properties
        if pair == .udevLocations { properties["ACCEL_LOCATION"] = base ? "base" : "display" }
        return properties
    }

    /// Raw counts the accelerometer reads when the device points as `orientation` says (after
    /// the mount matrix, docs/conventions.md): the matrix's transpose undoes it, as every mount
    /// matrix real machines carry is a rotation or reflection of the axes.
    public func rawCounts(for orientation: Orientation) -> Vector3 {
        let wanted = EmulatedAccelerometer.rawCounts(for: orientation) * (countsPerG / EmulatedAccelerometer.countsPerG)
        // udev's matrix wins over the driver's file, as in orientd (docs/conventions.md).
        let rows = (try? MountMatrix(parsing: properties["ACCEL_MOUNT_MATRIX"] ?? mountMatrix).rows) ?? [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)]
        let turned = Vector3(
            rows[0].x * wanted.x + rows[1].x * wanted.y + rows[2].x * wanted.z,
            rows[0].y * wanted.x + rows[1].y * wanted.y + rows[2].y * wanted.z,
            rows[0].z * wanted.x + rows[1].z * wanted.y + rows[2].z * wanted.z)
        return Vector3(turned.x.rounded(), turned.y.rounded(), turned.z.rounded()) + Vector3(-(offset ?? 0), -(offset ?? 0), -(offset ?? 0))
    }

    /// One scan as the driver pushes it into its buffer: each axis in `scanType`'s storage,
    /// endianness and shift, then the timestamp aligned to 8 bytes.
    public func scan(raw: Vector3, nanoseconds: Int64) -> [UInt8] {
        guard let type = scanType.flatMap(ScanType.init(parsing:)) else { return [] }
        let values = ["x": raw.x, "y": raw.y, "z": raw.z]
        var bytes: [UInt8] = []
        for axis in axes { bytes += type.encode(Int64(values[axis] ?? 0)) }
        if timestamp {
            while bytes.count % 8 != 0 { bytes.append(0) }
            bytes += withUnsafeBytes(of: nanoseconds.littleEndian, Array.init)
        }
        return bytes
    }

    /// The umockdev description of the accelerometer at `path` named `sysname`, and the triggers
    /// it registers (as devices of their own, beside it).
    public func description(path: String, sysname: String, raw: Vector3, base: Bool = false) -> String {
        var text = "P: \(path)\nN: \(sysname)\nE: SUBSYSTEM=iio\nE: DEVNAME=/dev/\(sysname)\n"
        for (key, value) in udevProperties(base: base).sorted(by: { $0.key < $1.key }) { text += "E: \(key)=\(value)\n" }
        for (file, value) in files(raw: raw, base: base).sorted(by: { $0.key < $1.key }) { text += EmulatedAccelerometer.attributeLine(file, value) }
        return text
    }
}

/// An IIO scan element's type, `le:s12/16>>4`: endianness, sign, significant bits, storage bits
/// and the shift of the value within its storage.
struct ScanType {
    let bigEndian: Bool
    let signed: Bool
    let bits: Int
    let storageBits: Int
    let shift: Int

    init?(parsing text: String) {
        let parts = text.split(whereSeparator: { ":/>".contains($0) }).map(String.init)
        guard parts.count == 4, let bits = Int(parts[1].dropFirst()), let storage = Int(parts[2]), let shift = Int(parts[3]) else { return nil }
        bigEndian = parts[0] == "be"
        signed = parts[1].hasPrefix("s")
        self.bits = bits
        storageBits = storage
        self.shift = shift
    }

    func encode(_ value: Int64) -> [UInt8] {
        let mask = bits >= 64 ? UInt64.max : (UInt64(1) << UInt64(bits)) - 1
        let word = (UInt64(bitPattern: value) & mask) << UInt64(shift)
        let count = storageBits / 8
        let little = (0..<count).map { UInt8(truncatingIfNeeded: word >> UInt64(8 * $0)) }
        return bigEndian ? little.reversed() : little
    }
}
