@testable import AccelerometerIO
import Glibc
import OrientationCore
import Testing

/// `MotionEvents` reads a device's name and event files from sysfs (here a scratch tree laid out
/// the same way) and hands them to `MotionWakeUp`.
@Suite struct MotionEventsTests {
    private func sysfs(name: String?, events: [String]?) throws -> String {
        var template = Array("/tmp/orientd-sysfs-XXXXXX".utf8CString)
        let root = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
        let device = root + "/iio:device3"
        #expect(mkdir(device, 0o755) == 0)
        if let name { write(name + "\n", to: device + "/name") }
        if let events {
            #expect(mkdir(device + "/events", 0o755) == 0)
            for file in events { write("0\n", to: device + "/events/" + file) }
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
        let root = try sysfs(name: "bmc150_accel", events: ["in_accel_x_roc_rising_en", "in_accel_x_roc_rising_value", "in_accel_y_roc_rising_en"])
        #expect(MotionEvents.offer(sysname: "iio:device3", sysfs: root).wakeUp == .events(enable: ["in_accel_x_roc_rising_en", "in_accel_y_roc_rising_en"]))
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
