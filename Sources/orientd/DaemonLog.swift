import Synchronization
import DaemonThreads
import AccelerometerIO
import Glibc
import Logging

/// Log lines on standard error, one line per event. When standard error is the journal (systemd
/// sets JOURNAL_STREAM to its device and inode) each line starts with the syslog level, `<3>` …
/// `<7>`, which journald files as the entry's priority; otherwise lines read
/// "orientd: <level>: <message>". A line repeated more than `RepeatLimiter.burst` times within
/// `RepeatLimiter.window` seconds is held back, and the next one that passes says how many were.
enum DaemonLog {
    /// The least severe level logged, shared by every logger so a reloaded config changes it at once.
    static let level = Mutex(Logger.Level.info)

    static func bootstrap(level: Logger.Level) -> Logger {
        let journal = standardErrorIsTheJournal()
        let limiter = RepeatLimiter()
        Self.level.withLock { $0 = level }
        LoggingSystem.bootstrap { _ in LineLogHandler(journal: journal, limiter: limiter) }
        return Logger(label: "orientd")
    }

    private static func standardErrorIsTheJournal() -> Bool {
        guard let stream = getenv("JOURNAL_STREAM").map({ String(cString: $0) }) else { return false }
        let parts = stream.split(separator: ":")
        var status = stat()
        guard parts.count == 2, fstat(STDERR_FILENO, &status) == 0 else { return false }
        return parts[0] == "\(status.st_dev)" && parts[1] == "\(status.st_ino)"
    }
}

struct LineLogHandler: LogHandler {
    var logLevel: Logger.Level {
        get { DaemonLog.level.withLock { $0 } }
        set { DaemonLog.level.withLock { $0 = newValue } }
    }
    var metadata: Logger.Metadata = [:]
    let journal: Bool
    let limiter: RepeatLimiter

    init(journal: Bool, limiter: RepeatLimiter) {
        self.journal = journal
        self.limiter = limiter
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var message = "\(event.message)"
        switch limiter.admit(message, level: event.level, at: MonotonicClock.now()) {
        case .suppress:
            return
        case .pass(let heldBack) where heldBack > 0:
            message += " (\(heldBack) more like this held back in the last \(Int(RepeatLimiter.window)) s)"
        case .pass:
            break
        }
        let line = journal ? "<\(Self.syslogPriority(event.level))>\(message)\n" : "orientd: \(event.level): \(message)\n"
        writeToStandardError(line)
    }

    /// One write(2) per line, so lines from several threads never interleave.
    private func writeToStandardError(_ line: String) {
        var bytes = Array(line.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    static func syslogPriority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}

/// Lets each distinct line through `burst` times per `window`; counts what it holds back.
final class RepeatLimiter: Sendable {
    static let burst = 5
    static let window = 10.0

    enum Verdict: Equatable {
        case pass(heldBack: Int)
        case suppress
    }

    private struct Record {
        var windowStart: Double
        var passed: Int
        var heldBack: Int
    }

    private let records = Mutex<[String: Record]>([:])

    func admit(_ message: String, level: Logger.Level, at time: Double) -> Verdict {
        let key = "\(level) \(message)"
        return records.withLock { records in
            // Forget lines not seen for a while, so the table stays small.
            if records.count > 256 { records = records.filter { time - $0.value.windowStart < Self.window } }
            guard var record = records[key], time - record.windowStart < Self.window else {
                let heldBack = records[key]?.heldBack ?? 0
                records[key] = Record(windowStart: time, passed: 1, heldBack: 0)
                return .pass(heldBack: heldBack)
            }
            defer { records[key] = record }
            guard record.passed < Self.burst else {
                record.heldBack += 1
                return .suppress
            }
            record.passed += 1
            return .pass(heldBack: 0)
        }
    }
}
