import EmulatedSensor
import Foundation
import OrientationCore
import OrientdProtocol
import ProcessHarness
import Testing

extension IntegrationTests {
    /// The sensor is read only while something needs it (issue 4's power targets).
    @Suite struct PowerTests {
        static func rawAttributeReads(of sensor: EmulatedAccelerometer) throws -> FileAccessCounter {
            try FileAccessCounter(directory: sensor.root + "/sys" + EmulatedAccelerometer.devicePath) { name in
                name.hasPrefix("in_accel_") && name.hasSuffix("_raw")
            }
        }

        /// A subscriber keeps it read; with no client at all, 10 s pass without one read; then a
        /// get of a device turned meanwhile answers within 100 ms with the new orientation.
        @Test func withNoClientTheSensorIsNotReadAtAll() throws {
            let sensor = try EmulatedAccelerometer.standard(.portrait)
            let daemon = try Daemon(sensor: sensor)
            let reads = try Self.rawAttributeReads(of: sensor)

            do {
                let subscriber = try daemon.client()
                _ = try subscriber.subscribe()
                Thread.sleep(forTimeInterval: 1)
                // Three attributes per poll at 25 Hz: about 75 in the second.
                #expect(reads.take() > 30, "a subscriber must keep the sensor read")
            }
            // The subscriber is gone; a subscribe keeps the sensor read 5 s more, as a get does.
            Thread.sleep(forTimeInterval: 5.5)
            _ = reads.take()
            Thread.sleep(forTimeInterval: 10)
            #expect(reads.take() == 0, "with no client, orientd must not read the sensor")

            let connection = try rawConnection(to: daemon)
            _ = try connection.readJSON()  // hello: connecting alone reads nothing
            sensor.turn(to: .landscapeLeft)
            Thread.sleep(forTimeInterval: 0.5)
            #expect(reads.take() == 0)
            let asked = monotonicNow()
            try connection.send(#"{"id":1,"method":"get"}"#)
            let reply = try #require(try connection.readJSON())
            let elapsed = monotonicNow() - asked
            #expect(reply["result"]?["orientation"] == .string("landscapeLeft"), "a get after idle must read afresh")
            #expect(elapsed < 0.1, "the get took \(Int(elapsed * 1000)) ms")
        }

        /// A subscription to the rotation lock alone needs no readings; status and ping wake nothing.
        @Test func lockSubscriptionsStatusAndPingReadNothing() throws {
            let sensor = try EmulatedAccelerometer.standard(.portrait)
            let daemon = try Daemon(sensor: sensor)
            let reads = try Self.rawAttributeReads(of: sensor)
            let connection = try rawConnection(to: daemon)
            _ = try connection.readJSON()
            try connection.send(#"{"id":1,"method":"subscribe","events":["rotationLockDidChange"]}"#)
            try connection.send(#"{"id":2,"method":"status"}"#)
            try connection.send(#"{"id":3,"method":"ping"}"#)
            for _ in 1...3 { _ = try connection.readJSON() }
            Thread.sleep(forTimeInterval: 3)
            #expect(reads.take() == 0)
            try connection.send(#"{"id":4,"method":"status"}"#)
            #expect(try connection.readJSON()?["result"]?["sensor"]?["reading"] == .bool(false))
        }
    }
}
