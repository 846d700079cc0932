import Glibc
import Synchronization

/// Something the event thread waits on: a descriptor (udev's monitor, the D-Bus connection) and
/// how long it may wait at most. Asked afresh before every wait, on the thread.
public protocol DescriptorWatch: AnyObject {
    /// The descriptor and the poll events wanted now.
    var descriptor: (fd: Int32, events: Int16) { get }
    /// Milliseconds after which `handle` is due even if the descriptor stays quiet; -1 for never.
    var timeoutMilliseconds: Int32 { get }
    /// Called on the thread when the descriptor is ready or the timeout has passed.
    func handle()
}

/// orientd's one thread for outside events: it sleeps in poll() on the descriptors of its
/// watches (udev, D-Bus) and on a wake pipe, and wakes for nothing else: no timer, no polling.
/// Work from other threads (a property change to send on the bus) is handed over with `perform`
/// and runs here, so that libraries that are not thread-safe (sd-bus) are used by one thread.
public final class DescriptorLoop: @unchecked Sendable {
    private let thread = FeedThread()
    private let name: String
    private let wakePipe: (read: Int32, write: Int32)
    /// Work handed over by other threads, and whether the loop is to stop. `stop` sets that flag
    /// before it wakes the thread, which reads it after every wake-up: a stop asked while the
    /// thread is between its check and poll() still ends that poll.
    private struct Inbox {
        var work: [@Sendable () -> Void] = []
        var stopping = false
    }
    private let inbox = Mutex(Inbox())
    /// Touched on the thread only (before `start`, by its caller).
    private var watches: [any DescriptorWatch] = []
    private var running = false

    public init(name: String) throws(DescriptorLoopError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw DescriptorLoopError(reason: String(cString: strerror(errno))) }
        guard ends.allSatisfy({ fcntl($0, F_SETFD, FD_CLOEXEC) == 0 && fcntl($0, F_SETFL, O_NONBLOCK) == 0 }) else {
            let reason = String(cString: strerror(errno))
            ends.forEach { close($0) }
            throw DescriptorLoopError(reason: reason)
        }
        self.name = name
        wakePipe = (ends[0], ends[1])
    }

    deinit {
        close(wakePipe.read)
        close(wakePipe.write)
    }

    /// Adds a watch before `start`.
    public func add(_ watch: any DescriptorWatch) {
        precondition(!running, "watches are added before the loop starts")
        watches.append(watch)
    }

    /// Whether anything is watched: without, there is no reason to start a thread.
    public var isEmpty: Bool { watches.isEmpty }

    public func start() {
        running = true
        thread.start(name: name) { [self] in run() }
    }

    /// Runs `work` on the loop's thread, soon.
    public func perform(_ work: @escaping @Sendable () -> Void) {
        inbox.withLock { $0.work.append(work) }
        wake()
    }

    /// Stops the thread (work handed over and not yet run is dropped); the watches' owners close
    /// their descriptors afterwards.
    public func stop() {
        guard running else { return }
        inbox.withLock { $0.stopping = true }
        wake()
        thread.stop()
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)
    }

    private func run() {
        var drained = [UInt8](repeating: 0, count: 64)
        while let work = takeWorkUnlessStopping() {
            work.forEach { $0() }
            var descriptors = [pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
                + watches.map { pollfd(fd: $0.descriptor.fd, events: $0.descriptor.events, revents: 0) }
            let timeouts = watches.map(\.timeoutMilliseconds)
            let timeout = timeouts.filter { $0 >= 0 }.min() ?? -1
            let started = MonotonicClock.now()
            guard poll(&descriptors, nfds_t(descriptors.count), timeout) >= 0 || errno == EINTR else {
                // Only ENOMEM can come back here (the descriptors are valid): wait a little
                // rather than spin.
                usleep(100_000)
                continue
            }
            if descriptors[0].revents != 0 { while read(wakePipe.read, &drained, drained.count) > 0 {} }
            let waitedMs = (MonotonicClock.now() - started) * 1000
            for (index, watch) in watches.enumerated() {
                let due = timeouts[index] >= 0 && waitedMs >= Double(timeouts[index])
                if descriptors[index + 1].revents != 0 || due { watch.handle() }
            }
        }
    }

    /// The work handed over since the last call; nil once the loop is to stop.
    private func takeWorkUnlessStopping() -> [@Sendable () -> Void]? {
        inbox.withLock { inbox in
            guard !inbox.stopping else { return nil }
            defer { inbox.work = [] }
            return inbox.work
        }
    }
}

public struct DescriptorLoopError: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { "cannot set up the event thread: \(reason)" }
}
