import Foundation
import ProcessHarness

/// One orientd, started fresh for one row of the table (so its peak memory is that row's), and
/// what /proc says about it.
final class DaemonUnderLoad {
    let process: ChildProcess
    let socketPath: String
    let log: String

    /// Starts orientd on the emulated sensor with no config file, serving `maxClients`, and waits
    /// for its socket.
    init(executable: String, socketPath: String, maxClients: Int, options: [String], environment: [String: String], log: String) throws {
        self.socketPath = socketPath
        self.log = log
        try? FileManager.default.removeItem(atPath: socketPath)
        process = try ChildProcess(executable, ["--config", "/dev/null", "--socket", socketPath, "--max-clients", String(maxClients)] + options,
                                   environment: environment, standardError: log)
        waitUntil(timeout: 10) { FileManager.default.fileExists(atPath: socketPath) || !process.isRunning }
        guard process.isRunning, FileManager.default.fileExists(atPath: socketPath) else {
            throw FanoutFailure("orientd did not start serving \(socketPath) within 10 s; see \(log)")
        }
    }

    /// CPU time of all its threads so far, in seconds.
    func cpuSeconds() throws -> Double {
        guard let spent = process.cpuSeconds else { throw FanoutFailure("orientd has died; see \(log)") }
        return spent
    }

    /// Peak resident memory so far (VmHWM), MiB.
    var peakMiB: Double { process.peakMemoryMiB }

    /// Resident memory now (VmRSS), MiB.
    var residentMiB: Double { process.residentMemoryMiB }

    /// The log's warnings and errors, each distinct message once with how often it came.
    var complaints: [String] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        var counts: [(line: String, count: Int)] = []
        for line in text.split(separator: "\n").map(String.init)
        where line.hasPrefix("orientd: warning:") || line.hasPrefix("orientd: error:") || line.hasPrefix("orientd: critical:") {
            if let index = counts.firstIndex(where: { $0.line == line }) { counts[index].count += 1 } else { counts.append((line, 1)) }
        }
        return counts.map { $0.count == 1 ? $0.line : "\($0.line) (×\($0.count))" }
    }

    func stop() { process.stop() }
}
