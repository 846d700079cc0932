/// Turns accelerometer samples into published orientation changes without flapping.
///
/// Three rules keep it steady:
/// - hysteresis: an in-plane orientation is kept until the in-plane angle is more than
///   45° + `hysteresis` from its centre, so a reading jittering at a 45° border cannot alternate;
///   lying flat is entered at `faceTiltEnter` and left below `faceTiltLeave`;
/// - settle time: a new orientation must be proposed by every sample for `settleTime` before it
///   is published (the first orientation after `unknown` is published at once);
/// - the sign of z only separates faceUp from faceDown: in-plane decisions use x and y alone,
///   because hwdb matrices often get z wrong.
/// `unknown` is published only when no reliable reading (one that could be read and has at least
/// `minimumMagnitude`) has arrived for `staleAfter`.
public struct Classifier: Sendable {
    public struct Settings: Equatable, Sendable {
        /// Seconds a new orientation must hold before it is published.
        public var settleTime: Double = 0.1
        /// Degrees beyond the 45° border an in-plane angle must go to leave the current orientation.
        public var hysteresis: Double = 22.5
        /// Tilt (degrees from upright) at which the device counts as lying flat.
        public var faceTiltEnter: Double = 75
        /// Tilt below which a device lying flat counts as upright again.
        public var faceTiltLeave: Double = 65
        /// Below this magnitude (m/s²) there is no usable gravity: free fall or a dead sensor.
        public var minimumMagnitude: Double = 1
        /// Seconds without a reliable reading after which the orientation becomes unknown.
        public var staleAfter: Double = 2

        public init() {}
    }

    public let settings: Settings
    public private(set) var orientation: Orientation = .unknown
    private var candidate: (orientation: Orientation, since: Double)?
    private var lastReadingTime: Double?

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// Feeds one sample; returns the change it causes, if any.
    public mutating func classify(_ sample: AccelerometerSample) -> OrientationChange? {
        guard sample.acceleration.magnitude >= settings.minimumMagnitude else {
            // No usable gravity (free fall, or a sensor stuck at zero) is no reading at all.
            return noteMissingReading(at: sample.time)
        }
        lastReadingTime = sample.time
        guard let proposal = proposal(for: sample.acceleration), proposal != orientation else {
            candidate = nil
            return nil
        }
        if orientation == .unknown {
            return publish(proposal, at: sample.time)
        }
        guard let current = candidate, current.orientation == proposal, sample.time >= current.since else {
            candidate = (proposal, sample.time)
            return settings.settleTime <= 0 ? publish(proposal, at: sample.time) : nil
        }
        return sample.time - current.since >= settings.settleTime ? publish(proposal, at: sample.time) : nil
    }

    /// Notes that no reading could be taken at `time` (the sensor failed or gave garbage).
    /// The last orientation is held until there has been no reading for `staleAfter`.
    public mutating func noteMissingReading(at time: Double) -> OrientationChange? {
        candidate = nil
        let since = lastReadingTime ?? time
        if lastReadingTime == nil { lastReadingTime = time }
        guard orientation != .unknown, time - since >= settings.staleAfter else { return nil }
        return publish(.unknown, at: time)
    }

    /// The orientation a single sample points to, given the one currently published, or nil
    /// when the sample says nothing reliable.
    public func proposal(for acceleration: Vector3) -> Orientation? {
        guard acceleration.magnitude >= settings.minimumMagnitude else { return nil }
        let tilt = Geometry.tilt(of: acceleration)
        let lyingFlat = orientation == .faceUp || orientation == .faceDown
        if abs(tilt) >= (lyingFlat ? settings.faceTiltLeave : settings.faceTiltEnter) {
            return tilt > 0 ? .faceUp : .faceDown
        }
        let angle = Geometry.inPlaneAngle(of: acceleration)
        if let centre = orientation.inPlaneAngle,
           Geometry.angularDistance(angle, centre) <= 45 + settings.hysteresis {
            return orientation
        }
        return Orientation.inPlane.min {
            Geometry.angularDistance(angle, $0.inPlaneAngle!) < Geometry.angularDistance(angle, $1.inPlaneAngle!)
        }
    }

    private mutating func publish(_ new: Orientation, at time: Double) -> OrientationChange {
        let change = OrientationChange(orientation: new, previous: orientation, time: time)
        orientation = new
        candidate = nil
        return change
    }
}
