import EmulatedSensor
import Foundation
@testable import OrientdClient
import OrientdProtocol
import ProcessHarness
import Testing

extension IntegrationTests {
    /// The ambient light and proximity sensors through the real daemon: libiio's `local:`
    /// backend and udev on umockdev's emulated devices, orientd's socket protocol on the other side.
    @Suite struct AmbientSensorDaemonTests {
        /// Reads lines until one satisfies `wanted`; nil when the connection ends or times out.
        static func read(_ connection: DaemonConnection, until wanted: (JSONValue) -> Bool) throws -> JSONValue? {
            while let message = try connection.readJSON() {
                if wanted(message) { return message }
            }
            return nil
        }

        static func status(_ daemon: Daemon) throws -> JSONValue? {
            let connection = try rawConnection(to: daemon)
            _ = try connection.readJSON()
            try connection.send(#"{"id":"status","method":"status"}"#)
            return try connection.readJSON()?["result"]
        }

        /// Found at start, read only while subscribed to, new levels and proximity sent as they
        /// come, a light sensor unplugged and plugged in again reported both ways.
        @Test func lightAndProximityAreReadWhileSubscribedAndFollowedThroughHotplug() throws {
            let sensor = try EmulatedAccelerometer.withAmbientSensors(lux: 10, proximityRaw: 0)
            let daemon = try Daemon(sensor: sensor)
            let before = try #require(try Self.status(daemon), "\(daemon.log)")
            #expect(before["light"]?["device"] == .string("iio:device1 (als)"), "\(daemon.log)")
            #expect(before["light"]?["reading"] == .bool(false))
            #expect(before["proximity"]?["device"] == .string("iio:device2 (prox)"))
            #expect(before["proximity"]?["reading"] == .bool(false))

            // A read that fails says which step it was, with the daemon's log.
            func step<T>(_ what: String, _ body: () throws -> T) throws -> T {
                do { return try body() } catch { throw TestFailure("\(what): \(error)\n\(daemon.log)") }
            }
            let connection = try rawConnection(to: daemon, timeout: 10)
            _ = try step("the greeting") { try connection.readJSON() }
            try connection.send(#"{"id":1,"method":"subscribe","events":["ambientLightDidChange","proximityStateDidChange"]}"#)
            let subscribed = try #require(try step("the subscription's answer") { try Self.read(connection) { $0["id"] == .integer(1) } })
            #expect(subscribed["result"]?["lightAvailable"] == .bool(true) && subscribed["result"]?["proximityAvailable"] == .bool(true))
            func next(_ event: String) throws -> JSONValue? { try step("waiting for \(event)") { try Self.read(connection) { $0["event"] == .string(event) } } }

            // The first readings may come in either order: read while the subscription's answer is
            // held back, they are sent together, proximity first (Subscription.sendWhatIsPending).
            var first: [String: JSONValue] = [:]
            while first.count < 2, let message = try step("waiting for the first readings", { try connection.readJSON() }) {
                if let event = message["event"]?.stringValue, ["ambientLightDidChange", "proximityStateDidChange"].contains(event) {
                    first[event] = message
                }
            }
            #expect(first["ambientLightDidChange"]?["level"] == .integer(10), "\(daemon.log)")
            #expect(first["proximityStateDidChange"]?["proximityState"] == .bool(false), "\(daemon.log)")
            sensor.setLight(42.5)
            #expect(try next("ambientLightDidChange")?["level"] == .number(42.5), "\(daemon.log)")
            sensor.setProximity(raw: 200)
            #expect(try next("proximityStateDidChange")?["proximityState"] == .bool(true), "\(daemon.log)")
            let during = try #require(try Self.status(daemon))
            #expect(during["light"]?["reading"] == .bool(true) && during["light"]?["level"] == .number(42.5))
            #expect(during["proximity"]?["proximityState"] == .bool(true))

            sensor.unplugDevice(at: EmulatedAccelerometer.lightDevicePath)
            let gone = try next("sensorAvailability")
            #expect(gone?["sensor"] == .string("light") && gone?["available"] == .bool(false), "\(daemon.log)")
            try sensor.plugInDevice(at: EmulatedAccelerometer.lightDevicePath)
            let back = try next("sensorAvailability")
            #expect(back?["sensor"] == .string("light") && back?["available"] == .bool(true), "\(daemon.log)")
            // Read at once: the subscription still needs it.
            #expect(try next("ambientLightDidChange")?["level"] == .integer(10), "\(daemon.log)")

            try connection.send(#"{"id":2,"method":"unsubscribe"}"#)
            _ = try step("the unsubscription's answer") { try Self.read(connection) { $0["id"] == .integer(2) } }
            #expect(waitUntil(timeout: 10, every: 0.2) {
                let after = try? Self.status(daemon)
                return after?["light"]?["reading"] == .bool(false) && after?["proximity"]?["reading"] == .bool(false)
            }, "\(daemon.log)")
        }

        /// `orientctl status` names the ambient sensors.
        @Test func orientctlStatusShowsTheAmbientSensors() throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.withAmbientSensors())
            let status = try run("orientctl", ["status"], environment: ["ORIENTD_SOCKET": daemon.socketPath])
            #expect(status.status == 0)
            #expect(status.standardOutput.contains("iio:device1 (als)") && status.standardOutput.contains("iio:device2 (prox)"),
                    "\(status.standardOutput)")
        }
    }
}
