import COrientdShim
import Foundation
import Logging

/// Follows udev's events for IIO devices (add, remove, change) on a thread of its own and hands
/// each to `onEvent`, so the poller learns at once that its sensor went away or that one appeared.
public final class HotplugMonitor: @unchecked Sendable {
    private let monitor: OpaquePointer
    private let onEvent: @Sendable (HotplugEvent) -> Void
    private let thread = FeedThread()
    /// Written to by `stop`: the thread waits on udev and on this, and wakes for nothing else.
    private let stopPipe: (read: Int32, write: Int32)

    /// Opens the monitor and starts its thread; throws when udev cannot be listened to (no netlink,
    /// e.g. in a container), in which case the poller still retries on its own.
    public init(logger: Logger, onEvent: @escaping @Sendable (HotplugEvent) -> Void) throws(HotplugError) {
        var error: Int32 = 0
        guard let monitor = orientd_udev_monitor_open("iio", &error) else {
            throw HotplugError(reason: String(cString: strerror(error)))
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0,
              ends.allSatisfy({ fcntl($0, F_SETFD, FD_CLOEXEC) == 0 && fcntl($0, F_SETFL, O_NONBLOCK) == 0 }) else {
            let reason = String(cString: strerror(errno))
            orientd_udev_monitor_close(monitor)
            throw HotplugError(reason: reason)
        }
        self.monitor = monitor
        self.onEvent = onEvent
        stopPipe = (ends[0], ends[1])
        thread.start(name: "orientd-udev") { [self] in watch(logger: logger) }
    }

    /// Stops the thread and closes the monitor.
    public func stop() {
        var byte: UInt8 = 0
        _ = write(stopPipe.write, &byte, 1)
        thread.stop()
        orientd_udev_monitor_close(monitor)
        close(stopPipe.read)
        close(stopPipe.write)
    }

    private func watch(logger: Logger) {
        var descriptors = [pollfd(fd: orientd_udev_monitor_fd(monitor), events: Int16(POLLIN), revents: 0),
                           pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)]
        var action = [CChar](repeating: 0, count: 32)
        var sysname = [CChar](repeating: 0, count: 256)
        while !thread.shouldStop {
            // No timeout: the thread sleeps until udev or `stop` has something to say.
            guard poll(&descriptors, 2, -1) > 0, descriptors[1].revents == 0 else { continue }
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
