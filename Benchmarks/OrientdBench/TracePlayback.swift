import Foundation
import OrientationCore

/// Plays orientd traces on the emulated sensor in real time, as a device would move, while the
/// daemons read it, and prints every orientation each one reported, timed in the trace's
/// seconds (by arrival at its client, so with its latency). Lines, on stdout:
///
///     trace PATH
///     report DAEMON SECONDS ORIENTATION
///
/// The daemons are started afresh for each trace, on its first sample, so that each one starts
/// from what the trace shows, as a model of its rule replayed from the same first sample does.
/// scripts/bench-recordings reads this to count the real iio-sensor-proxy's changes on a subset
/// of the recordings.
struct TracePlayback {
    let paths: [String]

    func loadTraces() throws -> [(path: String, samples: [AccelerometerSample])] {
        try paths.map { path in
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw BenchFailure("cannot read the trace \(path)") }
            do {
                let samples = try Trace.parse(text)
                guard !samples.isEmpty else { throw BenchFailure("the trace \(path) has no samples") }
                return (path, samples)
            } catch let error as TraceError {
                throw BenchFailure("the trace \(path), \(error)")
            }
        }
    }

    /// Plays one trace to daemons started on its first sample; prints what they reported.
    func play(_ path: String, _ samples: [AccelerometerSample], sensor: BenchSensor, daemons: [any DaemonUnderTest]) {
        let begin = now() - samples.first!.time
        sensor.play(samples, from: begin)
        sleep(seconds: 1.5)
        print("trace \(path)")
        for daemon in daemons {
            for report in daemon.reports {
                print("report \(daemon.name) \(String(format: "%.3f", max(samples.first!.time, report.time - begin))) \(report.orientation.rawValue)")
            }
        }
    }
}
