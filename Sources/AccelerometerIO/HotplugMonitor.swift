import COrientdShim
import Foundation
import Logging

/// Follows udev's events for IIO devices (add, remove, change) on a thread of its own and hands
/// each to `onEvent`, so the poller learns at once that its sensor went away or that one appeared.
public final class HotplugMonitor: @unchecked Sendable {
    private let monitor: OpaquePointer
    private let onEvent: @Sendable (HotplugEvent) -> Void
    private let thread = FeedThread()

    /// Opens the monitor and starts its thread; throws when udev cannot be listened to (no netlink,
    /// e.g. in a container), in which case the poller still retries on its own.
    public init(logger: Logger, onEvent: @escaping @Sendable (HotplugEvent) -> Void) throws(HotplugError) {
        var error: Int32 = 0
        guard let monitor = orientd_udev_monitor_open("iio", &error) else {
            throw HotplugError(reason: String(cString: strerror(error)))
        }
        self.monitor = monitor
        self.onEvent = onEvent
        thread.start(name: "orientd-udev") { [self] in watch(logger: logger) }
    }

    /// Stops the thread and closes the monitor.
    public func stop() {
        thread.stop()
        orientd_udev_monitor_close(monitor)
    }

    private func watch(logger: Logger) {
        var descriptor = pollfd(fd: orientd_udev_monitor_fd(monitor), events: Int16(POLLIN), revents: 0)
        var action = [CChar](repeating: 0, count: 32)
        var sysname = [CChar](repeating: 0, count: 256)
        while !thread.shouldStop {
            // A short timeout, so a stop request is noticed without a wake-up descriptor.
            guard poll(&descriptor, 1, 250) > 0 else { continue }
            while orientd_udev_monitor_receive(monitor, &action, action.count, &sysname, sysname.count) == 1 {
                let name = String(cText: sysname)
                guard let kind = HotplugEvent.Action(rawValue: String(cText: action)) else { continue }
                logger.debug("udev: \(kind.rawValue) \(name)")
                onEvent(HotplugEvent(action: kind, sysname: name))
            }
        }
    }
}

public struct HotplugError: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { "cannot listen to udev for IIO devices coming and going: \(reason)" }
}
