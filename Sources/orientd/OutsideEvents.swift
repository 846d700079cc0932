import DaemonThreads
import AccelerometerIO
import Logging
import OrientdHub
import SensorProxy

/// What orientd's event thread watches: udev's news of sensors coming and going, and the D-Bus
/// connection of the sensor-proxy face. One thread for both, started only if either is there.
/// Set up before `start`; touched by the thread only afterwards.
final class OutsideEvents: @unchecked Sendable {
    let loop: DescriptorLoop
    private(set) var hotplug: HotplugMonitor?
    private(set) var sensorProxy: SensorProxyBus?
    private var hotplugListeners: [@Sendable (HotplugEvent) -> Void] = []

    init(loop: DescriptorLoop) {
        self.loop = loop
    }

    func watchUdev(logger: Logger) throws(HotplugError) {
        hotplug = try HotplugMonitor(loop: loop, logger: logger) { [unowned self] event in
            for listener in hotplugListeners { listener(event) }
        }
    }

    func serveSensorProxy(hub: OrientationHub, authorizeWithPolkit: Bool, logger: Logger) throws(SensorProxyError) {
        sensorProxy = try SensorProxyBus(loop: loop, hub: hub, authorizeWithPolkit: authorizeWithPolkit, logger: logger)
    }

    /// Starts the thread, udev's events going to `hotplugListeners`.
    func start(hotplugListeners: [@Sendable (HotplugEvent) -> Void]) {
        self.hotplugListeners = hotplugListeners
        if !loop.isEmpty { loop.start() }
    }

    func stop() {
        loop.stop()
        hotplug?.close()
        sensorProxy?.close()
    }
}
