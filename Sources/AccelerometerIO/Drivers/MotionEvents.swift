import Glibc
import OrientationCore

/// What a local accelerometer's driver offers to signal motion: its IIO `name` and the files of
/// its sysfs `events/` directory, judged by `MotionWakeUp` (`MotionEventWatch` sleeps on them).
public enum MotionEvents {
    /// The most event files looked at: a real device has a few dozen.
    static let maximumFiles = 512

    /// The device's `name` and `events/` files, read once: what it offers. `triggers`: those its
    /// driver registered, as the device was opened with them; nil reads them from sysfs.
    static func offer(sysname: String, triggers: DeviceTriggers? = nil, sysfs: String = "/sys/bus/iio/devices") -> Offer {
        let device = "\(sysfs)/\(sysname)"
        let name = firstLine(of: "\(device)/name") ?? sysname
        let triggers = triggers ?? DeviceTriggers(deviceName: name, deviceID: sysname, triggers: fileNames(in: sysfs)
            .filter { $0.hasPrefix("trigger") }.compactMap { firstLine(of: "\(sysfs)/\($0)/name") })
        return Offer(deviceName: name, eventFiles: fileNames(in: "\(device)/events"), triggers: triggers)
    }

    struct Offer {
        let deviceName: String
        let eventFiles: [String]
        let triggers: DeviceTriggers

        /// The driver's choice of event, but only where the kernel shows an interrupt line: a
        /// driver makes its `events/` files whether or not one is wired, and without it they never
        /// fire (on kernels before "iio: accel: bmc150: Fix irq assumption regression", enabling
        /// one oopses).
        var wakeUp: MotionWakeUp {
            let choice = MotionWakeUp.choose(deviceName: deviceName, eventFiles: eventFiles)
            guard case .events = choice, !triggers.showInterruptLine else { return choice }
            return .polling(reason: "its events/ files would never fire: its driver registered no trigger, so no interrupt line is wired")
        }

        /// The threshold to write before enabling `enable`, where the driver's own would not fire
        /// on a motion of `acceleration` m/s² (`MotionWakeUp.threshold`).
        func threshold(enable: [String], acceleration: Double) -> (file: String, value: String)? {
            MotionWakeUp.threshold(deviceName: deviceName, eventFiles: eventFiles, enable: enable, acceleration: acceleration)
        }
    }

    static func fileNames(in directory: String) -> [String] {
        guard let listing = opendir(directory) else { return [] }
        defer { closedir(listing) }
        var names: [String] = []
        while names.count < maximumFiles, let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    static func firstLine(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        let line = buffer[..<count].prefix { $0 != UInt8(ascii: "\n") }
        return String(decoding: line, as: UTF8.self)
    }
}
