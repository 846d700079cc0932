import Foundation
import OrientdClient
import OrientdProtocol
import ProcessHarness

/// iiod serving the bench sensor on a loopback port: orientd's `ip:` path, libiio's network
/// engine end to end, on one machine.
final class LoopbackIiod {
    let port: Int
    private let process: ChildProcess

    var uri: String { "ip:127.0.0.1:\(port)" }

    init(environment: [String: String], log: String) throws {
        for _ in 0..<5 {
            let port = Int.random(in: 20000...60000)
            let process = try ChildProcess("/usr/sbin/iiod", ["-D", "-p", String(port)], environment: environment, standardError: log)
            if waitUntil(timeout: 5, { !process.isRunning || acceptsConnections(onLoopbackPort: port) }), process.isRunning {
                self.port = port
                self.process = process
                return
            }
            process.stop()
        }
        throw BenchFailure("iiod did not start on a loopback port; see \(log)")
    }

    func stop() { process.stop() }
}

/// How fast orientd reads one context when asked to read as fast as it may: orientd polling at
/// 1000 a second (each poll reads x, y and z), one `angles` subscriber at that rate, samples
/// counted over a few seconds. The gaps between samples are the time one poll takes.
struct ReadRate {
    let uri: String
    let samplesPerSecond: Double
    let gapsMs: [Double]

    static func measure(executable: String, uri: String, environment: [String: String],
                        socketPath: String, log: String, seconds: Double) throws -> ReadRate {
        let daemon = try ChildProcess(executable, ["--config", "/dev/null", "--socket", socketPath, "--uri", uri, "--rate", "1000"],
                                      environment: environment, standardError: log)
        defer { daemon.stop() }
        var connected: OrientdClient?
        waitUntil(timeout: 10) {
            connected = try? OrientdClient(socketPath: socketPath, timeout: 1)
            return connected != nil || !daemon.isRunning
        }
        guard let client = connected else { throw BenchFailure("orientd did not start; see \(log)") }
        _ = try client.subscribe(SubscribeParameters(events: [.angles], angleRate: 1000))
        client.setReadTimeout(2)
        var stamps: [Double] = []
        let end = now() + seconds
        while now() < end, let event = try client.nextEvent() {
            if case .number(let stamp)? = event["timestamp"] { stamps.append(stamp) }
        }
        guard stamps.count > 1 else { throw BenchFailure("no angle samples from orientd reading \(uri); see \(log)") }
        let gaps = zip(stamps.dropFirst(), stamps).map { ($0 - $1) * 1000 }
        return ReadRate(uri: uri, samplesPerSecond: Double(stamps.count - 1) / (stamps.last! - stamps.first!), gapsMs: gaps)
    }

    static func table(_ rates: [ReadRate]) -> String {
        var lines = [
            "| context | samples per second | time per sample p50 / p99 (ms) |",
            "|---|---:|---:|",
        ]
        for rate in rates {
            let sorted = rate.gapsMs.sorted()
            let p50 = sorted[sorted.count / 2], p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
            lines.append("| \(rate.uri) | \(Int(rate.samplesPerSecond.rounded())) | \(String(format: "%.2f", p50)) / \(String(format: "%.2f", p99)) |")
        }
        return lines.joined(separator: "\n")
    }
}
