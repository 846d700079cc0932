import COrientdShim
import Glibc
import OrientationCore

/// An hwmon ambient light sensor (Apple's applesmc, udev type `hwmon-als`): a `light` file holding
/// "(A,B)", in an hwmon device's directory or (as applesmc has it) in its parent's, the platform
/// device `device` links to, found from either side; read as iio-sensor-proxy's hwmon-als driver reads it
/// (`HwmonLightLevel`: percent of the range, `vendor` units). Local only: hwmon is not IIO, so no
/// iiod board serves one.
struct HwmonLightSensor: AmbientLightSource {
    static let directory = "/sys/class/hwmon"
    /// Polled this often while needed, as orientd polls an IIO light sensor without an integration time.
    static let interval = LightPolling.defaultInterval

    /// Where the light file is, in the hwmon device's directory.
    static let places = ["light", "device/light"]

    /// "hwmon3" (or the platform device's "applesmc.768"): how udev names it, and reports its removal.
    let sysname: String
    /// The hwmon device's `name` ("applesmc"), when it has one.
    let name: String?
    /// The light file: "/sys/class/hwmon/hwmon3/device/light", or "/sys/bus/platform/devices/applesmc.768/light".
    let path: String

    var device: String { name.map { "\(sysname) (\($0))" } ?? sysname }

    /// Platform devices, where applesmc's `light` file is (its hwmon device links to it), and
    /// where iio-sensor-proxy looks for the device udev marks `hwmon-als`.
    static let platformDirectory = "/sys/bus/platform/devices"

    /// The first hwmon device with a `light` file, in the kernel's order, else the first platform
    /// device with one; nil when there is none.
    static func discover() -> HwmonLightSensor? {
        first(in: directory, places: places) ?? first(in: platformDirectory, places: ["light"])
    }

    private static func first(in directory: String, places: [String]) -> HwmonLightSensor? {
        guard let listing = opendir(directory) else { return nil }
        defer { closedir(listing) }
        var names: [String] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cText: $0.bindMemory(to: CChar.self)) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        for sysname in names.sorted(by: kernelOrder) {
            guard let place = places.first(where: { access("\(directory)/\(sysname)/\($0)", F_OK) == 0 }) else { continue }
            let name = (try? SysfsFile.read("\(directory)/\(sysname)/name")).flatMap { $0 }
            return HwmonLightSensor(sysname: sysname, name: name.map { printableExcerpt($0) }, path: "\(directory)/\(sysname)/\(place)")
        }
        return nil
    }

    var found: AmbientLoop.Found {
        AmbientLoop.Found(device: device, sysname: sysname, interval: Self.interval, unit: .vendor)
    }

    var howRead: String {
        "reading \(path) (\"(A,B)\": the brighter, in percent of \(formatDecimal(HwmonLightLevel.maximum))) every \(formatDecimal(Self.interval)) s while needed"
    }

    /// The level in percent, or why there is none.
    func read() -> AmbientLoop.Reading {
        let text: String?
        do {
            text = try SysfsFile.read(path)
        } catch {
            return .failed(reason: "cannot read \(path): \(IIOError.text(for: error.code))", gone: error.code == ENOENT || error.code == ENODEV)
        }
        guard let text else { return .failed(reason: "\(path) no longer exists", gone: true) }
        guard let percent = HwmonLightLevel.percent(fromText: text) else {
            return .failed(reason: "\(path) holds '\(printableExcerpt(text))', not \"(A,B)\"", gone: false)
        }
        return .value(percent)
    }

    /// "hwmon2" before "hwmon10".
    private static func kernelOrder(_ a: String, _ b: String) -> Bool {
        let (aNumber, bNumber) = (Int(a.drop { !$0.isNumber }), Int(b.drop { !$0.isNumber }))
        if let aNumber, let bNumber, a.prefix(while: { !$0.isNumber }) == b.prefix(while: { !$0.isNumber }) { return aNumber < bNumber }
        return a < b
    }
}

/// A sysfs file read whole, the way the C shim reads IIO attributes.
enum SysfsFile {
    /// The text without its trailing newline; nil when there is no such file.
    static func read(_ path: String) throws(IIOError) -> String? {
        try IIOContext.readText(what: "read \(path)") { orientd_sysfs_read_path(path, $0, $1) }
    }
}
