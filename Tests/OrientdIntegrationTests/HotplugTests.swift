import EmulatedSensor
import Foundation
import OrientationCore
import OrientdProtocol
import ProcessHarness
import Testing

extension IntegrationTests {
    /// Sensors coming and going, as udev reports them (umockdev's uevents), while a subscriber listens.
    @Suite struct HotplugTests {
        @Test func aRemovedSensorIsReportedAndAReturningOneIsReadAgain() throws {
            let sensor = try EmulatedAccelerometer.standard(.landscapeLeft)
            let daemon = try Daemon(sensor: sensor)
            let subscriber = try daemon.client()
            let subscribed = try subscriber.call("subscribe")
            #expect(subscribed["sensorAvailable"] == .bool(true))

            sensor.unplug()
            let gone = try #require(try subscriber.nextEvent())
            #expect(gone["event"]?.stringValue == "sensorAvailability", "\(daemon.log)")
            #expect(gone["available"] == .bool(false))
            #expect(gone["reason"]?.stringValue?.contains("iio:device0 was removed") == true, "\(gone)")
            let unknown = try #require(try subscriber.nextEvent())
            #expect(unknown["orientation"]?.stringValue == "unknown")
            #expect(unknown["previous"]?.stringValue == "landscapeLeft")
            let status = try daemon.client().call("status")
            #expect(status["sensor"]?["available"] == .bool(false))
            #expect(status["sensor"]?["problem"]?.stringValue == "iio:device0 was removed")
            #expect(daemon.process.isRunning)

            let pluggedAt = Date()
            try sensor.plugIn()
            let back = try #require(try subscriber.nextEvent())
            #expect(back["event"]?.stringValue == "sensorAvailability")
            #expect(back["available"] == .bool(true))
            #expect(back["device"]?.stringValue == "iio:device0 (accel_3d)")
            let orientation = try #require(try subscriber.nextEvent())
            #expect(orientation["orientation"]?.stringValue == "landscapeLeft")
            #expect(Date().timeIntervalSince(pluggedAt) < 4, "reading resumed \(Date().timeIntervalSince(pluggedAt)) s after the add event")
            // One line for the removal, not a second one for the first failed attempt to reopen.
            // (A read that falls between the files vanishing and udev's remove event fails first
            // and says so, once: true, if the machine is slow enough to see it.)
            let warnings = daemon.log.split(separator: "\n").filter { $0.contains("orientd: warning:") }
            #expect(warnings.filter { $0.contains("warning: cannot use a sensor reading") }.count <= 1, "\(daemon.log)")
            #expect(warnings.filter { !$0.contains("warning: cannot use a sensor reading") }
                .map(String.init) == ["orientd: warning: the sensor iio:device0 was removed; waiting for an accelerometer to appear"],
                "\(daemon.log)")
        }

        @Test func aChangeEventRereadsTheMountMatrix() throws {
            let sensor = try EmulatedAccelerometer.standard(.portrait)
            let daemon = try Daemon(sensor: sensor)
            let subscriber = try daemon.client()
            #expect(try subscriber.subscribe() == .portrait)

            // A hwdb update says the sensor is mounted upside down: portrait reads as upside down.
            sensor.changeProperty("ACCEL_MOUNT_MATRIX", to: "-1, 0, 0; 0, -1, 0; 0, 0, 1")
            var events: [JSONValue] = []
            while let event = try subscriber.nextEvent() {
                events.append(event)
                if event["orientation"]?.stringValue == "portraitUpsideDown" { break }
            }
            #expect(events.last?["orientation"]?.stringValue == "portraitUpsideDown", "\(events)")
            let status = try daemon.client().call("status")
            #expect(status["sensor"]?["mountMatrixSource"]?.stringValue?.hasPrefix("udev property ACCEL_MOUNT_MATRIX") == true)
            #expect(daemon.log.contains("udev changed iio:device0"))
        }

        /// No accelerometer at start: orientd serves (status says why there is no sensor) and
        /// begins reading as soon as one appears.
        @Test func withoutASensorTheDaemonWaitsForOne() throws {
            let testbed = try EmulatedAccelerometer.lightSensorOnly()
            let daemon = try Daemon(sensor: testbed)
            let subscriber = try daemon.client()
            let subscribed = try subscriber.call("subscribe")
            #expect(subscribed["orientation"]?.stringValue == "unknown")
            #expect(subscribed["sensorAvailable"] == .bool(false))
            let status = try daemon.client().call("status")
            #expect(status["sensor"]?["available"] == .bool(false))
            #expect(status["sensor"]?["device"]?.stringValue == "none")
            #expect(status["sensor"]?["problem"]?.stringValue?.hasPrefix("no accelerometer") == true)
            #expect(daemon.log.contains("waiting for an accelerometer"), "\(daemon.log)")

            let pluggedAt = Date()
            try testbed.plugIn(.faceUp)
            let available = try #require(try subscriber.nextEvent())
            #expect(available["event"]?.stringValue == "sensorAvailability")
            #expect(available["available"] == .bool(true))
            let orientation = try #require(try subscriber.nextEvent())
            #expect(orientation["orientation"]?.stringValue == "faceUp")
            #expect(Date().timeIntervalSince(pluggedAt) < 4)
        }
    }
}
