import Foundation
import OrientationCore

/// Plays orientd traces on the emulated sensor in real time, as a device would move, while the
/// daemons read it, and prints every orientation each one reported, timed in the trace's
/// seconds (by arrival at its client, so with its latency). Lines, on stdout:
///
///     trace PATH
///     report DAEMON SECONDS ORIENTATION
///
/// The daemons keep running from one trace to the next; a trace's first report of a daemon is
/// where it stood when the trace began. scripts/bench-recordings reads this to count the real
/// iio-sensor-proxy's changes on a subset of the recordings.
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

    func play(_ traces: [(path: String, samples: [AccelerometerSample])], sensor: BenchSensor,
              daemons: [any DaemonUnderTest], progress: (String) -> Void) {
        for (path, samples) in traces {
            let span = samples.last!.time - samples.first!.time
            progress("playing \(path) in real time (\(Int(span.rounded())) s)")
            let counts = daemons.map(\.reports.count)
            let begin = now() - samples.first!.time
            for sample in samples {
                sleep(seconds: begin + sample.time - now())
                sensor.show(sample.acceleration)
            }
            sleep(seconds: 1.5)
            print("trace \(path)")
            for (daemon, count) in zip(daemons, counts) {
                let before = daemon.reports.prefix(count).last.map { [$0] } ?? []
                for report in before + daemon.reports.dropFirst(count) {
                    print("report \(daemon.name) \(String(format: "%.3f", max(samples.first!.time, report.time - begin))) \(report.orientation.rawValue)")
                }
            }
        }
    }
}
