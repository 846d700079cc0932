import Foundation
import NIOConcurrencyHelpers

/// A program run by the tests or the benchmark, with each line of its standard output stamped
/// (monotonic seconds) on arrival.
public final class ChildProcess: @unchecked Sendable {
    private let process = Process()
    private let lines = NIOLockedValueBox<[(text: String, time: Double)]>([])
    private var reader: Thread?
    /// The writing end of the child's standard input, with `writableInput`.
    private let input: FileHandle?

    /// `writableInput`: the child reads its standard input from `writeInput` (else it inherits the runner's).
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                standardError: String? = nil, writableInput: Bool = false) throws {
        if writableInput {
            let pipe = Pipe()
            process.standardInput = pipe
            input = pipe.fileHandleForWriting
        } else {
            input = nil
        }
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

    /// Writes to the child's standard input (started with `writableInput`).
    public func writeInput(_ text: String) {
        try? input?.write(contentsOf: Data(text.utf8))
    }

    /// Ends the child's standard input.
    public func closeInput() {
        try? input?.close()
    }

    /// The exit status once the child has ended (waiting up to `timeout`); nil if it still runs.
    public func exitStatus(timeout: Double) -> Int32? {
        guard waitUntil(timeout: timeout, { !process.isRunning }) else { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }
    public var isRunning: Bool { process.isRunning }
    public var output: [(text: String, time: Double)] { lines.withLockedValue { $0 } }

    /// Waits until at least `count` lines arrived; returns whether they did within `timeout`.
    public func waitForLines(_ count: Int, timeout: Double) -> Bool {
        waitUntil(timeout: timeout) { output.count >= count }
    }

    /// SIGTERM, then SIGKILL if it has not ended within half a second. Children inherit the
    /// test runner's signal mask, which blocks SIGTERM: a program that does not unblock it
    /// (dbus-daemon, GLib's) never sees it.
    public func stop() {
        if process.isRunning {
            process.terminate()
            if !waitUntil(timeout: 0.5, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
    }

    /// CPU time the process's threads have used so far, in seconds: the scheduler's own count,
    /// in nanoseconds (/proc/PID/task/*/schedstat), not the 10 ms ticks of /proc/PID/stat. Nil
    /// once the process is gone, so a dead daemon cannot pass for an idle one.
    public var cpuSeconds: Double? {
        let tasks = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks), !threads.isEmpty else { return nil }
        let nanoseconds = threads.compactMap { thread -> Double? in
            let text = try? String(contentsOfFile: "\(tasks)/\(thread)/schedstat", encoding: .utf8)
            return text?.split(separator: " ").first.flatMap { Double($0) }
        }.reduce(0, +)
        return nanoseconds / 1e9
    }

    /// Peak resident memory (VmHWM) in MiB, from /proc.
    public var peakMemoryMiB: Double { (status("VmHWM") ?? 0) / 1024 }

    /// Resident memory now (VmRSS) in MiB, from /proc.
    public var residentMemoryMiB: Double { (status("VmRSS") ?? 0) / 1024 }

    /// Resident anonymous memory (RssAnon: heap, stacks, not code) in MiB, from /proc.
    public var anonymousMemoryMiB: Double { (status("RssAnon") ?? 0) / 1024 }

    public var threadCount: Int { Int(status("Threads") ?? 0) }

    /// Voluntary context switches of every thread alive (each is a wake-up after a sleep or a
    /// wait), from /proc/PID/task/*/status.
    public var wakeUps: Int? {
        let threads = wakeUpsByThread
        return threads.isEmpty ? nil : threads.values.reduce(0) { $0 + $1.wakeUps }
    }

    /// Voluntary context switches of each thread alive, by thread id, with the thread's name
    /// (/proc/PID/task/TID/comm): where the wake-ups go.
    public var wakeUpsByThread: [Int: (name: String, wakeUps: Int)] { Self.wakeUpsByThread(ofProcess: pid) }

    /// `wakeUpsByThread` of any process. A thread that ends while it is read is left out, as
    /// one that ended before.
    public static func wakeUpsByThread(ofProcess pid: Int32) -> [Int: (name: String, wakeUps: Int)] {
        let tasks = "/proc/\(pid)/task"
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
        var result: [Int: (name: String, wakeUps: Int)] = [:]
        for thread in threads {
            guard let id = Int(thread),
                  let switches = Self.field("voluntary_ctxt_switches", in: (try? String(contentsOfFile: "\(tasks)/\(thread)/status", encoding: .utf8)) ?? "")
            else { continue }
            let name = (try? String(contentsOfFile: "\(tasks)/\(thread)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? thread
            result[id] = (name, Int(switches))
        }
        return result
    }

    /// A number field of /proc/PID/status (kB for the memory ones).
    public func status(_ name: String) -> Double? {
        Self.field(name, in: (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? "")
    }

    /// Proportional set size in MiB (/proc/PID/smaps_rollup's Pss: each shared page divided among
    /// the processes that map it), what smem and systemd-cgtop's users' tools show as its share.
    public var proportionalMemoryMiB: Double { (rollup("Pss") ?? 0) / 1024 }

    /// Private memory in MiB (clean and dirty pages no other process maps): what goes when it exits.
    public var privateMemoryMiB: Double { ((rollup("Private_Clean") ?? 0) + (rollup("Private_Dirty") ?? 0)) / 1024 }

    private func rollup(_ name: String) -> Double? {
        Self.field(name, in: (try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8)) ?? "")
    }

    private static func field(_ name: String, in status: String) -> Double? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return nil }
        return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Double($0) }
    }
}
