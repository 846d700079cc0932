import Logging
import OrientationCore

/// Buffered capture for the sources of one poller: it is started on every source that can
/// capture, what was captured is taken at each poll, a source whose buffer gives nothing for a
/// second is polled instead (as iio-sensor-proxy does: some drivers need a trigger orientd cannot
/// set) unless it has nothing to poll, and the buffers are released while nobody needs readings,
/// so the kernel stops capturing.
struct CaptureSchedule {
    static let silenceBeforePolling = 1.0

    private enum State {
        /// Captures from the next poll on.
        case toStart
        case capturing(since: Double, lastData: Double?, lastTake: Double, lastError: String?)
        /// Read by polling its raw attributes.
        case polling
    }

    private var states: [State]
    /// Sources whose next read is of their raw attributes (`readRawNext`).
    private var rawNext: Set<Int> = []

    init(for sources: [any AccelerometerSource]) {
        states = sources.map { ($0 as? BufferedCapture)?.canCapture == true ? .toStart : .polling }
    }

    /// The samples `source` (the `index`th) captured since the last poll, timed by the kernel's
    /// timestamps where it has them; nil when it is to be polled instead.
    /// `budget`: how long a remote buffer may be refilled (half a poll period leaves the other
    /// half for sleeping).
    mutating func samples(of source: any AccelerometerSource, at index: Int, now: Double, budget: Double,
                          logger: Logger) -> [AccelerometerSample]? {
        // The polled source first, without a dynamic cast: a still device's every read passes here.
        guard index < states.count else { return nil }
        if case .polling = states[index] { return nil }
        guard let buffered = source as? BufferedCapture else { return nil }
        if rawNext.remove(index) != nil, buffered.canPoll {
            quiet(index, at: now)
            return nil
        }
        if case .toStart = states[index] {
            do {
                try buffered.startCapture()
                states[index] = .capturing(since: now, lastData: nil, lastTake: now, lastError: nil)
                logger.debug("capturing \(source.info.device) through its kernel buffer")
            } catch let error as IIOError where error.awaitsUdev {
                logger.info("\(source.info.device) is not orientd's to capture until udev has set it up: polling its raw attributes until udev's event reopens it")
                states[index] = .polling
            } catch {
                logger.warning("cannot capture \(source.info.device) through its buffer (\(error)); polling its raw attributes instead")
                states[index] = .polling
            }
        }
        guard case .capturing(let since, let lastData, let lastTake, var lastError) = states[index] else { return nil }
        var captured: [(acceleration: Vector3, timestamp: Int64?)] = []
        do {
            captured = try buffered.takeCaptured(budget: budget)
        } catch {
            lastError = "\(error)"
        }
        guard !captured.isEmpty else {
            if now - (lastData ?? since) >= Self.silenceBeforePolling {
                guard buffered.canPoll else {
                    // Nothing else to read it by: its buffer is waited on (a hub that paused).
                    logger.debug("the buffer of \(source.info.device) gave no data for \(Int(Self.silenceBeforePolling)) s; it has no raw files to poll, so orientd waits on its buffer")
                    states[index] = .capturing(since: now, lastData: nil, lastTake: now, lastError: lastError)
                    return []
                }
                logger.warning("the buffer of \(source.info.device) gave no data for \(Int(Self.silenceBeforePolling)) s\(lastError.map { " (\($0))" } ?? ""); polling its raw attributes instead")
                buffered.stopCapture()
                states[index] = .polling
                return nil
            }
            states[index] = .capturing(since: since, lastData: lastData, lastTake: now, lastError: lastError)
            return []
        }
        states[index] = .capturing(since: since, lastData: now, lastTake: now, lastError: nil)
        return Self.timed(captured, takenAt: now, previousTake: lastTake, mountMatrix: source.info.mountMatrix)
    }

    /// The next read of source `index` reads its raw attributes, once: a hub reporting only changes
    /// has an empty buffer while still, and a buffer released for a motion event would be
    /// restarted and taken before it holds a sample; either says nothing of now. Its silence so
    /// far is not held against its buffer (that read quiets it).
    mutating func readRawNext(_ index: Int) {
        guard index < states.count else { return }
        if case .polling = states[index] { return }
        rawNext.insert(index)
    }

    /// Silence of source `index`'s buffer until `now` was expected (a hub asked to report only
    /// changes): it is not turned to polling for it.
    mutating func quiet(_ index: Int, at now: Double) {
        guard index < states.count, case .capturing(let since, _, _, let lastError) = states[index] else { return }
        states[index] = .capturing(since: since, lastData: now, lastTake: now, lastError: lastError)
    }

    /// Releases every buffer (nobody needs readings); capture starts again at the next poll.
    mutating func release(_ sources: [any AccelerometerSource]) {
        for (index, source) in sources.enumerated() where index < states.count {
            guard case .capturing = states[index] else { continue }
            (source as? BufferedCapture)?.stopCapture()
            states[index] = .toStart
        }
    }

    /// Sample times on the poller's monotonic clock: the newest scan at `now`, the others earlier
    /// by the kernel's timestamps; without timestamps, spread evenly since the previous take.
    /// `captured` is in the sensor's axes; the samples are turned by `mountMatrix` and keep the raw.
    static func timed(_ captured: [(acceleration: Vector3, timestamp: Int64?)], takenAt now: Double,
                      previousTake: Double, mountMatrix: MountMatrix = .identity) -> [AccelerometerSample] {
        let newest = captured.last?.timestamp
        return captured.enumerated().map { index, scan in
            let time: Double
            if let newest, let stamp = scan.timestamp {
                time = now - Double(newest - stamp) / 1e9
            } else {
                time = previousTake + (now - previousTake) * Double(index + 1) / Double(captured.count)
            }
            return AccelerometerSample(time: time, raw: scan.acceleration, mountMatrix: mountMatrix)
        }
    }
}
