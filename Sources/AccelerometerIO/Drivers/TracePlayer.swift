import DaemonThreads
import Glibc
import Logging
import OrientationCore

/// Plays a recorded trace (see `Trace`) into the daemon's pipeline with the trace's own times,
/// in real time or as fast as possible, so a bug report replays exactly as it was recorded.
public final class TracePlayer: SampleFeed, Sendable {
    /// What is being replayed, for the log.
    public let info: SensorInfo
    private let path: String
    private let samples: [AccelerometerSample]
    private let realTime: Bool
    private let logger: Logger
    private let onReading: @Sendable (Reading) -> Void
    private let onFinished: (@Sendable () -> Void)?
    private let thread = FeedThread()

    /// Reads and checks the whole trace first: a malformed line fails here, naming it.
    /// `onFinished`, if given, is called once the last sample was handed on (and the player
    /// then says so); without it the last orientation is served on.
    public init(path: String, realTime: Bool, logger: Logger, onReading: @escaping @Sendable (Reading) -> Void,
                onFinished: (@Sendable () -> Void)? = nil) throws {
        guard let bytes = Self.contents(of: path) else {
            throw TraceFileError("cannot read trace \(path): \(String(cString: strerror(errno)))")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        do {
            samples = try Trace.parse(text)
        } catch {
            throw TraceFileError("trace \(path), \(error)")
        }
        guard !samples.isEmpty else { throw TraceFileError("trace \(path) holds no samples") }
        self.path = path
        self.info = Self.describe(path: path, samples: samples)
        self.realTime = realTime
        self.logger = logger
        self.onReading = onReading
        self.onFinished = onFinished
    }


    /// The whole file, or nil with `errno` set.
    private static func contents(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }

    private static func describe(path: String, samples: [AccelerometerSample]) -> SensorInfo {
        SensorInfo(id: "replay:\(path)", uri: "replay:\(path)", device: "trace of \(samples.count) samples over \(((samples.last!.time - samples.first!.time) * 10).rounded() / 10) s",
                   location: .display, mountMatrix: .identity, mountMatrixSource: "the trace (recorded after the mount matrix)",
                   calibration: AccelerometerCalibration(x: AxisCalibration(), y: AxisCalibration(), z: AxisCalibration()))
    }

    public func start() async throws -> SensorInfo? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            thread.start(name: "orientd-replay") { [self] in
                play(announcing: { continuation.resume() })
            }
        }
        return info
    }

    public func stop() { thread.stop() }

    private func play(announcing announceStart: @escaping () -> Void) {
        var announce: (() -> Void)? = announceStart
        let startedAt = MonotonicClock.now()
        let firstTime = samples[0].time
        onReading(.opened([info]))
        for sample in samples {
            if thread.shouldStop { break }
            if realTime {
                thread.sleep(startedAt + (sample.time - firstTime) - MonotonicClock.now())
                if thread.shouldStop { break }
            }
            onReading(.sample(sample, device: info.id))
            announce?()
            announce = nil
        }
        announce?()
        if thread.shouldStop { return }
        if let onFinished {
            logger.notice("replay of \(path) finished (\(samples.count) samples); stopping")
            onFinished()
        } else {
            logger.notice("replay of \(path) finished (\(samples.count) samples); still serving the last orientation")
        }
    }
}

public struct TraceFileError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
