import RotateRuntime
import ArgumentParser
import Dispatch
import Glibc
import Synchronization
import OrientationCore
import OrientdProtocol

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record the accelerometer's samples as a trace that 'orientd --replay' plays back.",
        discussion: """
            Writes one line per sample, 'TIME X Y Z' (seconds from the first sample; m/s² after the \
            mount matrix), at the sensor's full rate, until --duration has passed or Ctrl-C. Each \
            line is written as it arrives, so an interrupted recording keeps every sample so far. \
            Samples the daemon had to drop (the recorder read too slowly) are reported at the end.
            """)

    @OptionGroup var options: ConnectionOptions

    @Argument(help: ArgumentHelp("The trace file to write ('-' for standard output).", valueName: "file"))
    var file: String

    @Option(parsing: .unconditional, help: "Stop after this many seconds. (default: until interrupted)")
    var duration: Double?

    func validate() throws {
        if let duration, !(duration > 0) { throw ValidationError("--duration must be above 0") }
    }

    func run() throws {
        let replacing = file != "-" && access(file, F_OK) == 0
        // The file is opened (and emptied) only once orientd has agreed to send samples: a
        // recording that cannot start leaves what the file held.
        var output: Int32?
        func open() throws -> Int32 {
            guard file != "-" else { return STDOUT_FILENO }
            let descriptor = Glibc.open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw ClientFailure(message: "cannot write \(file): \(String(cString: strerror(errno)))")
            }
            return descriptor
        }
        var first: Double?
        let tally = RecordingTally(file: file)
        // Ctrl-C ends a recording as --duration does: every line is already written, and the
        // summary still says how many samples the trace holds.
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler { tally.reportAndExit() }
        interrupt.resume()
        // Said on standard error once orientd has agreed, so that a trace on standard output stays clean.
        let target = file == "-" ? "standard output" : file + (replacing ? " (replacing what it held)" : "")
        let until = duration.map { "for \(formatDecimal($0)) s (Ctrl-C stops it sooner)" } ?? "until Ctrl-C"
        try options.follow(SubscribeParameters(events: [.angles]), start: { _, _ in
            let opened = try open()
            Output.write(Trace.header + "\n", to: opened)
            output = opened
            Output.error("orientctl: recording to \(target) \(until)")
        }, event: { event, _ in
            guard let output, case .angles(let angles) = event, angles.acceleration.count == 3 else { return true }
            let (timestamp, values) = (angles.timestamp, angles.acceleration)
            let start = first ?? timestamp
            first = start
            let sample = AccelerometerSample(time: ((timestamp - start) * 1000).rounded() / 1000,
                                             acceleration: Vector3(values[0], values[1], values[2]))
            tally.write(Trace.line(sample), to: output, dropped: angles.dropped)
            return duration.map { timestamp - start < $0 } ?? true
        })
        interrupt.cancel()
        if file != "-", let output { close(output) }
        tally.report()
    }
}

/// What a recording holds so far, for the summary at its end, whichever way it ends. A line is
/// written and counted under one lock, so an interrupt never reports one line more or less.
private final class RecordingTally: Sendable {
    private let file: String
    private let counts = Mutex<(samples: Int, dropped: Int)>((0, 0))

    init(file: String) { self.file = file }

    func write(_ line: String, to output: Int32, dropped newlyDropped: Int) {
        counts.withLock { counts in
            Output.write(line, to: output)
            counts.samples += 1
            counts.dropped += newlyDropped
        }
    }

    func report() {
        counts.withLock { printSummary($0) }
    }

    /// For Ctrl-C: the summary, then exit, with no line written in between.
    func reportAndExit() -> Never {
        counts.withLock { counts in
            printSummary(counts)
            Glibc.exit(0)
        }
    }

    private func printSummary(_ counts: (samples: Int, dropped: Int)) {
        let (samples, dropped) = counts
        Output.error("recorded \(samples) samples to \(file)\(dropped > 0 ? "; \(dropped) were dropped because the recorder fell behind" : "")")
    }
}
