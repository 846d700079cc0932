import EmulatedSensor
import Foundation
import OrientdClient
import OrientdProtocol
import ProcessHarness
import OrientationCore
import Testing

extension IntegrationTests {
    @Suite struct RemoteSensorTests {
        /// `--uri ip:HOST:PORT`: the real iiod serves the emulated sensor on loopback and orientd
        /// follows a turn through libiio's network backend.
        @Test func followsATurnThroughIiodOnLoopback() throws {
            let sensor = try EmulatedAccelerometer.standard(.portrait)
            let (iiod, port) = try startIiod(for: sensor)
            defer { stop(iiod) }
            let daemon = try Daemon(sensor: nil, arguments: ["--uri", "ip:127.0.0.1:\(port)"])
            let client = try daemon.client()
            #expect(try client.subscribe() == .portrait)
            sensor.turn(to: .landscapeLeft)
            let event = try #require(try client.nextEvent())
            #expect(event["orientation"]?.stringValue == "landscapeLeft")
            #expect(daemon.log.contains("at ip:127.0.0.1:\(port)"))
        }

        /// iiod dies: subscribers see `unknown`; iiod comes back on the same port: orientd reopens
        /// the context by itself and the orientation returns, with no restart of the daemon.
        @Test func recoversWhenIiodRestarts() throws {
            let sensor = try EmulatedAccelerometer.standard(.landscapeRight)
            let (iiod, port) = try startIiod(for: sensor)
            let daemon = try Daemon(sensor: nil, arguments: ["--uri", "ip:127.0.0.1:\(port)"])
            let client = try daemon.client()
            client.setReadTimeout(12)
            #expect(try client.subscribe() == .landscapeRight)

            stop(iiod)
            let lost = Date()
            // Readings fail: the orientation goes stale, then the sensor is closed as unavailable.
            #expect(try client.nextEvent()?["orientation"]?.stringValue == "unknown")
            let unavailable = try client.nextEvent()
            #expect(unavailable?["event"]?.stringValue == "sensorAvailability")
            #expect(unavailable?["available"] == .bool(false))
            #expect(Date().timeIntervalSince(lost) < 5)

            let (restarted, _) = try startIiod(for: sensor, port: port)
            defer { stop(restarted) }
            let back = Date()
            #expect(try client.nextEvent()?["available"] == .bool(true))
            #expect(try client.nextEvent()?["orientation"]?.stringValue == "landscapeRight")
            #expect(Date().timeIntervalSince(back) < 12)
            #expect(daemon.log.contains("opened the sensor"))
        }

        /// `--uri local: --uri ip:…`: one daemon reads this machine's accelerometer and a board's,
        /// each listed in `status` with a stable id; a client subscribes to the board's by id.
        /// The board's iiod dies: only its subscribers hear of it (within 5 s) while the local
        /// one is served on; iiod comes back and the board's orientation resumes within 10 s.
        @Test func readsALocalAndARemoteAccelerometerSideBySide() throws {
            let local = try EmulatedAccelerometer.standard(.portrait)
            let board = try EmulatedAccelerometer.standard(.landscapeLeft)
            let (iiod, port) = try startIiod(for: board)
            let remoteURI = "ip:127.0.0.1:\(port)"
            let daemon = try Daemon(sensor: local, arguments: ["--uri", "local:", "--uri", remoteURI])
            // The board's context opens after orientd serves (a network round trip or more).
            let statusClient = try daemon.client()
            var ids: [String?] = []
            let listed = waitUntil(timeout: 10) {
                guard case .array(let devices)? = (try? statusClient.call("status"))?["devices"] else { return false }
                ids = devices.map { $0["id"]?.stringValue }
                return ids == ["local:/accel_3d", "\(remoteURI)/accel_3d"]
            }
            guard listed else {
                stop(iiod)
                Issue.record("status lists \(ids)")
                return
            }

            let main = try daemon.client()
            #expect(try main.subscribe() == .portrait)
            let remote = try daemon.client()
            remote.setReadTimeout(12)
            let subscribed = try remote.call("subscribe", ["device": .string("\(remoteURI)/accel_3d")])
            #expect(subscribed["orientation"]?.stringValue == "landscapeLeft")
            board.turn(to: .portraitUpsideDown)
            #expect(try remote.nextEvent()?["orientation"]?.stringValue == "portraitUpsideDown")
            #expect(try run("orientctl", ["get", "--device", remoteURI, "--socket", daemon.socketPath]).standardOutput == "portraitUpsideDown\n")

            stop(iiod)
            let lost = Date()
            var unavailable = false
            while !unavailable, let event = try remote.nextEvent() {
                unavailable = event["event"]?.stringValue == "sensorAvailability" && event["available"] == .bool(false)
            }
            #expect(Date().timeIntervalSince(lost) < 5)
            // The local accelerometer is served on, turns and all.
            local.turn(to: .landscapeRight)
            main.setReadTimeout(3)
            #expect(try main.nextEvent()?["orientation"]?.stringValue == "landscapeRight")
            #expect(try daemon.client().call("get", ["device": .string(remoteURI)])["orientation"]?.stringValue == "unknown")

            let (restarted, _) = try startIiod(for: board, port: port)
            defer { stop(restarted) }
            let back = Date()
            // Back: availability, then the orientation read afresh (an `unknown` may come first).
            var orientation: String?
            while orientation == nil || orientation == "unknown", let event = try remote.nextEvent() {
                orientation = event["orientation"]?.stringValue ?? orientation
            }
            #expect(orientation == "portraitUpsideDown")
            #expect(Date().timeIntervalSince(back) < 10)
        }

        /// A board has no udev hwdb on orientd's side: the config file's `[Device "ID"]` gives its
        /// accelerometer's mount matrix, which orientd applies and reports as the source.
        @Test func aRemoteMountMatrixComesFromTheConfigFile() throws {
            let board = try EmulatedAccelerometer.standard(.portrait)
            let (iiod, port) = try startIiod(for: board)
            defer { stop(iiod) }
            let uri = "ip:127.0.0.1:\(port)"
            let config = makeScratchDirectory() + "/orientd.conf"
            // Turns the board's portrait reading (0, -1, 0) into (-1, 0, 0): landscapeLeft.
            try "[Daemon]\nuri=\(uri)\n[Device \"\(uri)/accel_3d\"]\nmount-matrix=0, 1, 0; -1, 0, 0; 0, 0, 1\n"
                .write(toFile: config, atomically: true, encoding: .utf8)
            let daemon = try Daemon(sensor: nil, arguments: ["--config", config])
            let client = try daemon.client()
            #expect(try client.currentOrientation() == .landscapeLeft, "\(daemon.log)")
            let sensor = try client.call("status")["sensor"]
            #expect(sensor?["mountMatrixSource"]?.stringValue == "config file [Device \"\(uri)/accel_3d\"] mount-matrix")
        }

        /// A board whose accelerometer has scan elements is read through a buffer over iiod: one
        /// round trip per scan instead of three attribute reads. Its raw attributes say
        /// landscapeRight, its scans portrait and then landscapeLeft: orientd follows the scans.
        @Test func capturesThroughABufferOverIiod() throws {
            let board = try EmulatedAccelerometer.buffered(rawAttributes: .landscapeRight)
            let device = StreamingDevice(board, orientation: .portrait)
            defer { device.stop() }
            let (iiod, port) = try startIiod(for: board)
            defer { stop(iiod) }
            let daemon = try Daemon(sensor: nil, arguments: ["--uri", "ip:127.0.0.1:\(port)"])
            let client = try daemon.client()
            #expect(try client.subscribe() == .portrait, "\(daemon.log)")
            client.setReadTimeout(3)
            device.turn(to: .landscapeLeft)
            #expect(try client.nextEvent()?["orientation"]?.stringValue == "landscapeLeft", "\(daemon.log)")
            #expect(!daemon.log.contains("gave no data"), "\(daemon.log)")
        }

        /// Naming a device orientd does not read is an error that lists what it reads.
        @Test func anUnknownDeviceIsRefusedWithTheKnownOnes() throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(.portrait))
            let client = try daemon.client()
            #expect(try client.call("get", ["device": .string("local:/accel_3d")])["orientation"]?.stringValue == "portrait")
            do {
                _ = try client.call("subscribe", ["device": .string("ip:elsewhere")])
                Issue.record("subscribed to a device orientd does not read")
            } catch OrientdClientError.serverError(let code, let message) {
                #expect(code == .unknownDevice)
                #expect(message == "no accelerometer 'ip:elsewhere'; orientd follows: local:, local:/accel_3d")
            }
        }

        /// Starts iiod inside the sensor's testbed on a free loopback port (or the given one).
        private func startIiod(for sensor: EmulatedAccelerometer, port fixed: Int? = nil) throws -> (Process, Int) {
            for _ in 0..<5 {
                let port = fixed ?? Int.random(in: 20000...60000)
                let iiod = Process()
                iiod.executableURL = URL(fileURLWithPath: "/usr/sbin/iiod")
                iiod.arguments = ["-D", "-p", String(port)]
                iiod.environment = ProcessInfo.processInfo.environment.merging(sensor.environment) { $1 }
                iiod.standardOutput = FileHandle.nullDevice
                iiod.standardError = FileHandle.nullDevice
                try iiod.run()
                if waitUntil(timeout: 5, { !iiod.isRunning || acceptsConnections(onLoopbackPort: port) }), iiod.isRunning {
                    return (iiod, port)
                }
                stop(iiod)
            }
            throw TestFailure("iiod did not start on any port")
        }

        /// iiod inherits the test runner's blocked signal mask, so SIGTERM would never reach it.
        private func stop(_ iiod: Process) {
            if iiod.isRunning { kill(iiod.processIdentifier, SIGKILL) }
            iiod.waitUntilExit()
        }
    }
}
