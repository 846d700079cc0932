import DaemonThreads
import AccelerometerIO
import Logging
import OrientdHub
import SensorProxy
import Synchronization

/// What orientd's event thread watches: udev's news of sensors coming and going, and the D-Bus
/// connection of the sensor-proxy face. One thread for both, started only if either is there.
/// Set up before `start`.
final class OutsideEvents: Sendable {
    let loop: DescriptorLoop
    private let watches = Mutex<(hotplug: HotplugMonitor?, sensorProxy: SensorProxyBus?)>((nil, nil))
    private let hotplugListeners = Mutex<[@Sendable (HotplugEvent) -> Void]>([])

    var sensorProxy: SensorProxyBus? { watches.withLock { $0.sensorProxy } }

    init(loop: DescriptorLoop) {
        self.loop = loop
    }

    func watchUdev(logger: Logger) throws(HotplugError) {
        let monitor = try HotplugMonitor(loop: loop, logger: logger) { [unowned self] event in
            for listener in hotplugListeners.withLock({ $0 }) { listener(event) }
        }
        watches.withLock { $0.hotplug = monitor }
    }

    func serveSensorProxy(hub: OrientationHub, authorizeWithPolkit: Bool, logger: Logger) throws(SensorProxyError) {
        let bus = try SensorProxyBus(loop: loop, hub: hub, authorizeWithPolkit: authorizeWithPolkit, logger: logger)
        watches.withLock { $0.sensorProxy = bus }
    }

    /// Starts the thread, udev's events going to `hotplugListeners`.
    func start(hotplugListeners listeners: [@Sendable (HotplugEvent) -> Void]) {
        hotplugListeners.withLock { $0 = listeners }
        if !loop.isEmpty { loop.start() }
    }

    func stop() {
        loop.stop()
        let (hotplug, sensorProxy) = watches.withLock { $0 }
        hotplug?.close()
        sensorProxy?.close()
    }
}
