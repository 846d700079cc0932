@testable import AccelerometerIO
import Glibc
import OrientationCore
import Testing

/// `MotionEvents` reads a device's name, its event files and the triggers' names from sysfs (here
/// a scratch tree laid out the same way) and hands them to `MotionWakeUp`.
@Suite struct MotionEventsTests {
    private func sysfs(name: String?, events: [String]?, triggers: [String] = []) throws -> String {
        var template = Array("/tmp/orientd-sysfs-XXXXXX".utf8CString)
        let root = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
        let device = root + "/iio:device3"
        #expect(mkdir(device, 0o755) == 0)
        if let name { write(name + "\n", to: device + "/name") }
        if let events {
            #expect(mkdir(device + "/events", 0o755) == 0)
            for file in events { write("0\n", to: device + "/events/" + file) }
        }
        for (index, trigger) in triggers.enumerated() {
            #expect(mkdir(root + "/trigger\(index)", 0o755) == 0)
            write(trigger + "\n", to: root + "/trigger\(index)/name")
        }
        return root
    }

    private func write(_ text: String, to path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(descriptor >= 0)
        _ = Array(text.utf8).withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    @Test func aRateOfChangeEventIsChosen() throws {
        let root = try sysfs(name: "bmc150_accel", events: ["in_accel_x_roc_rising_en", "in_accel_x_roc_rising_value", "in_accel_y_roc_rising_en"],
                             triggers: ["bmc150_accel-dev3", "bmc150_accel-any-motion-dev3"])
        #expect(MotionEvents.offer(sysname: "iio:device3", sysfs: root).wakeUp == .events(enable: ["in_accel_x_roc_rising_en", "in_accel_y_roc_rising_en"]))
    }

    /// The real kernel's bmc150 with no interrupt line: its events/ files, but no trigger of its
    /// own (another device's trigger does not count).
    @Test func eventsWithoutAnInterruptLineMeanPolling() throws {
        let root = try sysfs(name: "bmc150_accel", events: ["in_accel_x_roc_either_en", "in_accel_y_roc_either_en", "in_accel_z_roc_either_en"],
                             triggers: ["accel_3d-dev0"])
        #expect(MotionEvents.offer(sysname: "iio:device3", sysfs: root).wakeUp
            == .polling(reason: "its events/ files would never fire: its driver registered no trigger, so no interrupt line is wired"))
    }

    @Test func noEventsDirectoryMeansPolling() throws {
        let root = try sysfs(name: "accel_3d", events: nil)
        guard case .polling(let reason) = MotionEvents.offer(sysname: "iio:device3", sysfs: root).wakeUp else {
            Issue.record("expected polling")
            return
        }
        #expect(reason.contains("accel_3d"))
    }

    @Test func aMissingDeviceMeansPollingNotACrash() {
        guard case .polling = MotionEvents.offer(sysname: "iio:device9", sysfs: "/nonexistent").wakeUp else {
            Issue.record("expected polling")
            return
        }
    }
}
