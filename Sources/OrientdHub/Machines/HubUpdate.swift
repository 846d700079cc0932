import NIOCore
import OrientationCore
import OrientdProtocol

/// The hub's state as a subscription needs it.
struct HubUpdate: Sendable {
    let orientation: Orientation
    /// The orientation before the last change.
    let previous: Orientation
    /// Counts the orientation changes since orientd started.
    let sequence: Int
    /// When the orientation (or the lock) last changed, in seconds since the Unix epoch.
    let timestamp: Double
    /// The device orientation interfaces follow: the last in-plane one, or while locked the one locked in.
    let driving: Orientation?
    let locked: Bool
    /// The `deviceOrientationDidChange` line for a subscriber last told of `previous` (nearly all of
    /// them), and the `rotationLockDidChange` line, encoded once and shared by every subscription.
    let deviceOrientationLine: ByteBuffer
    let rotationLockLine: ByteBuffer
    let sensorAvailable: Bool
    let sensorAvailabilityLine: ByteBuffer
    let tilt: DeviceTilt
    let tiltLine: ByteBuffer
    let hinge: TabletModeDetector.State
    let hingeAngleLine: ByteBuffer
    let tabletModeLine: ByteBuffer?
    private(set) var light: AmbientSensor<AmbientLight>
    private(set) var proximity: AmbientSensor<Proximity>

    /// What the hinge state says before the sensors were opened.
    static let noHingeYet = "no accelerometers opened yet"

    init(orientation: Orientation, previous: Orientation, sequence: Int, timestamp: Double, driving: Orientation?, locked: Bool,
         sensorAvailability: SensorAvailabilityEvent, tilt: DeviceTilt, tiltChangedAt: Double, hinge: TabletModeDetector.State, hingeChangedAt: Double,
         light: AmbientSensor<AmbientLight>, proximity: AmbientSensor<Proximity>) {
        self.tilt = tilt
        tiltLine = ByteBuffer(bytes: Wire.line(DeviceTiltDidChangeEvent(tilt: tilt, timestamp: tiltChangedAt)))
        self.hinge = hinge
        self.light = light
        self.proximity = proximity
        hingeAngleLine = ByteBuffer(bytes: Wire.line(HingeAngleDidChangeEvent(
            hingeAngle: hinge.angle, problem: hinge.problem, timestamp: hingeChangedAt)))
        tabletModeLine = hinge.tabletMode.map { ByteBuffer(bytes: Wire.line(TabletModeDidChangeEvent(
            tabletMode: $0, hingeAngle: hinge.angle, timestamp: hingeChangedAt))) }
        sensorAvailable = sensorAvailability.available
        sensorAvailabilityLine = ByteBuffer(bytes: Wire.line(sensorAvailability))
        self.orientation = orientation
        self.previous = previous
        self.sequence = sequence
        self.timestamp = timestamp
        self.driving = driving
        self.locked = locked
        deviceOrientationLine = ByteBuffer(bytes: Wire.line(DeviceOrientationDidChangeEvent(
            orientation: orientation, previous: previous, timestamp: timestamp, sequence: sequence)))
        rotationLockLine = ByteBuffer(bytes: Wire.line(RotationLockDidChangeEvent(locked: locked, timestamp: timestamp)))
    }

    /// This update as a subscriber that wakes the ambient sensors in `asleep` starts from: with
    /// no value for them (what the hub holds may be stale), so it hears of their first reading.
    func withoutValues(of asleep: Set<HubSensor>) -> HubUpdate {
        var start = self
        if asleep.contains(.light) { start.light.forget() }
        if asleep.contains(.proximity) { start.proximity.forget() }
        return start
    }

    /// The `deviceOrientationDidChange` line for a subscriber last told of `told`.
    func deviceOrientationLine(toldOf told: Orientation) -> ByteBuffer {
        guard told != previous else { return deviceOrientationLine }
        return ByteBuffer(bytes: Wire.line(DeviceOrientationDidChangeEvent(
            orientation: orientation, previous: told, timestamp: timestamp, sequence: sequence)))
    }
}

/// One angle sample as the hub hands it out.
struct AngleSample: Sendable {
    let angles: OrientationAngles
    let acceleration: Vector3
    let raw: Vector3?
    /// Monotonic seconds.
    let time: Double
    /// Seconds since the Unix epoch.
    let timestamp: Double
    /// The `angles` line for a subscriber that missed none, encoded once for every subscriber.
    let line: ByteBuffer

    init(angles: OrientationAngles, acceleration: Vector3, raw: Vector3?, time: Double, timestamp: Double) {
        self.angles = angles
        self.acceleration = acceleration
        self.raw = raw
        self.time = time
        self.timestamp = timestamp
        line = ByteBuffer(bytes: Wire.line(AnglesEvent(angles: angles, acceleration: acceleration, raw: raw, timestamp: timestamp, dropped: 0)))
    }

    /// The line for a subscriber that missed `dropped` samples before this one.
    func line(dropped: Int) -> ByteBuffer {
        guard dropped > 0 else { return line }
        return ByteBuffer(bytes: Wire.line(AnglesEvent(angles: angles, acceleration: acceleration, raw: raw, timestamp: timestamp, dropped: dropped)))
    }
}

extension SensorStatus {
    /// Before any sensor was seen.
    static let noSensor = SensorStatus(uri: "", device: "none", location: .display, mountMatrix: .identity,
                                   mountMatrixSource: "", rate: 0, reading: false, available: false)

    func reading(_ reading: Bool) -> SensorStatus {
        var copy = self
        copy.reading = reading
        return copy
    }

    func unavailable(because problem: String) -> SensorStatus {
        var copy = self
        copy.available = false
        copy.problem = problem
        return copy
    }
}
