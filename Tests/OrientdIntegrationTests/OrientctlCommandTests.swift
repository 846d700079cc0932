import EmulatedSensor
import Foundation
import OrientationCore
import ProcessHarness
import Testing

extension IntegrationTests {
    @Suite struct OrientctlCommandTests {
        /// The mount matrix turns the sensor's portrait reading into the device's landscapeLeft.
        @Test func statusSaysWhatIsReadAndServed() throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(
                .portrait, properties: ["ACCEL_MOUNT_MATRIX": "0, 1, 0; -1, 0, 0; 0, 0, 1"]))
            let status = try run("orientctl", ["status", "--socket", daemon.socketPath])
            #expect(status.status == 0, "\(status.standardError)")
            for line in ["orientation:   landscapeLeft", "rotation lock: off", "sensor:        iio:device0 (accel_3d) in the display, id local:/accel_3d, at local:",
                         "reading:       no (no client needs it); when one does, 25 times a second while the device moves (or a client follows its angles), 3 while it is still", "mount matrix:  0, 1, 0; -1, 0, 0; 0, 0, 1 from udev property ACCEL_MOUNT_MATRIX",
                         "light:         none", "proximity:     none"] {
                #expect(status.standardOutput.contains(line), "missing '\(line)' in:\n\(status.standardOutput)")
            }
            // orientd counts the last orientctl's connection until its event loop has seen it close.
            var json = ""
            #expect(waitUntil(timeout: 5, every: 0.1) {
                json = (try? run("orientctl", ["status", "--json", "--socket", daemon.socketPath]).standardOutput) ?? ""
                return json.hasPrefix(#"{"clients":1,"#)
            }, "\(json)")
            // A subscriber keeps it read: at which pace, moving and still.
            let subscriber = try daemon.client()
            _ = try subscriber.subscribe()
            let reading = try run("orientctl", ["status", "--socket", daemon.socketPath]).standardOutput
            #expect(reading.contains("reading:       yes, 25 times a second while the device moves (or a client follows its angles), 3 while it is still"), "\(reading)")
        }

        /// Following the ambient sensors of a machine that has none says so at once.
        @Test func monitorSaysThereIsNoAmbientSensor() throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard())
            let monitor = try ChildProcess(Products.path("orientctl"), ["monitor", "--proximity", "--light", "--socket", daemon.socketPath])
            defer { monitor.stop() }
            try #require(monitor.waitForLines(2, timeout: 5), "monitor printed \(monitor.output.map(\.text)); daemon log:\n\(daemon.log)")
            #expect(monitor.output.map(\.text) == ["proximity sensor unavailable: orientd has none", "light sensor unavailable: orientd has none"])
        }

        /// monitor follows orientd across a restart, as rotate and the Swift client do: it says
        /// orientd stopped, waits, and prints the state afresh once orientd is back; with
        /// --no-reconnect a clean stop ends it with status 0. One started while orientd is down
        /// waits for it as monitor-sensor waits for iio-sensor-proxy; with --no-reconnect it fails.
        @Test func monitorFollowsOrientdAcrossARestart() throws {
            let sensor = try EmulatedAccelerometer.standard(.portrait)
            let first = try Daemon(sensor: sensor)
            let socket = first.socketPath
            let errors = makeScratchDirectory() + "/monitor.err"
            let monitor = try ChildProcess(Products.path("orientctl"), ["monitor", "--socket", socket], standardError: errors)
            defer { monitor.stop() }
            let once = try ChildProcess(Products.path("orientctl"), ["monitor", "--no-reconnect", "--socket", socket])
            defer { once.stop() }
            try #require(monitor.waitForLines(1, timeout: 10) && once.waitForLines(1, timeout: 10))
            #expect(monitor.output.map(\.text) == ["portrait"])
            #expect(first.stop() == 0)
            #expect(once.exitStatus(timeout: 10) == 0)
            let stderr = { (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "" }
            #expect(waitUntil(timeout: 10) { stderr().contains("orientd stopped; waiting for it to start again") }, "\(stderr())")
            #expect(monitor.isRunning)

            let lateErrors = makeScratchDirectory() + "/late.err"
            let late = try ChildProcess(Products.path("orientctl"), ["monitor", "--socket", socket], standardError: lateErrors)
            defer { late.stop() }
            let lateStderr = { (try? String(contentsOfFile: lateErrors, encoding: .utf8)) ?? "" }
            #expect(waitUntil(timeout: 10) { lateStderr().contains("cannot reach orientd at \(socket)") && lateStderr().contains("waiting for orientd to start") }, "\(lateStderr())")
            let failing = try run("orientctl", ["monitor", "--no-reconnect", "--socket", socket])
            #expect(failing.status != 0 && failing.standardError.contains("Is the daemon running?"), "\(failing.standardError)")

            sensor.turn(to: .landscapeLeft)
            let second = try Daemon(sensor: sensor, socketPath: socket)
            defer { _ = second.stop() }
            #expect(monitor.waitForLines(2, timeout: 10), "\(monitor.output.map(\.text)) \(stderr())")
            #expect(monitor.output.map(\.text) == ["portrait", "landscapeLeft"])
            #expect(stderr().contains("orientd is back"))
            #expect(late.waitForLines(1, timeout: 10), "\(late.output.map(\.text)) \(lateStderr())")
            #expect(late.output.map(\.text) == ["landscapeLeft"])
            #expect(lateStderr().contains("orientd is up"))
        }

        @Test func lockAndUnlock() throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard())
            let lock = try run("orientctl", ["lock", "--socket", daemon.socketPath])
            #expect(lock.status == 0)
            #expect(lock.standardOutput == "rotation locked\n")
            #expect(try run("orientctl", ["status", "--socket", daemon.socketPath]).standardOutput.contains("rotation lock: on"))
            let unlock = try run("orientctl", ["unlock", "--json", "--socket", daemon.socketPath])
            #expect(unlock.standardOutput == #"{"locked":false,"persisted":true}"# + "\n")
        }

        @Test func anglesPrintsOneLinePerSample() throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(.landscapeRight))
            let angles = try run("orientctl", ["angles", "--rate", "10", "--count", "3", "--socket", daemon.socketPath])
            #expect(angles.status == 0, "\(angles.standardError)")
            let lines = angles.standardOutput.split(separator: "\n")
            #expect(lines.count == 3)
            #expect(lines.allSatisfy { $0.hasPrefix("angle  270.0°  tilt    0.0°") }, "\(lines)")
        }

        /// A recording plays back through orientd --replay to the orientations that were recorded.
        @Test func recordMakesATraceThatReplays() throws {
            let sensor = try EmulatedAccelerometer.standard(.portrait)
            let daemon = try Daemon(sensor: sensor)
            let trace = daemon.directory + "/recorded.trace"
            let recorder = try ChildProcess(Products.path("orientctl"), ["record", trace, "--duration", "3", "--socket", daemon.socketPath])
            Thread.sleep(forTimeInterval: 1)
            sensor.turn(to: .landscapeLeft)
            #expect(waitUntil(timeout: 10) { !recorder.isRunning })
            let text = try String(contentsOfFile: trace, encoding: .utf8)
            let samples = try Trace.parse(text)
            #expect(samples.count > 50, "3 s at 25 Hz")
            #expect(samples.first?.time == 0)

            let replay = try Daemon(sensor: nil, arguments: ["--replay", trace, "--fast"], waitForSocket: false)
            #expect(waitUntil(timeout: 10) { !replay.process.isRunning })
            #expect(replay.log.contains("replay of \(trace) finished"))
            #expect(replay.log.contains("orientation unknown → portrait"))
            #expect(replay.log.contains("orientation portrait → landscapeLeft"))
        }

        /// Ctrl-C ends a recording with its summary, like --duration, and a trace that parses.
        @Test func anInterruptedRecordingSaysWhatItHolds() throws {
            let sensor = try EmulatedAccelerometer.standard(.portrait)
            let daemon = try Daemon(sensor: sensor)
            let trace = daemon.directory + "/interrupted.trace"
            let log = daemon.directory + "/record.log"
            let recorder = try ChildProcess(Products.path("orientctl"), ["record", trace, "--socket", daemon.socketPath], standardError: log)
            #expect(waitUntil(timeout: 5) { ((try? Trace.parse(String(contentsOfFile: trace, encoding: .utf8)))?.count ?? 0) >= 10 })
            kill(recorder.pid, SIGINT)
            #expect(waitUntil(timeout: 5) { !recorder.isRunning })
            let samples = try Trace.parse(String(contentsOfFile: trace, encoding: .utf8))
            let summary = try String(contentsOfFile: log, encoding: .utf8)
            #expect(summary == "orientctl: recording to \(trace) until Ctrl-C\nrecorded \(samples.count) samples to \(trace)\n", "\(summary)")

            // Recording again over it says so.
            let again = try run("orientctl", ["record", trace, "--duration", "0.2", "--socket", daemon.socketPath])
            #expect(again.standardError.hasPrefix("orientctl: recording to \(trace) (replacing what it held) for 0.2 s"), "\(again.standardError)")
            // A recording that cannot start (no orientd there) leaves the file as it was.
            let held = try String(contentsOfFile: trace, encoding: .utf8)
            let unreachable = try run("orientctl", ["record", trace, "--socket", daemon.directory + "/nobody.sock"])
            #expect(unreachable.status != 0)
            #expect(try String(contentsOfFile: trace, encoding: .utf8) == held)
        }

        /// In a terminal (util-linux's `script` gives it one) watch redraws in place; into a pipe
        /// it writes plain drawings one after the other, with no terminal codes.
        @Test func watchDrawsTheDeviceInPlace() throws {
            let sensor = try EmulatedAccelerometer.standard(.landscapeLeft)
            let daemon = try Daemon(sensor: sensor)
            let command = "'\(Products.path("orientctl"))' watch --frames 3 --socket '\(daemon.socketPath)'"
            let watch = try run(executable: "/usr/bin/script", ["--quiet", "--return", "--command", command, "/dev/null"])
            #expect(watch.status == 0, "\(watch.standardError)")
            let output = watch.standardOutput
            #expect(output.hasPrefix("\u{1B}[2J"), "clears the screen once")
            #expect(output.components(separatedBy: "\u{1B}[H").count == 4, "three frames, each from the top left")
            #expect(output.contains("  T               │"), "the top edge is drawn on the left")
            #expect(output.contains("landscapeLeft"))
            #expect(output.contains("angle  90.0°"))
            #expect(output.contains("rotation lock off"))

            let piped = try run("orientctl", ["watch", "--frames", "3", "--socket", daemon.socketPath])
            #expect(piped.status == 0, "\(piped.standardError)")
            #expect(!piped.standardOutput.contains("\u{1B}"), "terminal codes in a pipe: \(piped.standardOutput)")
            #expect(piped.standardOutput.components(separatedBy: "rotation lock off").count == 4, "\(piped.standardOutput)")
            #expect(piped.standardOutput.contains("\n\n"), "drawings separated by an empty line")
            // A phone's terminal held upright is about 40 columns: no line wraps there.
            let widest = piped.standardOutput.split(separator: "\n").map(\.count).max() ?? 0
            #expect(widest <= 40, "a line of \(widest) columns: \(piped.standardOutput)")
            #expect(piped.standardOutput.contains("floor ["), "the tilt bar, once angles come: \(piped.standardOutput)")
        }

        @Test("--help explains every command", arguments: ["status", "lock", "unlock", "angles", "record", "watch"])
        func helpForEveryNewCommand(command: String) throws {
            let result = try run("orientctl", [command, "--help"])
            #expect(result.status == 0)
            #expect(result.standardOutput.contains("OVERVIEW:"))
            #expect(result.standardOutput.contains("--socket"))
        }
    }
}
