import EmulatedSensor
import Foundation
import OrientationCore
import OrientdProtocol
import ProcessHarness
import Testing

extension IntegrationTests {
    /// A still device is read at the still rate, and a turn is still caught (issue 15). When the
    /// pace changes is `SamplingPace`'s and `SensorLoop`'s, unit-tested; this counts the reads of
    /// the real daemon.
    @Suite struct AdaptiveSamplingTests {
        /// Reads of the emulated sensor: one open of its x attribute each.
        static func reads(of sensor: EmulatedAccelerometer) throws -> FileAccessCounter {
            try FileAccessCounter(directory: sensor.root + "/sys" + EmulatedAccelerometer.devicePath) { $0 == "in_accel_x_raw" }
        }

        /// Waits until a window of at least 2 s is read fewer than `below` times a second (the
        /// reads are counted, their times never looked at); returns that rate, or nil on timeout.
        static func waitForReadRate(below: Double, _ reads: FileAccessCounter, timeout: Double = 20) -> Double? {
            _ = reads.take()
            var windowStart = monotonicNow()
            var counted = 0
            var rate: Double?
            _ = waitUntil(timeout: timeout, every: 0.1) {
                counted += reads.take()
                let elapsed = monotonicNow() - windowStart
                guard elapsed >= 2 else { return false }
                let measured = Double(counted) / elapsed
                if measured < below {
                    rate = measured
                    return true
                }
                windowStart += elapsed
                counted = 0
                return false
            }
            return rate
        }

        @Test func aStillDeviceIsReadAtTheStillRateAndATurnIsStillCaught() throws {
            let sensor = try EmulatedAccelerometer.standard(.portrait)
            // The defaults: rate 25, still-rate 3, still-after-ms 1500.
            let daemon = try Daemon(sensor: sensor)
            let reads = try Self.reads(of: sensor)
            let subscriber = try rawConnection(to: daemon)
            _ = try subscriber.readJSON()  // hello
            try subscriber.send(#"{"id":1,"method":"subscribe","events":["deviceOrientationDidChange"]}"#)
            #expect(try subscriber.readJSON()?["id"] == .integer(1))

            // Still: about 3 reads a second, far below the 25 of the full rate; but read all the
            // same, for the subscriber.
            let still = try #require(Self.waitForReadRate(below: 10, reads), "never below 10 reads a second:\n\(daemon.log)")
            #expect(still >= 1, "a subscriber must keep the sensor read")
            #expect(daemon.log.contains("the device is still: reading it 3 times a second"))

            let movesBefore = daemon.log.components(separatedBy: "the device moves").count
            sensor.turn(to: .landscapeLeft)
            var event: JSONValue?
            while event == nil, let message = try subscriber.readJSON() {
                if message["event"] == .string("deviceOrientationDidChange") { event = message }
            }
            #expect(event?["orientation"] == .string("landscapeLeft"), "the turn was missed:\n\(daemon.log)")
            #expect(daemon.log.components(separatedBy: "the device moves").count > movesBefore,
                    "the turn must bring back the full rate:\n\(daemon.log)")

            // Still again in its new position.
            #expect(Self.waitForReadRate(below: 10, reads) != nil, "not slow again after the turn:\n\(daemon.log)")
        }
    }
}
