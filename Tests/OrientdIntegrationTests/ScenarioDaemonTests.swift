import EmulatedSensor
import Foundation
import ProcessHarness
import OrientationCore
import ScenarioCorpus
import Testing

/// Scenarios of the corpus through the whole daemon, not just the core.
extension IntegrationTests {
    @Suite struct ScenarioDaemonTests {
        /// `orientd --replay TRACE --fast`: the real pipeline publishes exactly the expected changes,
        /// each within its window of the trace's time (the log says when), and orientd exits 0.
        @Test("replayed through the daemon", arguments: ["slow-turn", "pick-up-from-flat", "fast-flip", "shake", "suspend-gap"])
        func replayedScenario(name: String) throws {
            let scenario = try #require(Corpus.named(name))
            let trace = makeScratchDirectory() + "/\(name).trace"
            try Trace.format(scenario.samples).write(toFile: trace, atomically: true, encoding: .utf8)
            let daemon = try Daemon(sensor: nil, arguments: ["--replay", trace, "--fast"], waitForSocket: false)
            // As fast as possible is for scripts: orientd stops by itself at the end of the trace.
            #expect(waitUntil(timeout: 10) { !daemon.process.isRunning }, "\(daemon.log)")
            #expect(daemon.stop() == 0)
            #expect(daemon.log.contains("finished"))
            // "orientation portrait → landscapeLeft at 7.88 s of the trace"
            let changes = daemon.log.split(separator: "\n").compactMap { line -> (orientation: String, time: Double)? in
                guard let match = line.firstMatch(of: /orientation \w+ → (\w+) at ([0-9.]+) s of the trace/), let time = Double(match.2) else { return nil }
                return (String(match.1), time)
            }
            #expect(changes.map(\.orientation) == scenario.expected.map(\.orientation.rawValue), "\(daemon.log)")
            for (change, expected) in zip(changes, scenario.expected) {
                #expect(expected.window.contains(change.time), "\(change.orientation) at \(change.time) s, expected \(expected)")
            }
        }

        /// A trace written in g (a phone app's usual unit) still turns, and the log says what is
        /// wrong with the trace, not with a kernel driver it does not have.
        @Test func aTraceInGIsToldToBeInMetresPerSecondSquared() throws {
            let trace = makeScratchDirectory() + "/in-g.trace"
            let samples = (0..<250).map { AccelerometerSample(time: Double($0) * 0.04, acceleration: $0 < 125 ? Vector3(0, -1, 0) : Vector3(-1, 0, 0)) }
            try Trace.format(samples).write(toFile: trace, atomically: true, encoding: .utf8)
            let daemon = try Daemon(sensor: nil, arguments: ["--replay", trace, "--fast"], waitForSocket: false)
            #expect(waitUntil(timeout: 10) { !daemon.process.isRunning }, "\(daemon.log)")
            #expect(daemon.log.contains("the trace reads 1 m/s² (0.1 g) at rest: its samples are not in m/s²"), "\(daemon.log)")
            #expect(!daemon.log.contains("kernel driver"), "\(daemon.log)")
            #expect(daemon.log.contains("orientation portrait → landscapeLeft"), "\(daemon.log)")
        }

        /// A fast replay opens no socket: it runs beside a daemon already serving the socket it
        /// would have taken (the README's terminal after scripts/try), and as a user who may not
        /// create /run/orientd.sock.
        @Test func aFastReplayOpensNoSocket() throws {
            let serving = try Daemon(sensor: try EmulatedAccelerometer.standard())
            let trace = makeScratchDirectory() + "/turn.trace"
            let samples = (0..<100).map { AccelerometerSample(time: Double($0) * 0.04, acceleration: $0 < 50 ? Vector3(0, -9.80665, 0) : Vector3(-9.80665, 0, 0)) }
            try Trace.format(samples).write(toFile: trace, atomically: true, encoding: .utf8)
            let replay = try Daemon(sensor: nil, arguments: ["--replay", trace, "--fast"], socketPath: serving.socketPath, waitForSocket: false)
            #expect(waitUntil(timeout: 10) { !replay.process.isRunning }, "\(replay.log)")
            #expect(replay.stop() == 0, "\(replay.log)")
            #expect(replay.log.contains("orientation portrait → landscapeLeft"), "\(replay.log)")
            #expect(!replay.log.contains("already serving"), "\(replay.log)")
            #expect(try serving.client().call("ping")["pong"] == .bool(true), "the serving daemon keeps its socket")
        }

        /// A replay in real time serves a socket; one it cannot make says how to pass another.
        @Test func aSocketThatCannotBeMadeSaysHowToPassAnother() throws {
            let trace = makeScratchDirectory() + "/still.trace"
            try "0 0 -9.8 0\n".write(toFile: trace, atomically: true, encoding: .utf8)
            let replay = try Daemon(sensor: nil, arguments: ["--replay", trace], socketPath: "/proc/orientd-test/orientd.sock", waitForSocket: false)
            #expect(waitUntil(timeout: 10) { !replay.process.isRunning }, "\(replay.log)")
            #expect(replay.stop() != 0)
            #expect(replay.log.contains("to serve elsewhere, pass --socket PATH"), "\(replay.log)")
        }

        @Test func aMalformedTraceIsRefusedNamingTheLine() throws {
            let trace = makeScratchDirectory() + "/bad.trace"
            try "0 0 -9.8 0\n0.02 0 -9.8\n".write(toFile: trace, atomically: true, encoding: .utf8)
            let daemon = try Daemon(sensor: nil, arguments: ["--replay", trace], waitForSocket: false)
            #expect(waitUntil(timeout: 10) { !daemon.process.isRunning })
            #expect(daemon.stop() != 0)
            #expect(daemon.log.contains("line 2: expected 4 numbers"), "\(daemon.log)")
        }

        /// The emulated sensor driven through a scenario in real time while orientd polls it at its
        /// own rate: subscribers see the expected changes and nothing else.
        @Test("played on the emulated sensor", arguments: ["bump", "put-down-swing", "fast-flip"])
        func playedOnTheSensor(name: String) throws {
            let scenario = try #require(Corpus.named(name))
            let counts = 1000.0
            func raw(_ sample: AccelerometerSample) -> Vector3 { sample.acceleration * (counts / 9.80665) }
            let sensor = try EmulatedAccelerometer.standard(extra: ["in_accel_scale": String(9.80665 / counts)])
            sensor.setRaw(raw(scenario.samples[0]))
            let daemon = try Daemon(sensor: sensor)
            let client = try daemon.client()
            var seen = [try client.subscribe().rawValue]

            let start = Date()
            for sample in scenario.samples {
                let wait = sample.time - Date().timeIntervalSince(start)
                if wait > 0 { Thread.sleep(forTimeInterval: wait) }
                sensor.setRaw(raw(sample))
            }
            // Every expected change (the last one is at most a settle and a filter after the end),
            // then none more for a while.
            let expected = scenario.expected.map(\.orientation.rawValue)
            client.setReadTimeout(2)
            while seen.count < expected.count, let event = try? client.nextEvent()?["orientation"]?.stringValue { seen.append(event) }
            client.setReadTimeout(0.5)
            while let event = try? client.nextEvent()?["orientation"]?.stringValue { seen.append(event) }
            #expect(seen == expected, "\(daemon.log)")
        }
    }
}
