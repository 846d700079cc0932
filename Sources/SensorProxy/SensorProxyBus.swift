import AccelerometerIO
import COrientdShim
import Glibc
import Logging
import OrientationCore
import Synchronization

/// iio-sensor-proxy's D-Bus face (net.hadess.SensorProxy on the system bus), so that GNOME, KDE,
/// phosh and every other client of iio-sensor-proxy use orientd unchanged. The C shim serves the
/// objects; this keeps `SensorProxyState` and does what it decides. It lives on orientd's event
/// thread (sd-bus is not thread-safe): the sensor threads hand their news over with `perform`.
public final class SensorProxyBus: DescriptorWatch, @unchecked Sendable {
    private let loop: DescriptorLoop
    private let logger: Logger
    /// What a claim holds for each sensor: the same demand a socket subscriber holds.
    private let demands: [ProxySensor: ReadingDemand]
    private var bus: OpaquePointer?
    private var state = SensorProxyState()
    /// Said once: every claim fails the same way until polkit answers again.
    private var toldPolkitFailed = false
    /// Whether a claim waits for the accelerometer's next reading: only then is a reading news
    /// for the event thread (otherwise every sample would wake it).
    private let accelerometerAwaited = Atomic<Bool>(false)

    /// Connects to the system bus (DBUS_SYSTEM_BUS_ADDRESS when set) and joins `loop`.
    public init(loop: DescriptorLoop, demands: [ProxySensor: ReadingDemand], authorizeWithPolkit: Bool, logger: Logger) throws(SensorProxyError) {
        self.loop = loop
        self.demands = demands
        self.logger = logger
        let callbacks = orientd_bus_callbacks(
            context: Unmanaged.passUnretained(self).toOpaque(),
            demand_changed: { context, sensor, wanted in
                SensorProxyBus.from(context).claimsChanged(sensor: sensor, claimed: wanted)
            },
            claim_is_current: { context, sensor in
                SensorProxyBus.from(context).claimArrived(sensor: sensor)
            },
            name_changed: { context, state, message in
                SensorProxyBus.from(context).nameChanged(state: state, message: message.map { String(cString: $0) } ?? "")
            },
            polkit_answers: { context, reachable, message in
                SensorProxyBus.from(context).polkitAnswers(reachable: reachable, message.map { String(cString: $0) } ?? "")
            })
        var error = [CChar](repeating: 0, count: 256)
        guard let bus = orientd_bus_open(callbacks, authorizeWithPolkit, &error, error.count) else {
            throw SensorProxyError(reason: String(cText: error))
        }
        self.bus = bus
        loop.add(self)
    }

    /// Asks for net.hadess.SensorProxy, after what orientd knows of its sensors: a client reads
    /// the `Has…` properties as soon as the name appears.
    public func requestName() {
        loop.perform { [self] in
            guard let bus else { return }
            let result = orientd_bus_request_name(bus)
            if result < 0 { logger.error("cannot ask the system bus for net.hadess.SensorProxy: \(String(cString: strerror(-result)))") }
        }
    }

    /// Leaves the bus, once the loop has stopped.
    public func close() {
        orientd_bus_close(bus)
        bus = nil
    }

    // MARK: News from the sensors, from any thread

    public func accelerometerPresent(_ present: Bool) { step(.accelerometerPresent(present)) }
    public func orientationDecided(_ orientation: Orientation) { step(.orientationDecided(orientation)) }
    public func accelerometerRead() {
        if accelerometerAwaited.load(ordering: .relaxed) { step(.sensorRead(.accelerometer)) }
    }

    /// `read`: the sensor was read for this news (a claim waiting for it may be answered).
    public func lightChanged(_ light: ProxyLight, read: Bool) { step(.light(light), reading: read ? .light : nil) }
    public func proximityChanged(_ proximity: ProxyProximity, read: Bool) { step(.proximity(proximity), reading: read ? .proximity : nil) }
    public func compassChanged(_ compass: ProxyCompass, read: Bool) { step(.compass(compass), reading: read ? .compass : nil) }

    /// Hands `event` to the state on the event thread, then the reading of `sensor` if any.
    private func step(_ event: SensorProxyState.Event, reading sensor: ProxySensor? = nil) {
        loop.perform { [self] in
            perform(state.handle(event))
            if let sensor { perform(state.handle(.sensorRead(sensor))) }
        }
    }

    // MARK: The event thread

    public var descriptor: (fd: Int32, events: Int16) {
        guard let bus else { return (-1, 0) }
        return (orientd_bus_fd(bus), orientd_bus_events(bus))
    }

    public var timeoutMilliseconds: Int32 {
        guard let bus else { return -1 }
        let busTimeout = orientd_bus_timeout_ms(bus)
        guard let deadline = state.nextDeadline else { return busTimeout }
        let settle = Int32(min(max(0, (deadline - MonotonicClock.now()) * 1000).rounded(.up), Double(Int32.max)))
        return busTimeout < 0 ? settle : min(busTimeout, settle)
    }

    public func handle() {
        guard let bus else { return }
        perform(state.handle(.time(MonotonicClock.now())))
        let result = orientd_bus_process(bus)
        if result < 0 {
            // systemd restarts orientd (Restart=on-failure), which asks for the name again.
            logger.critical("lost the D-Bus system bus (\(String(cString: strerror(-result)))); exiting, so that orientd starts afresh on the bus")
            exit(EXIT_FAILURE)
        }
    }

    private func perform(_ actions: [SensorProxyState.Action]) {
        guard let bus else { return }
        defer { accelerometerAwaited.store(state.awaitsReading(.accelerometer), ordering: .relaxed) }
        for action in actions {
            switch action {
            case .holdSensor(let sensor):
                logger.info("a D-Bus client claimed the \(sensor): reading it")
                demands[sensor]?.hold()
            case .releaseSensor(let sensor):
                logger.info("no D-Bus client claims the \(sensor) any more")
                demands[sensor]?.release()
            case .settle(let sensor):
                orientd_bus_settle(bus, sensor.rawValue)
            case .publishAccelerometer(let accelerometer):
                orientd_bus_set_accelerometer(bus, accelerometer.present, accelerometer.orientation, accelerometer.tilt)
            case .publishLight(let light):
                orientd_bus_set_light(bus, light.present, light.level, light.unit)
            case .publishProximity(let proximity):
                orientd_bus_set_proximity(bus, proximity.present, proximity.near)
            case .publishCompass(let compass):
                orientd_bus_set_compass(bus, compass.present, compass.heading)
            }
        }
    }

    // MARK: Callbacks from the shim, on the event thread

    private static func from(_ context: UnsafeMutableRawPointer?) -> SensorProxyBus {
        Unmanaged<SensorProxyBus>.fromOpaque(context!).takeUnretainedValue()
    }

    private func claimsChanged(sensor: Int32, claimed: Bool) {
        guard let sensor = ProxySensor(rawValue: sensor) else { return }
        // Read for someone else already (a socket subscriber): the properties are current.
        let beingRead = claimed && demands[sensor]?.isReading == true
        perform(state.handle(.claimsChanged(sensor, claimed: claimed, beingRead: beingRead)))
    }

    private func claimArrived(sensor: Int32) -> Bool {
        guard let sensor = ProxySensor(rawValue: sensor) else { return true }
        perform(state.handle(.claimArrived(sensor, at: MonotonicClock.now())))
        return state.answerNow
    }

    private func polkitAnswers(reachable: Bool, _ reason: String) {
        guard reachable == toldPolkitFailed else { return }
        toldPolkitFailed = !reachable
        if reachable {
            logger.notice("polkit answers again: D-Bus clients' claims are decided by it")
        } else {
            logger.warning("cannot ask polkit whether a D-Bus client may claim a sensor (\(reason)); such claims are refused: start polkitd, or set sensor-proxy-polkit: false to let any local user claim")
        }
    }

    private func nameChanged(state: Int32, message: String) {
        switch UInt32(state) {
        case ORIENTD_BUS_NAME_OWNED.rawValue:
            logger.notice("serving iio-sensor-proxy's interface as net.hadess.SensorProxy on the system bus")
        case ORIENTD_BUS_NAME_QUEUED.rawValue:
            logger.warning("another service owns net.hadess.SensorProxy and does not give it up (an old iio-sensor-proxy?); orientd takes it when that one leaves: stop it with 'systemctl stop iio-sensor-proxy'")
        case ORIENTD_BUS_NAME_LOST.rawValue:
            logger.warning("lost net.hadess.SensorProxy to another service; orientd takes it back when that one leaves")
        default:
            logger.error("the system bus refused orientd the name net.hadess.SensorProxy (\(message)); install its D-Bus policy (net.hadess.SensorProxy.conf in /usr/share/dbus-1/system.d) or run orientd as root")
        }
    }
}

public struct SensorProxyError: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { "cannot serve iio-sensor-proxy's D-Bus interface: \(reason)" }
}
