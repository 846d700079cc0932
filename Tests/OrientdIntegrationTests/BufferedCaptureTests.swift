import EmulatedSensor
import Foundation
import OrientationCore
import ProcessHarness
import Testing

extension IntegrationTests {
    /// An accelerometer with scan elements is read through a kernel buffer: libiio's local
    /// backend enables it in sysfs and reads /dev/iio:device0, which the emulation serves from a
    /// file of recorded scans (as iio-sensor-proxy's own suite does).
    @Suite struct BufferedCaptureTests {
        /// Kernel timestamps for scans every 20 ms (a 50 Hz device) from `start`.
        static func scans(_ orientation: Orientation, count: Int, from start: Double) -> [(orientation: Orientation, time: Double)] {
            (0..<count).map { (orientation, start + Double($0) * 0.02) }
        }

        /// The raw attributes say landscapeRight and the buffer says portrait: orientd follows
        /// the buffer, and the scans a capturing device adds; with nobody subscribed the buffer
        /// is released (buffer/enable back to 0).
        @Test func followsScansFromTheBufferAndReleasesItWhenIdle() throws {
            let sensor = try EmulatedAccelerometer.buffered(rawAttributes: .landscapeRight)
            sensor.writeScans(Self.scans(.portrait, count: 20, from: 1000))
            let daemon = try Daemon(sensor: sensor)
            let client = try daemon.client()
            #expect(try client.subscribe() == .portrait, "\(daemon.log)")
            #expect(sensor.value(of: "buffer/enable") == "1")
            #expect(sensor.value(of: "scan_elements/in_accel_x_en") == "1")
            #expect(sensor.value(of: "scan_elements/in_timestamp_en") == "1")

            // The device goes on capturing, now turned to landscapeLeft.
            let appended = Date()
            for step in 0..<50 {
                sensor.appendScans(Self.scans(.landscapeLeft, count: 1, from: 1000.4 + Double(step) * 0.02))
                Thread.sleep(forTimeInterval: 0.02)
                if step == 10 { client.setReadTimeout(3) }
            }
            #expect(try client.nextEvent()?["orientation"]?.stringValue == "landscapeLeft", "\(daemon.log)")
            #expect(Date().timeIntervalSince(appended) < 3)
            #expect(!daemon.log.contains("gave no data"), "\(daemon.log)")

            _ = try client.call("unsubscribe")
            #expect(waitUntil(timeout: 3) { sensor.value(of: "buffer/enable") == "0" }, "the buffer is still enabled with no client")
        }

        /// A buffer that yields nothing (a driver that needs a trigger, say): after a second
        /// orientd polls the raw attributes instead, and says so.
        @Test func pollsWhenTheBufferGivesNothing() throws {
            let sensor = try EmulatedAccelerometer.buffered(rawAttributes: .landscapeRight)
            let daemon = try Daemon(sensor: sensor)
            let client = try daemon.client()
            client.setReadTimeout(5)
            var orientation = try client.subscribe()
            let started = Date()
            while orientation != .landscapeRight, let event = try client.nextEvent() {
                orientation = event["orientation"]?.stringValue.flatMap(Orientation.init) ?? orientation
            }
            #expect(orientation == .landscapeRight)
            #expect(Date().timeIntervalSince(started) < 3)
            #expect(daemon.log.contains("gave no data for 1 s"), "\(daemon.log)")
            #expect(daemon.log.contains("polling its raw attributes instead"))
        }
    }
}
