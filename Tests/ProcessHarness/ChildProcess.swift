import Foundation
import NIOConcurrencyHelpers

/// Seconds on the monotonic clock, the clock every arrival is stamped with.
public func monotonicNow() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}

/// A program run by the tests or the benchmark, with each line of its standard output stamped
/// (monotonic seconds) on arrival.
public final class ChildProcess: @unchecked Sendable {
    public let name: String
    private let process = Process()
    private let lines = NIOLockedValueBox<[(text: String, time: Double)]>([])
    private var reader: Thread?

    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
         standardError: String? = nil) throws {
        name = URL(fileURLWithPath: executable).lastPathComponent
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardError = standardError.flatMap { path in
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            return FileHandle(forWritingAtPath: path)
        } ?? FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        let handle = output.fileHandleForReading
        let lines = self.lines
        reader = Thread {
            var pending = Data()
            while true {
                let chunk = handle.availableData
                let time = monotonicNow()
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let text = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    lines.withLockedValue { $0.append((text, time)) }
                }
            }
        }
        try process.run()
        reader?.start()
    }

    deinit { stop() }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }
    public var output: [(text: String, time: Double)] { lines.withLockedValue { $0 } }

    /// Waits until at least `count` lines arrived; returns whether they did within `timeout`.
    public func waitForLines(_ count: Int, timeout: Double) -> Bool {
        let deadline = monotonicNow() + timeout
        while monotonicNow() < deadline {
            if output.count >= count { return true }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return output.count >= count
    }

    /// SIGTERM, then SIGKILL if it has not ended within two seconds.
    public func stop() {
        if process.isRunning {
            process.terminate()
            let deadline = monotonicNow() + 2
            while process.isRunning, monotonicNow() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
    }

    /// CPU time (user + system) the process has used so far, in seconds, from /proc.
    public var cpuSeconds: Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ") else { return 0 }
        let fields = stat[afterName.upperBound...].split(separator: " ")
        // Fields 14 and 15 of stat(5) (utime, stime); the slice starts at field 3.
        let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Peak resident memory (VmHWM) in MiB, from /proc.
    public var peakMemoryMiB: Double {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
    }
}
