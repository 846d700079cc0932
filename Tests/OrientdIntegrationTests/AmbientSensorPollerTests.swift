import EmulatedSensor
import Foundation
import ProcessHarness
import Testing

extension IntegrationTests {
    /// AmbientSensorPoller on libiio's real `local:` backend and udev, both seeing umockdev's
    /// emulated light and proximity sensors. libiio and libudev can only be shown the testbed
    /// through umockdev's preload library, which must be there when a process starts: so this
    /// test runs the test binary again as a child, filtered to `AmbientPollerChild` (in
    /// AccelerometerIOTests), and steers it through a FIFO.
    @Suite struct AmbientSensorPollerTests {
        @Test func sensorsAreFoundBeforeTheStartAndReadWhileNeededAndUdevsRemovalIsReported() throws {
            let sensor = try EmulatedAccelerometer.withAmbientSensors(lux: 10, proximityRaw: 0)
            let scratch = makeScratchDirectory()
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            let fifo = scratch + "/commands"
            #expect(mkfifo(fifo, 0o600) == 0)
            let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
            let child = try ChildProcess(testBinary, ["--testing-library", "swift-testing", "--filter", "AmbientPollerChild"],
                                         environment: sensor.environment.merging(["ORIENTD_AMBIENT_CHILD": fifo]) { $1 },
                                         standardError: scratch + "/child.log")
            defer { child.stop() }
            var log: String { (try? String(contentsOfFile: scratch + "/child.log", encoding: .utf8)) ?? "" }
            func events() -> [String] {
                child.output.map(\.text).filter { $0.hasPrefix("ambient-") }
            }
            func waitFor(_ line: String) -> Bool {
                waitUntil(timeout: 10) { events().contains(line) }
            }

            #expect(waitFor("ambient-started"), "\(events())\n\(log)")
            // Presence is known when start returns: both appearances come before it.
            #expect(events().prefix(3) == [
                #"ambient-event: lightAppeared(device: "iio:device1 (als)")"#,
                #"ambient-event: proximityAppeared(device: "iio:device2 (prox)")"#,
                "ambient-started",
            ], "\(log)")
            #expect(!log.contains("warning"), "\(log)")

            let commands = try #require(FileHandle(forWritingAtPath: fifo))
            func send(_ command: String) {
                commands.write(Data((command + "\n").utf8))
                #expect(waitFor("ambient-done: \(command)"), "\(events())")
            }
            send("hold light")
            #expect(waitFor("ambient-event: lightLevel(10.0)"), "\(events())\n\(log)")
            #expect(!events().contains { $0.hasPrefix("ambient-event: proximity(") }, "nobody needs proximity: it is not reported")
            sensor.setLight(42.5)
            #expect(waitFor("ambient-event: lightLevel(42.5)"), "\(events())\n\(log)")

            send("hold proximity")
            #expect(waitFor("ambient-event: proximity(near: false)"), "\(events())\n\(log)")
            sensor.setProximity(raw: 200)
            #expect(waitFor("ambient-event: proximity(near: true)"), "\(events())\n\(log)")

            sensor.unplugDevice(at: EmulatedAccelerometer.lightDevicePath)
            #expect(waitUntil(timeout: 10) { events().contains { $0.hasPrefix("ambient-event: lightGone(") } }, "\(events())\n\(log)")
            let goneAt = events().count
            try sensor.plugInDevice(at: EmulatedAccelerometer.lightDevicePath)
            // Back as first described, and read at once: its demand is still held.
            #expect(waitUntil(timeout: 10) { events().dropFirst(goneAt).contains("ambient-event: lightLevel(10.0)") }, "\(events())\n\(log)")
            #expect(events().dropFirst(goneAt).first == #"ambient-event: lightAppeared(device: "iio:device1 (als)")"#, "\(events())")

            send("release light")
            commands.write(Data("stop\n".utf8))
            try commands.close()
            #expect(waitUntil(timeout: 10) { !child.isRunning }, "the child did not stop:\n\(log)")
            #expect(!log.contains("crash"), "\(log)")
        }
    }
}
