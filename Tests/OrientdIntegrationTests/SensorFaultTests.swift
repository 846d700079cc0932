import EmulatedSensor
import Foundation
import ProcessHarness
import OrientationCore
import Testing

extension IntegrationTests {
    @Suite struct SensorFaultTests {
        /// Garbage in a raw attribute for a while: logged once, orientation held, everyone still
        /// served, and the daemon follows the device again as soon as the values are good.
        @Test("garbage raw values are survived", arguments: ["abc", ""])
        func garbageIsLoggedHeldAndRecovered(garbage: String) throws {
            let sensor = try EmulatedAccelerometer.standard(.portrait)
            let daemon = try Daemon(sensor: sensor)
            let subscriber = try daemon.client()
            #expect(try subscriber.subscribe() == .portrait)

            sensor.set("in_accel_z_raw", garbage)
            Thread.sleep(forTimeInterval: 1)
            #expect(try daemon.currentOrientation() == "portrait")
            #expect(daemon.process.isRunning)
            let warning = daemon.log.split(separator: "\n").filter { $0.contains("cannot use a sensor reading") }
            #expect(warning.count == 1, "expected one warning, got:\n\(daemon.log)")
            #expect(warning.first?.contains("in_accel_z_raw of iio:device0 holds '\(garbage)', not a number") == true)

            sensor.turn(to: .landscapeLeft)
            let event = try #require(try subscriber.nextEvent())
            #expect(event["orientation"]?.stringValue == "landscapeLeft")
            #expect(waitUntil(timeout: 2) { daemon.log.contains("sensor readings are good again") })
        }

        /// No good reading for longer than the stale time: subscribers are told `unknown`, and the
        /// orientation comes back with the readings.
        @Test func aSensorThatStopsAnsweringBecomesUnknown() throws {
            let sensor = try EmulatedAccelerometer.standard(.landscapeRight)
            let daemon = try Daemon(sensor: sensor)
            let subscriber = try daemon.client()
            #expect(try subscriber.subscribe() == .landscapeRight)

            sensor.set("in_accel_x_raw", "garbage")
            let lost = try #require(try subscriber.nextEvent())
            #expect(lost["orientation"]?.stringValue == "unknown")
            #expect(daemon.log.contains("orientation is now unknown"))

            sensor.turn(to: .portrait)
            let back = try #require(try subscriber.nextEvent())
            #expect(back["orientation"]?.stringValue == "portrait")
            #expect(back["previous"]?.stringValue == "unknown")
        }

        @Test func sigtermEndsTheDaemonCleanly() throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard())
            let started = Date()
            #expect(daemon.stop() == 0)
            #expect(Date().timeIntervalSince(started) < 4, "within the unit's 5 s stop timeout")
            #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
        }

        @Test func aSecondDaemonDoesNotStealTheSocket() throws {
            let sensor = try EmulatedAccelerometer.standard()
            let first = try Daemon(sensor: sensor)
            let second = try Daemon(sensor: sensor, arguments: ["--socket", first.socketPath], waitForSocket: false)
            #expect(waitUntil(timeout: 10) { !second.process.isRunning })
            #expect(second.stop() != 0)
            #expect(second.log.contains("another daemon is already serving \(first.socketPath)"))
            #expect(try first.currentOrientation() == "portrait")
        }
    }
}
