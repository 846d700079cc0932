import DaemonThreads
import COrientdShim
import Glibc
import Logging

/// Hears logind say the system woke from a suspend (`PrepareForSleep(false)` on the system bus)
/// on orientd's event thread, and calls `onResume`: a convertible turned while asleep must be
/// read at once, not at the next safety read. Where logind does not run, the sensor poller
/// notices a suspend by its clocks instead, at its next wake-up.
public final class SleepMonitor: DescriptorWatch, @unchecked Sendable {
    private var watch: OpaquePointer?
    private let onResume: @Sendable () -> Void
    private let logger: Logger

    /// Connects to the system bus and adds the monitor to `loop`; throws when there is no bus.
    public init(loop: DescriptorLoop, logger: Logger, onResume: @escaping @Sendable () -> Void) throws(SleepMonitorError) {
        self.onResume = onResume
        self.logger = logger
        var error = [CChar](repeating: 0, count: 256)
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard let watch = orientd_sleep_watch_open({ context, sleeping in
            guard let context else { return }
            Unmanaged<SleepMonitor>.fromOpaque(context).takeUnretainedValue().changed(sleeping: sleeping)
        }, context, &error, error.count) else {
            throw SleepMonitorError(reason: String(cText: error))
        }
        self.watch = watch
        loop.add(self)
    }

    /// Leaves the bus, once its loop has stopped.
    public func close() {
        orientd_sleep_watch_close(watch)
        watch = nil
    }

    private func changed(sleeping: Bool) {
        logger.debug("logind: the system \(sleeping ? "goes to sleep" : "woke")")
        if !sleeping { onResume() }
    }

    public var descriptor: (fd: Int32, events: Int16) {
        guard let watch else { return (-1, 0) }
        return (orientd_sleep_watch_fd(watch), orientd_sleep_watch_events(watch))
    }

    public var timeoutMilliseconds: Int32 { watch.map { orientd_sleep_watch_timeout_ms($0) } ?? -1 }

    public func handle() {
        guard let watch else { return }
        let result = orientd_sleep_watch_process(watch)
        guard result < 0 else { return }
        // The sensor poller's clocks still notice a suspend; the bus is not worth a restart.
        logger.notice("lost the system bus (\(String(cString: strerror(-result)))): a resume is noticed by the clock from now on, at the sensor's next wake-up")
        orientd_sleep_watch_close(watch)
        self.watch = nil
    }
}

public struct SleepMonitorError: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { "cannot listen to logind for suspend and resume: \(reason)" }
}
