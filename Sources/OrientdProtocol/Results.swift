import OrientationCore

/// The result of one of the methods, as a reply's `result` carries it.
public protocol MethodResult: Codable, Equatable, Sendable {}

extension MethodResult {
    /// Reads a reply's `result` as this method's result.
    public init(result: JSONValue) throws(ServerMessageError) {
        self = try result.decoded(as: Self.self)
    }
}

/// The result of `get` and `unsubscribe`.
public struct OrientationResult: MethodResult {
    public var orientation: Orientation

    public init(orientation: Orientation) {
        self.orientation = orientation
    }
}

/// The result of `subscribe`: the state the events start from. Members of events not subscribed
/// to are left out.
public struct SubscribeResult: MethodResult {
    public var events: [EventKind]
    /// The device orientations whose changes are sent, when the request chose some (all otherwise).
    public var orientations: [Orientation]?
    /// The interface orientations taken, in order of preference, when they are not all four.
    public var supportedInterfaceOrientations: [InterfaceOrientation]?
    public var orientation: Orientation
    /// With `deviceTiltDidChange`: the tilt now.
    public var tilt: DeviceTilt?
    public var interfaceOrientation: InterfaceOrientation?
    public var rotation: Int?
    public var locked: Bool?
    /// Angle samples per second this client will get.
    public var angleRate: Double?
    /// Whether there is a sensor to read (left out when no event subscribed needs one).
    public var sensorAvailable: Bool?
    /// With hinge or tablet-mode events: the hinge angle and tablet mode now (each left out while
    /// unknown), or why the hinge angle cannot be told.
    public var hingeAngle: Double?
    public var tabletMode: Bool?
    public var hingeProblem: String?
    /// With `proximityStateDidChange`: whether there is a proximity sensor, and whether something
    /// is near it (left out while unknown).
    public var proximityAvailable: Bool?
    public var proximityState: Bool?
    /// With `ambientLightDidChange`: whether there is a light sensor, and its level (left out
    /// while unknown).
    public var lightAvailable: Bool?
    public var ambientLight: AmbientLight?

    public init(events: [EventKind], orientation: Orientation, tilt: DeviceTilt? = nil, interfaceOrientation: InterfaceOrientation? = nil,
                locked: Bool? = nil, angleRate: Double? = nil, sensorAvailable: Bool? = nil,
                hingeAngle: Double? = nil, tabletMode: Bool? = nil, hingeProblem: String? = nil,
                proximityAvailable: Bool? = nil, proximityState: Bool? = nil,
                lightAvailable: Bool? = nil, ambientLight: AmbientLight? = nil) {
        self.events = events
        self.tilt = tilt
        self.proximityAvailable = proximityAvailable
        self.proximityState = proximityState
        self.lightAvailable = lightAvailable
        self.ambientLight = ambientLight
        self.hingeAngle = hingeAngle
        self.tabletMode = tabletMode
        self.hingeProblem = hingeProblem
        self.orientation = orientation
        self.sensorAvailable = sensorAvailable
        self.interfaceOrientation = interfaceOrientation
        rotation = interfaceOrientation?.rotation
        self.locked = locked
        self.angleRate = angleRate
    }
}

/// The result of `lock` and `unlock`.
public struct LockResult: MethodResult {
    public var locked: Bool
    /// False when the state file could not be written: the lock holds until orientd restarts.
    public var persisted: Bool

    public init(locked: Bool, persisted: Bool) {
        self.locked = locked
        self.persisted = persisted
    }
}

/// The result of `ping`.
public struct PingResult: MethodResult {
    public var pong = true
    public init() {}
}

/// The result of `status`.
public struct StatusResult: MethodResult {
    public var server: String
    public var `protocol`: Int
    /// Seconds since orientd started.
    public var uptime: Double
    public var orientation: Orientation
    /// The display's tilt step (optional for the daemons before it).
    public var tilt: DeviceTilt?
    public var locked: Bool
    public var clients: Int
    public var subscribers: Int
    /// The accelerometer that drives the screen.
    public var sensor: SensorStatus
    /// Every accelerometer read with it (the display one first; a convertible's base one
    /// follows); empty while there is none.
    public var devices: [SensorStatus]
    /// The ambient light and proximity sensors (orientd always sends both; optional for the
    /// daemons before them).
    public var light: LightSensorStatus?
    public var proximity: ProximitySensorStatus?
    /// iio-sensor-proxy's D-Bus interface, when orientd was asked to serve it (sensor-proxy);
    /// left out otherwise.
    public var sensorProxy: SensorProxyStatus?

    public init(server: String, protocol: Int = Wire.protocolVersion, uptime: Double, orientation: Orientation,
                tilt: DeviceTilt? = nil, locked: Bool, clients: Int, subscribers: Int, sensor: SensorStatus, devices: [SensorStatus] = [],
                light: LightSensorStatus? = nil, proximity: ProximitySensorStatus? = nil, sensorProxy: SensorProxyStatus? = nil) {
        self.server = server
        self.sensorProxy = sensorProxy
        self.tilt = tilt
        self.light = light
        self.proximity = proximity
        self.devices = devices
        self.protocol = `protocol`
        self.uptime = uptime
        self.orientation = orientation
        self.locked = locked
        self.clients = clients
        self.subscribers = subscribers
        self.sensor = sensor
    }
}

/// What orientd reads, in `status`.
public struct SensorStatus: Codable, Equatable, Sendable {
    /// Stable across reboots: the URI and the driver's name, "local:/accel_3d" (absent while
    /// there is no sensor).
    public var id: String?
    /// The libiio context (`local:`, `ip:HOST`), or `replay:PATH` for a trace.
    public var uri: String
    public var device: String
    public var location: SensorLocation
    /// Three rows of three numbers.
    public var mountMatrix: [[Double]]
    public var mountMatrixSource: String
    /// Polls per second while reading (while the device moves, when `stillRate` is set).
    public var rate: Double
    /// Polls per second while the device is still and no client follows its angles; nil when it
    /// is read at `rate` all the time.
    public var stillRate: Double?
    /// Whether the sensor is being read now (only while a client needs it).
    public var reading: Bool
    /// Whether the sensor is there; when not, the other members describe the last one seen (or
    /// none: `device` is "none") and `problem` says why.
    public var available: Bool
    public var problem: String?
    /// The key udev looks this accelerometer up by in systemd's hwdb (60-sensor.rules):
    /// "sensor:[LABEL:]modalias:MODALIAS:DMI-MODALIAS", what an `ACCEL_MOUNT_MATRIX` entry for
    /// it must match. Left out when unknown (a remote or replayed sensor).
    public var hwdbMatch: String?
    /// The device's /sys path (local sensors only), for `udevadm trigger`.
    public var syspath: String?
    /// Set when its driver gives no scale (orientd takes 1 g from the readings), or when what it
    /// reads at rest is far from 1 g: its driver's scale is wrong (orientation still works in
    /// both cases). Left out otherwise.
    public var scaleProblem: String?
    /// How a still device is watched: by the accelerometer's own motion event or a sensor hub's
    /// change reports (nothing is read until they come, but for a safety read), or by reading it
    /// at `stillRate`, and why (`StillDeviceWatch.sentence` renders it). Left out until the
    /// sensor was opened, and for a trace.
    public var stillWatch: StillDeviceWatch?

    public init(id: String? = nil, uri: String, device: String, location: SensorLocation, mountMatrix: MountMatrix,
                mountMatrixSource: String, rate: Double, stillRate: Double? = nil, reading: Bool, available: Bool = true,
                problem: String? = nil, hwdbMatch: String? = nil, syspath: String? = nil) {
        self.id = id
        self.hwdbMatch = hwdbMatch
        self.syspath = syspath
        self.available = available
        self.problem = problem
        self.uri = uri
        self.device = device
        self.location = location
        self.mountMatrix = mountMatrix.rows.map { [$0.x, $0.y, $0.z] }
        self.mountMatrixSource = mountMatrixSource
        self.rate = rate
        self.stillRate = stillRate
        self.reading = reading
    }

    /// `mountMatrix` read back as the core's type; nil when it is not three rows of three usable numbers.
    public var matrix: MountMatrix? {
        MountMatrix(rows: mountMatrix.map { $0.count == 3 ? Vector3($0[0], $0[1], $0[2]) : .zero })
    }
}

/// The ambient light sensor, in `status`.
public struct LightSensorStatus: Codable, Equatable, Sendable {
    /// Whether there is one.
    public var available: Bool
    /// Its name, or "none".
    public var device: String
    /// Whether it is being read now (only while a client needs it).
    public var reading: Bool
    /// The last level read, while it is being read.
    public var level: Double?
    public var unit: LightUnit?

    public init(available: Bool, device: String, reading: Bool, light: AmbientLight? = nil) {
        self.available = available
        self.device = device
        self.reading = reading
        level = light?.level
        unit = light?.unit
    }
}

/// The proximity sensor, in `status`.
public struct ProximitySensorStatus: Codable, Equatable, Sendable {
    /// Whether there is one.
    public var available: Bool
    /// Its name, or "none".
    public var device: String
    /// Whether it is being read now (only while a client needs it).
    public var reading: Bool
    /// Whether something is near, while it is being read.
    public var proximityState: Bool?

    public init(available: Bool, device: String, reading: Bool, proximityState: Bool? = nil) {
        self.available = available
        self.device = device
        self.reading = reading
        self.proximityState = proximityState
    }
}

/// orientd's D-Bus face (net.hadess.SensorProxy on the system bus), in `status`: whether it is
/// served, who holds the name when orientd does not, and who claims what.
public struct SensorProxyStatus: Codable, Equatable, Sendable {
    /// Whether orientd owns net.hadess.SensorProxy now: desktops read orientd.
    public var served: Bool
    /// What became of orientd's request for the name: `owned`, `queued` (another process owns it
    /// and orientd waits for it to leave), `lost` (taken over), `refused` (by the bus's policy),
    /// or `asking`.
    public var name: String
    /// The process that owns the name when orientd does not.
    public var owner: BusPeer?
    /// Why the bus refused the name, or anything else wrong.
    public var problem: String?
    /// Every D-Bus client's claims, in the order they came.
    public var claims: [SensorProxyClaim]

    public init(served: Bool, name: String, owner: BusPeer? = nil, problem: String? = nil, claims: [SensorProxyClaim] = []) {
        self.served = served
        self.name = name
        self.owner = owner
        self.problem = problem
        self.claims = claims
    }
}

/// A process on the system bus: its unique name, and what the bus daemon says runs it.
public struct BusPeer: Codable, Equatable, Sendable {
    /// ":1.42"
    public var busName: String
    public var pid: Int?
    /// Its command line, shortened ("/usr/bin/gnome-shell").
    public var command: String?

    public init(busName: String, pid: Int? = nil, command: String? = nil) {
        self.busName = busName
        self.pid = pid
        self.command = command
    }

    /// ":1.42 (pid 812, /usr/bin/gnome-shell)"
    public var description: String {
        let process = [pid.map { "pid \($0)" }, command].compactMap { $0 }.joined(separator: ", ")
        return process.isEmpty ? busName : "\(busName) (\(process))"
    }
}

/// What one D-Bus client claims: `accelerometer`, `light`, `proximity`, `compass`.
public struct SensorProxyClaim: Codable, Equatable, Sendable {
    public var client: BusPeer
    public var sensors: [String]

    public init(client: BusPeer, sensors: [String]) {
        self.client = client
        self.sensors = sensors
    }
}
