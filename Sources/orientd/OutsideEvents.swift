import DaemonThreads
import AccelerometerIO
import Logging
import OrientdHub
import SensorProxy
import Synchronization

/// What orientd's event thread watches: udev's news of sensors coming and going, logind's of
/// the system waking from a suspend, and the D-Bus connection of the sensor-proxy face. One
/// thread for all, started only if any is there. Set up before `start`.
final class OutsideEvents: Sendable {
    let loop: DescriptorLoop
    private let watches = Mutex<(hotplug: HotplugMonitor?, sleep: SleepMonitor?, sensorProxy: SensorProxyBus?)>((nil, nil, nil))
    private let hotplugListeners = Mutex<[@Sendable (HotplugEvent) -> Void]>([])
    private let resumeListeners = Mutex<[@Sendable () -> Void]>([])

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

    func watchSleep(logger: Logger) throws(SleepMonitorError) {
        let monitor = try SleepMonitor(loop: loop, logger: logger) { [unowned self] in
            for listener in resumeListeners.withLock({ $0 }) { listener() }
        }
        watches.withLock { $0.sleep = monitor }
    }

    func serveSensorProxy(hub: OrientationHub, authorizeWithPolkit: Bool, logger: Logger) throws(SensorProxyError) {
        let bus = try SensorProxyBus(loop: loop, hub: hub, authorizeWithPolkit: authorizeWithPolkit, logger: logger)
        watches.withLock { $0.sensorProxy = bus }
    }

    /// Starts the thread, udev's events going to `hotplugListeners` and resumes to `resumeListeners`.
    func start(hotplugListeners listeners: [@Sendable (HotplugEvent) -> Void], resumeListeners resumes: [@Sendable () -> Void]) {
        hotplugListeners.withLock { $0 = listeners }
        resumeListeners.withLock { $0 = resumes }
        if !loop.isEmpty { loop.start() }
    }

    func stop() {
        loop.stop()
        let (hotplug, sleep, sensorProxy) = watches.withLock { $0 }
        hotplug?.close()
        sleep?.close()
        sensorProxy?.close()
    }
}
