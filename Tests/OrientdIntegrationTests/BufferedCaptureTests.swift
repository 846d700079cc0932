import EmulatedSensor
import Foundation
import NIOConcurrencyHelpers
import OrientationCore
import ProcessHarness
import Testing

extension IntegrationTests {
    /// An accelerometer with scan elements is read through a kernel buffer: libiio's local
    /// backend enables it in sysfs and reads /dev/iio:device0, which the emulation serves from a
    /// file of recorded scans (as iio-sensor-proxy's own suite does).
    @Suite struct BufferedCaptureTests {
        /// The raw attributes say landscapeRight and the device captures portrait at 50 Hz:
        /// orientd follows the scans, turns with them, and with nobody subscribed releases the
        /// buffer (buffer/enable back to 0).
        @Test func followsScansFromTheBufferAndReleasesItWhenIdle() throws {
            let sensor = try EmulatedAccelerometer.buffered(rawAttributes: .landscapeRight)
            let device = StreamingDevice(sensor, orientation: .portrait)
            defer { device.stop() }
            let daemon = try Daemon(sensor: sensor, arguments: ["--keep-reading-ms", "1000"])
            let client = try daemon.client()
            #expect(try client.subscribe() == .portrait, "\(daemon.log)")
            // The first reading may have come from a buffer released since (1 s with no client
            // before the subscription, on a loaded machine): the subscription starts the capture
            // again at the next poll, so wait for it rather than look once.
            #expect(waitUntil(timeout: 5) { sensor.value(of: "buffer/enable") == "1" }, "no capture while subscribed: \(daemon.log)")
            #expect(sensor.value(of: "scan_elements/in_accel_x_en") == "1")
            #expect(sensor.value(of: "scan_elements/in_timestamp_en") == "1")

            client.setReadTimeout(3)
            let turned = Date()
            device.turn(to: .landscapeLeft)
            #expect(try client.nextEvent()?["orientation"]?.stringValue == "landscapeLeft", "\(daemon.log)")
            #expect(Date().timeIntervalSince(turned) < 4, "generous: speed is the benchmark's business")
            #expect(!daemon.log.contains("gave no data"), "\(daemon.log)")

            _ = try client.call("unsubscribe")
            // A request keeps the sensor read for 5 s (ReadingDemand), subscribing included.
            #expect(waitUntil(timeout: 8) { sensor.value(of: "buffer/enable") == "0" }, "the buffer is still enabled with no client")
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
            #expect(Date().timeIntervalSince(started) < 8)
            #expect(daemon.log.contains("gave no data for 1 s"), "\(daemon.log)")
            #expect(daemon.log.contains("polling its raw attributes instead"))
        }
    }
}

/// A device capturing at 50 Hz into an emulated buffer, in whatever orientation it is turned to.
final class StreamingDevice: @unchecked Sendable {
    private let orientation: NIOLockedValueBox<Orientation>
    private var capture: CapturingThread?

    init(_ sensor: EmulatedAccelerometer, orientation: Orientation) {
        let current = NIOLockedValueBox(orientation)
        self.orientation = current
        capture = CapturingThread { nanoseconds in
            sensor.appendScans([(current.withLockedValue { $0 }, Double(nanoseconds) / 1e9)])
        }
    }

    func turn(to orientation: Orientation) { self.orientation.withLockedValue { $0 = orientation } }

    func stop() { capture?.stop() }
}
