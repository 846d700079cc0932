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

        /// Whether orientd says it reads the sensor now (`status` reads nothing itself).
        static func isReading(_ daemon: Daemon) throws -> Bool? {
            let connection = try rawConnection(to: daemon)
            _ = try connection.readJSON()
            try connection.send(#"{"id":1,"method":"status"}"#)
            guard case .bool(let reading)? = try connection.readJSON()?["result"]?["sensor"]?["reading"] else { return nil }
            return reading
        }

        /// A subscriber keeps it read; once no client needs it, a window of seconds passes without
        /// one read (when the poller sleeps is SensorLoop's, unit-tested); then a get of a device
        /// turned meanwhile answers with the new orientation.
        @Test func withNoClientTheSensorIsNotReadAtAll() throws {
            let sensor = try EmulatedAccelerometer.standard(.portrait)
            let daemon = try Daemon(sensor: sensor, arguments: ["--keep-reading-ms", "1000"])
            let reads = try Self.rawAttributeReads(of: sensor)

            do {
                let subscriber = try daemon.client()
                _ = try subscriber.subscribe()
                var counted = 0
                #expect(waitUntil(timeout: 10) { counted += reads.take(); return counted > 30 }, "a subscriber must keep the sensor read")
            }
            // The subscriber is gone; the sensor is read keep-reading-ms more (1 s here; 5 s by default), as after a get.
            #expect(waitUntil(timeout: 15, every: 0.2) { (try? Self.isReading(daemon)) == false })
            _ = reads.take()
            Thread.sleep(forTimeInterval: 1)  // the window in which nothing may be read (3 reads at the still rate)
            #expect(reads.take() == 0, "with no client, orientd must not read the sensor")

            let connection = try rawConnection(to: daemon)
            _ = try connection.readJSON()  // hello: connecting alone reads nothing
            sensor.turn(to: .landscapeLeft)
            #expect(reads.take() == 0)
            try connection.send(#"{"id":1,"method":"get"}"#)
            let reply = try #require(try connection.readJSON())
            #expect(reply["result"]?["orientation"] == .string("landscapeLeft"), "a get after idle must read afresh")
        }

        /// The event thread (udev, and D-Bus with --sensor-proxy) wakes only when udev, the bus
        /// (or a stop) has something to say: no timer (the udev thread once woke 4 times a second).
        /// Nor does any other thread but the sensor's: libdispatch's worker pool, once a delayed
        /// job (`Task.sleep`) has used it, keeps a timer that wakes the daemon once a second.
        @Test(arguments: [false, true])
        func theEventThreadSleepsUntilUdevOrTheBusSpeaks(servingDBus: Bool) throws {
            let bench = servingDBus ? try SensorProxyBench() : nil
            let sensor = try EmulatedAccelerometer.withAmbientSensors(.portrait)
            let daemon = try bench.map { try $0.orientd(sensor) } ?? Daemon(sensor: sensor)
            if let bench {
                #expect(waitUntil(timeout: 10) { bench.owner(of: "net.hadess.SensorProxy") == daemon.process.processIdentifier })
            }
            let pid = daemon.process.processIdentifier
            /// Wake-ups of the threads whose name `counts`, by thread id.
            func wakeUps(ofThreadsNamed counts: (String) -> Bool) -> [Int: (name: String, wakeUps: Int)] {
                ChildProcess.wakeUpsByThread(ofProcess: pid).filter { counts($0.value.name) }
            }
            let eventThread = { (name: String) in name.hasPrefix("orientd-events") }
            #expect(!wakeUps(ofThreadsNamed: eventThread).isEmpty, "no orientd-events thread:\n\(daemon.log)")
            /// The threads ("name/id") that woke between two counts. One that ended meanwhile
            /// (libdispatch lets an idle worker go after 5 s) woke no more; one that began did.
            func woke(from before: [Int: (name: String, wakeUps: Int)], to now: [Int: (name: String, wakeUps: Int)]) -> [String] {
                now.filter { id, thread in thread.wakeUps != before[id]?.wakeUps ?? 0 }.map { "\($0.value.name)/\($0.key)" }.sorted()
            }
            // The sensor's thread reads at its pace while the start-up's reading is kept.
            let notTheSensors = { (name: String) in !name.hasPrefix("orientd-sensor") }
            // Start-up's own news (the ambient sensors' first readings, the bus name) may still be
            // on their way to the bus on a loaded machine: first a second with no wake-up.
            var counted = wakeUps(ofThreadsNamed: notTheSensors)
            #expect(waitForQuiet(of: 1, timeout: 20, every: 0.1) {
                let now = wakeUps(ofThreadsNamed: notTheSensors)
                defer { counted = now }
                return !woke(from: counted, to: now).isEmpty
            }, "the daemon's threads never went quiet for a second")
            let before = wakeUps(ofThreadsNamed: notTheSensors)
            Thread.sleep(forTimeInterval: 1.1)  // the window in which none may wake (a 1 Hz timer would)
            let woken = woke(from: before, to: wakeUps(ofThreadsNamed: notTheSensors))
            #expect(woken.isEmpty, "threads woke with nothing to do: \(woken)")

            // A D-Bus client claiming every sensor of a still device: 25 samples a second are
            // read, none of them news for the bus.
            guard let bench else { return }
            let monitor = try bench.startMonitorSensor()
            defer { monitor.stop() }
            // monitor-sensor prints its `=== Has …` lines once its claims have been answered.
            try #require(monitor.waitForLine(containing: "=== Has proximity sensor"), "\(monitor.outputText)\n\(daemon.log)")
            let claimed = wakeUps(ofThreadsNamed: eventThread).values.reduce(0) { $0 + $1.wakeUps }
            Thread.sleep(forTimeInterval: 2)
            #expect(wakeUps(ofThreadsNamed: eventThread).values.reduce(0) { $0 + $1.wakeUps } - claimed < 4,
                    "the event thread woke for readings that changed nothing")
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
            Thread.sleep(forTimeInterval: 2)  // the window in which nothing may be read
            #expect(reads.take() == 0)
            try connection.send(#"{"id":4,"method":"status"}"#)
            #expect(try connection.readJSON()?["result"]?["sensor"]?["reading"] == .bool(false))
        }
    }
}
