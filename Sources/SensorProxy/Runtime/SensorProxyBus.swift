import DaemonThreads
import COrientdShim
import Glibc
import Logging
import OrientationCore
import OrientdHub
import OrientdProtocol

/// iio-sensor-proxy's D-Bus face (net.hadess.SensorProxy on the system bus), so that GNOME, KDE,
/// phosh and every other client of iio-sensor-proxy use orientd unchanged: a view of the hub,
/// as the socket is. The C shim carries the messages; this keeps `SensorProxyState` and does
/// what it decides. It lives on orientd's event thread (sd-bus is not thread-safe): the hub's
/// facts and its answers to freshness waits are handed over with the loop's `perform`.
public final class SensorProxyBus: DescriptorWatch, @unchecked Sendable {
    private let loop: DescriptorLoop
    private let logger: Logger
    /// The one owner of the facts shown, of the sensors' demand and of every wait for a fresh reading.
    private let hub: OrientationHub
    private var bus: OpaquePointer?
    private var state: SensorProxyState
    private let peers = BusPeers()
    /// What became of orientd's request for net.hadess.SensorProxy, and who owns it otherwise.
    private var name = (state: "asking", owner: BusPeer?.none, problem: String?.none)
    /// Who last asked to claim each sensor: the log names who made orientd read it.
    private var lastClaimer: [HubSensor: String] = [:]
    private var published: SensorProxyStatus?

    /// Connects to the system bus (DBUS_SYSTEM_BUS_ADDRESS when set) and joins `loop`. With
    /// `authorizeWithPolkit` every claim and release that changes something is authorized
    /// through polkit (action net.hadess.SensorProxy.claim-sensor), as iio-sensor-proxy 3.4 and
    /// later do.
    public init(loop: DescriptorLoop, hub: OrientationHub, authorizeWithPolkit: Bool, logger: Logger) throws(SensorProxyError) {
        self.loop = loop
        self.hub = hub
        self.logger = logger
        state = SensorProxyState(checksPolkit: authorizeWithPolkit)
        let callbacks = orientd_bus_callbacks(
            context: Unmanaged.passUnretained(self).toOpaque(),
            called: { context, call, sender, sensor, claiming in
                guard let call else { return }
                let bus = SensorProxyBus.from(context)
                guard let sender, let sensor = HubSensor(rawValue: Int(sensor)) else {
                    // The shim decodes only the interfaces' methods: never, but never unanswered either.
                    orientd_bus_refuse(call, "org.freedesktop.DBus.Error.InvalidArgs", "no such sensor")
                    return
                }
                let request = ProxyRequest(ProxyCall(bitPattern: call), from: String(cString: sender), claiming: claiming, sensor)
                bus.step(.called(request, at: MonotonicClock.now()))
            },
            client_left: { context, name in
                guard let name else { return }
                SensorProxyBus.from(context).step(.clientLeft(String(cString: name)))
            },
            polkit_answered: { context, call, answer, message in
                guard let call else { return }
                let bus = SensorProxyBus.from(context)
                let reason = message.map { String(cString: $0) } ?? ""
                bus.step(.polkitAnswered(ProxyCall(bitPattern: call), PolkitAnswer(answer, reason), at: MonotonicClock.now()))
            },
            get_property: { context, property, value in
                guard let value, let property = ProxyProperty(rawValue: property) else { return }
                SensorProxyBus.from(context).state.value(of: property).write(to: value)
            },
            name_changed: { context, state, message in
                SensorProxyBus.from(context).nameChanged(state: state, message: message.map { String(cString: $0) } ?? "")
            })
        var error = [CChar](repeating: 0, count: 256)
        guard let bus = orientd_bus_open(callbacks, &error, error.count) else {
            throw SensorProxyError(reason: String(cText: error))
        }
        self.bus = bus
        loop.add(self)
        hub.observe { [loop, unowned self] facts in loop.perform { self.step(.facts(facts)) } }
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

    /// Leaves the bus, once the loop has stopped; the calls still unanswered go with it.
    public func close() {
        for call in state.unansweredCalls { orientd_bus_forget(Self.handle(call)) }
        orientd_bus_close(bus)
        bus = nil
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
        step(.time(MonotonicClock.now()))
        let result = orientd_bus_process(bus)
        if result < 0 {
            // systemd restarts orientd (Restart=on-failure), which asks for the name again.
            logger.critical("lost the D-Bus system bus (\(String(cString: strerror(-result)))); exiting, so that orientd starts afresh on the bus")
            exit(EXIT_FAILURE)
        }
    }

    /// Hands `event` to the state and does what it decides; on the event thread.
    private func step(_ event: SensorProxyState.Event) {
        switch event {
        case .called(let request, _) where request.claiming:
            lastClaimer[request.sensor] = request.sender
            if let bus { logger.debug("D-Bus client \(peers.peer(request.sender, on: bus).description) asks to claim the \(request.sensor)") }
        default:
            break
        }
        var actions = state.handle(event)
        while !actions.isEmpty {
            let action = actions.removeFirst()
            actions += perform(action)
        }
        publishStatus()
    }

    /// Tells the hub what `status` shows of the D-Bus face, when it changed.
    private func publishStatus() {
        guard let bus else { return }
        // Only claimers are kept: callers that never claim (or left) cannot grow the list.
        peers.keepOnly(Set(state.claimsByClient.map(\.client)))
        let claims = state.claimsByClient.map { claim in
            SensorProxyClaim(client: peers.peer(claim.client, on: bus), sensors: claim.sensors.map(\.statusName))
        }
        let status = SensorProxyStatus(served: name.state == "owned", name: name.state, owner: name.owner, problem: name.problem, claims: claims)
        guard status != published else { return }
        published = status
        hub.sensorProxyChanged(status)
    }

    /// Does `action`; returns what the state decides about its outcome, if anything.
    private func perform(_ action: SensorProxyState.Action) -> [SensorProxyState.Action] {
        guard let bus else { return [] }
        switch action {
        case .holdSensor(let sensor):
            let client = lastClaimer[sensor].map { "D-Bus client \(peers.peer($0, on: bus).description)" } ?? "a D-Bus client"
            logger.info(state.isPresent(sensor)
                ? "\(client) claimed the \(sensor): reading it"
                : "\(client) claimed the \(sensor), which orientd does not have now: it is read if one appears")
            hub.hold(sensor)
        case .releaseSensor(let sensor):
            logger.info("no D-Bus client claims the \(sensor) any more")
            hub.release(sensor)
        case .awaitFresh(let sensor):
            hub.whenFresh(sensor) { [loop, unowned self] in loop.perform { self.step(.fresh(sensor)) } }
        case .reply(let call):
            orientd_bus_reply(Self.handle(call))
        case .refuse(let call, let refusal):
            orientd_bus_refuse(Self.handle(call), refusal.errorName, refusal.message)
        case .forget(let call):
            orientd_bus_forget(Self.handle(call))
        case .askPolkit(let call):
            let result = orientd_bus_ask_polkit(bus, Self.handle(call))
            if result < 0 {
                let reason = "cannot ask polkit (\(String(cString: strerror(-result))))"
                return state.handle(.polkitAnswered(call, .unreachable(reason), at: MonotonicClock.now()))
            }
        case .emit(let signal):
            let properties = signal.properties.map(\.rawValue)
            for destination in signal.destinations {
                orientd_bus_emit(bus, properties, properties.count, destination)
            }
        case .polkitReachable(true, _):
            logger.notice("polkit answers again: D-Bus clients' claims are decided by it")
        case .polkitReachable(false, let reason):
            logger.warning("cannot ask polkit whether a D-Bus client may claim a sensor (\(reason)); such claims are refused: start polkitd, or set sensor-proxy-polkit=false under [Daemon] in orientd's config file (then restart orientd), or start it with --no-sensor-proxy-polkit, to let any local user claim")
        }
        return []
    }

    // MARK: Callbacks from the shim, on the event thread

    private static func from(_ context: UnsafeMutableRawPointer?) -> SensorProxyBus {
        Unmanaged<SensorProxyBus>.fromOpaque(context!).takeUnretainedValue()
    }

    private static func handle(_ call: ProxyCall) -> OpaquePointer {
        OpaquePointer(bitPattern: call)!
    }

    private func nameChanged(state: Int32, message: String) {
        // Who holds the name when orientd does not: named, so the log says which process to stop.
        let owner = bus.flatMap { bus in
            UInt32(state) == ORIENTD_BUS_NAME_OWNED.rawValue ? nil : Optional(peers.peer("net.hadess.SensorProxy", on: bus))
        }.flatMap { $0.pid == nil ? nil : $0 }
        let holder = owner.map { "\($0.description)" } ?? "another process"
        switch UInt32(state) {
        case ORIENTD_BUS_NAME_OWNED.rawValue:
            name = ("owned", nil, nil)
            logger.notice("serving iio-sensor-proxy's interface as net.hadess.SensorProxy on the system bus")
        case ORIENTD_BUS_NAME_QUEUED.rawValue:
            name = ("queued", owner, nil)
            logger.warning("\(holder) owns net.hadess.SensorProxy and does not give it up; orientd takes it when that one leaves: stop it (an iio-sensor-proxy: 'systemctl stop iio-sensor-proxy'; another orientd: 'systemctl stop orientd')")
        case ORIENTD_BUS_NAME_LOST.rawValue:
            name = ("lost", owner, nil)
            logger.warning("lost net.hadess.SensorProxy to \(holder); orientd takes it back when that one leaves")
        default:
            name = ("refused", nil, message)
            logger.error("the system bus refused orientd the name net.hadess.SensorProxy (\(message)); install its D-Bus policy (net.hadess.SensorProxy.conf in /usr/share/dbus-1/system.d), which lets the orientd user and root own it, then 'systemctl reload dbus' and restart orientd")
        }
        publishStatus()
    }
}

public struct SensorProxyError: Error, CustomStringConvertible {
    public let reason: String
    public var description: String { "cannot serve iio-sensor-proxy's D-Bus interface: \(reason)" }
}

extension PolkitAnswer {
    init(_ answer: Int32, _ reason: String) {
        switch UInt32(answer) {
        case ORIENTD_BUS_POLKIT_AUTHORIZED.rawValue: self = .authorized
        case ORIENTD_BUS_POLKIT_DENIED.rawValue: self = .denied
        case ORIENTD_BUS_POLKIT_UNREACHABLE.rawValue: self = .unreachable(reason)
        default: self = .failed(reason)
        }
    }
}

extension ProxyValue {
    /// Into the C shim's value, for a property get or a signal.
    func write(to value: UnsafeMutablePointer<orientd_bus_value>) {
        switch self {
        case .boolean(let boolean): value.pointee.boolean = boolean
        case .number(let number): value.pointee.number = number
        case .text(let text):
            withUnsafeMutableBytes(of: &value.pointee.text) { buffer in
                let bytes = Array(text.utf8.prefix(buffer.count - 1))
                buffer.copyBytes(from: bytes)
                buffer[bytes.count] = 0
            }
        }
    }
}

