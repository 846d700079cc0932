import DaemonThreads
import COrientdShim
import Glibc
import Logging

/// Follows udev's events for the devices orientd reads (IIO devices, hwmon light sensors, input
/// accelerometers and proximity switches: add,
/// remove, change) on orientd's event thread and hands each to `onEvent`, so the pollers learn at
/// once that a sensor went away or appeared.
public final class HotplugMonitor: DescriptorWatch, @unchecked Sendable {
    private let monitor: OpaquePointer
    private let onEvent: @Sendable (HotplugEvent) -> Void
    private let logger: Logger
    private var action = [CChar](repeating: 0, count: 32)
    private var sysname = [CChar](repeating: 0, count: 256)
    private var subsystem = [CChar](repeating: 0, count: 32)
    /// The subsystems whose devices orientd reads.
    public static let subsystems = ["iio", "hwmon", "input"]

    /// Opens the monitor and adds it to `loop`; throws when udev cannot be listened to (no
    /// netlink, e.g. in a container), in which case the poller still retries on its own.
    public init(loop: DescriptorLoop, logger: Logger, onEvent: @escaping @Sendable (HotplugEvent) -> Void) throws(HotplugError) {
        var error: Int32 = 0
        let names = Self.subsystems.map { strdup($0) }
        defer { names.forEach { free($0) } }
        let opened = names.map { UnsafePointer($0) }.withUnsafeBufferPointer { orientd_udev_monitor_open($0.baseAddress, $0.count, &error) }
        guard let monitor = opened else {
            throw HotplugError(reason: String(cString: strerror(error)))
        }
        self.monitor = monitor
        self.onEvent = onEvent
        self.logger = logger
        loop.add(self)
    }

    /// Closes the monitor, once its loop has stopped.
    public func close() {
        orientd_udev_monitor_close(monitor)
    }

    public var descriptor: (fd: Int32, events: Int16) { (orientd_udev_monitor_fd(monitor), Int16(POLLIN)) }
    public var timeoutMilliseconds: Int32 { -1 }

    public func handle() {
        while orientd_udev_monitor_receive(monitor, &action, action.count, &sysname, sysname.count, &subsystem, subsystem.count) == 1 {
            let name = String(cText: sysname)
            guard let kind = HotplugEvent.Action(rawValue: String(cText: action)) else { continue }
            let from = String(cText: subsystem)
            logger.debug("udev: \(kind.rawValue) \(from) \(name)")
            onEvent(HotplugEvent(action: kind, sysname: name, subsystem: from))
        }
    }
}

public struct HotplugError: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { "cannot listen to udev for sensors coming and going: \(reason)" }
}
