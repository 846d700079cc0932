/// Turns accelerometer samples into published orientation changes: Android's window-orientation
/// judge made stricter, with every constant in `ClassifierSettings`.
///
/// Per sample: set aside what cannot be a real acceleration (it counts as a failed read); low-pass
/// filter the vector (restarting after gaps; more slowly while the device is carried, so a step's
/// bounce cannot tip it over a border); gate on magnitude, in units of the device's own 1 g
/// learnt at rest (`GravityLearner`: a driver whose scale is off by a constant factor still turns)
/// — free fall decides nothing, acceleration locks decisions out for a while; lying flat (|tilt| ≥ 80°) proposes
/// faceUp/faceDown, otherwise the in-plane angle (x and y only: the sign of z never picks among
/// the in-plane four) proposes the nearest orientation, with hysteresis around the current one
/// and a tilt limit per orientation. A proposal is published once it has held for the settle time
/// and no lockout (acceleration, swing, end of lying flat) is in force.
///
/// The in-plane orientation stays known underneath faceUp/faceDown, so lifting the device back
/// returns to it directly. `unknown` is published only when there is no reliable reading: none yet,
/// or none for `staleAfterMs`.
public struct Classifier: Sendable {
    public private(set) var settings: ClassifierSettings
    public private(set) var orientation: Orientation = .unknown
    /// The last in-plane orientation decided: what the device shows while it lies flat.
    public private(set) var inPlaneOrientation: Orientation = .unknown
    /// Angles of the filtered vector after the last usable sample; nil before the first one and
    /// after a sample that cannot be a real acceleration (`PlausibleAcceleration`), so that no
    /// angle is published for it.
    public private(set) var angles: OrientationAngles?

    /// Whether the last sample left a decision pending: a new orientation proposed but not yet
    /// published (settling, locked out, a turn in progress), or the device lying flat but not yet
    /// long enough for faceUp/faceDown. Whoever paces the sensor keeps it at the full rate
    /// meanwhile, so these waits keep their length in milliseconds.
    public var isDeciding: Bool { candidate != nil || waitsToLieFlat }

    /// What this device reads at rest (m/s²), once learnt; a correct driver reads about
    /// `settings.gravity`.
    public var gravityAtRest: Double? { gravityLearner.gravityAtRest }

    /// How many runs at rest `gravityAtRest` stands on.
    public var runsAtRest: Int { gravityLearner.runsAtRest }

    private var filter: LowPassFilter
    /// The filter while the device is carried (`carriedFilterTimeConstantMs`), run alongside.
    private var slowFilter: LowPassFilter
    /// |raw magnitude − g| of the last second's samples, in g: whether the device is being carried.
    private var recentDeviations: [(time: Double, deviation: Double)] = []
    private var gravityLearner = GravityLearner()
    private var waitsToLieFlat = false
    private var candidate: (orientation: Orientation, since: Double)?
    private var lastReadingTime: Double?
    private var flatSince: Double?
    private var lockedOutUntil = -Double.infinity
    private var flatEndedLockoutUntil = -Double.infinity
    private var recentTilts: [(time: Double, tilt: Double)] = []
    /// The last usable sample: its filtered in-plane angle, its own (unfiltered) one, and its
    /// magnitude in units of 1 g.
    private var lastRead: (time: Double, angle: Double, rawAngle: Double, rawMagnitude: Double)?
    /// When the current run of full-rate reads began (after a still-rate read or a stall).
    private var runStart = -Double.infinity
    private var inPlaneTurnRate: Double = 0
    /// Since when the filtered vector has stayed within `restDriftDegrees` of the one it had then.
    private var rest: (since: Double, vector: Vector3)?
    /// Set by `resume()`: the next usable sample decides at once, without settling.
    private var decideAtOnce = false

    /// How early a poll may wake. Samples are stamped when they are read, which jitters by up to a
    /// few milliseconds: without this allowance a wait of exactly one poll period (settle-ms 40 at
    /// 25 Hz) would, half the time, wait a second period.
    static let pollJitter = 0.004
    /// Samples further apart than this (seconds) are no run of full-rate reads.
    static let carriedGap = 0.1
    /// How far (degrees in the plane) a read after a gap may be from the one before and still
    /// count as the device holding: sensor noise stays well within it, and the motions it must
    /// catch mid-way (a flip, a walk's first step at a border) moved 35° or more.
    static let movedAcrossGapDegrees = 10.0
    /// How far (degrees, in space) the filtered vector may wander and the device still count as
    /// holding still (`restMs`): a body's breathing and a pocket's sag stay within it.
    static let restDriftDegrees = 6.0

    public init(settings: ClassifierSettings = ClassifierSettings()) {
        self.settings = settings
        filter = LowPassFilter(timeConstant: settings.filterTimeConstantMs / 1000, resetGap: settings.filterResetGapMs / 1000)
        slowFilter = LowPassFilter(timeConstant: settings.carriedFilterTimeConstantMs / 1000, resetGap: settings.filterResetGapMs / 1000)
    }

    /// Feeds one sample; returns the change it causes, if any.
    public mutating func classify(_ sample: AccelerometerSample) -> OrientationChange? {
        let time = sample.time
        // What no accelerometer can measure (garbage, a wrong scale) never reaches the filter,
        // where it would take its time to decay: it counts as a failed read.
        guard time.isFinite, PlausibleAcceleration.isPlausible(sample.acceleration) else {
            angles = nil
            return time.isFinite ? noteMissingReading(at: time) : nil
        }
        // After a gap longer than the filter remembers (the daemon was stopped, the machine
        // slept), what the device did meanwhile is unknown: decide at once, as after `resume()`.
        if let lastReadingTime, time - lastReadingTime > settings.filterResetGapMs / 1000 { decideAtOnce = true }
        let (fastFiltered, restarted) = filter.filter(sample.acceleration, at: time)
        let (slowFiltered, _) = slowFilter.filter(sample.acceleration, at: time)
        if restarted { forgetMotion() }
        let rawMagnitude = sample.acceleration.magnitude
        gravityLearner.note(magnitude: rawMagnitude, at: time)
        // The gates in units of this device's 1 g: settings.gravity is what a correct driver reads.
        let gravity = gravityLearner.gravity ?? settings.gravity
        let scale = gravity / settings.gravity
        // The last second's samples, read at the full rate: after a gap (the still rate's, or a
        // stall) the older ones say nothing of what the device does now.
        if let last = recentDeviations.last, time - last.time > Self.carriedGap { recentDeviations.removeAll() }
        recentDeviations.removeAll { time - $0.time > 1 || $0.time > time }
        recentDeviations.append((time, abs(rawMagnitude - gravity) / gravity))
        // Carried: the magnitude swings by more than carried-motion (RMS). Not a single sample's
        // swing: a hand's quick turn swings it about as much for a moment, and must stay fast.
        let deviations = recentDeviations.map(\.deviation)
        let swing = (deviations.map { $0 * $0 }.reduce(0, +) / Double(max(1, deviations.count))).squareRoot()
        let carried = deviations.count >= 2 && swing > settings.carriedMotion
        let filtered = carried ? slowFiltered : fastFiltered
        let magnitude = filtered.magnitude
        guard magnitude >= settings.freeFallMagnitude * scale, rawMagnitude >= settings.freeFallMagnitude * scale else {
            return noteMissingReading(at: time)
        }
        lastReadingTime = time
        let currentAngles = OrientationAngles(of: filtered)
        angles = currentAngles

        if isAccelerating(raw: rawMagnitude, filtered: magnitude, gravity: gravity, scale: scale) {
            lockedOutUntil = max(lockedOutUntil, time + settings.accelerationLockoutMs / 1000)
        }
        noteTilt(currentAngles.tilt, at: time)
        noteRest(fastFiltered, carried: carried, at: time)
        noteInPlaneAngle(filtered: currentAngles.inPlane, raw: OrientationAngles(of: sample.acceleration).inPlane,
                         rawMagnitude: rawMagnitude / gravity, at: time)
        let lyingFlatAs: Orientation? = abs(currentAngles.tilt) >= settings.flatTiltDegrees
            ? (currentAngles.tilt > 0 ? .faceUp : .faceDown) : nil
        defer { waitsToLieFlat = lyingFlatAs.map { $0 != orientation } ?? false }

        guard let proposal = proposal(tilt: currentAngles.tilt, inPlaneAngle: currentAngles.inPlane, at: time),
              proposal != orientation
        else {
            candidate = nil
            decideAtOnce = false
            return nil
        }
        if orientation == .unknown || decideAtOnce {
            decideAtOnce = false
            return publish(proposal, at: time)
        }
        if candidate?.orientation != proposal || time < candidate!.since {
            candidate = (proposal, time)
        }
        if proposal.inPlaneAngle != nil, isTurning {
            return nil
        }
        let settled = time - candidate!.since >= settings.settleMs / 1000 - Self.pollJitter
        let returningFromFlat = (orientation == .faceUp || orientation == .faceDown) && proposal == inPlaneOrientation
        let lockedOut = time < lockedOutUntil || (!returningFromFlat && time < flatEndedLockoutUntil)
        return settled && !lockedOut ? publish(proposal, at: time) : nil
    }

    /// Takes new constants (a reloaded config) keeping what has been decided: the orientation
    /// published stays until the new constants decide otherwise; the filter restarts from the
    /// next sample, with the new time constant.
    public mutating func adopt(_ newSettings: ClassifierSettings) {
        settings = newSettings
        filter = LowPassFilter(timeConstant: settings.filterTimeConstantMs / 1000, resetGap: settings.filterResetGapMs / 1000)
        slowFilter = LowPassFilter(timeConstant: settings.carriedFilterTimeConstantMs / 1000, resetGap: settings.filterResetGapMs / 1000)
        candidate = nil
    }

    /// Another accelerometer was opened: what was learnt of the last one's 1 g is not its own.
    public mutating func forgetDevice() {
        gravityLearner.forget()
        resume()
    }

    /// Starts reading again after the sensor was left unread: what the device did meanwhile is
    /// unknown, so the filter and motion history are forgotten and the next usable sample decides
    /// at once (a `get` after an idle period must answer with a real reading, not a stale one).
    public mutating func resume() {
        filter.reset()
        slowFilter.reset()
        forgetMotion()
        lastReadingTime = nil
        decideAtOnce = true
    }

    /// The device was watched by its accelerometer's motion interrupt from the last reading until
    /// `time`, and it did not fire: it read the same all along. The next reading continues the
    /// filters, as at the full rate, instead of deciding at once after the gap (the first sample
    /// after a wake-up may be a bump's).
    public mutating func wasStill(until time: Double) {
        guard let lastReadingTime, time > lastReadingTime else { return }
        filter.hold(until: time)
        slowFilter.hold(until: time)
        self.lastReadingTime = time
    }

    /// The accelerometer's motion interrupt fired at `time` after a still spell: the filters
    /// start afresh from the next reading (taken as the motion starts, it may already show where
    /// the device is going), which is then decided as any other, settling and locked out alike,
    /// never at once.
    public mutating func wokenByMotion(at time: Double) {
        guard let lastReadingTime, time > lastReadingTime else { return }
        filter.reset()
        slowFilter.reset()
        self.lastReadingTime = time
    }

    /// Notes that no reading could be taken at `time` (the sensor failed or gave garbage).
    /// The last orientation is held until there has been no reliable reading for `staleAfterMs`.
    public mutating func noteMissingReading(at time: Double) -> OrientationChange? {
        candidate = nil
        waitsToLieFlat = false
        let since = lastReadingTime ?? time
        if lastReadingTime == nil { lastReadingTime = time }
        guard orientation != .unknown, time - since >= settings.staleAfterMs / 1000 else { return nil }
        inPlaneOrientation = .unknown
        return publish(.unknown, at: time)
    }

    private func isAccelerating(raw: Double, filtered: Double, gravity: Double, scale: Double) -> Bool {
        abs(raw - gravity) > settings.accelerationTolerance * scale
            || abs(filtered - gravity) > settings.accelerationTolerance * scale
    }

    /// Tracks lying flat and swings towards flat, which start lockouts.
    private mutating func noteTilt(_ tilt: Double, at time: Double) {
        if abs(tilt) >= settings.flatTiltDegrees {
            flatSince = flatSince ?? time
        } else {
            if let since = flatSince, time - since >= settings.flatMinimumMs / 1000 {
                flatEndedLockoutUntil = time + settings.flatEndedLockoutMs / 1000
            }
            flatSince = nil
        }
        let window = settings.swingWindowMs / 1000
        recentTilts.removeAll { time - $0.time > window || $0.time > time }
        if let lowest = recentTilts.map({ abs($0.tilt) }).min(), abs(tilt) - lowest >= settings.swingTiltDegrees {
            lockedOutUntil = max(lockedOutUntil, time + settings.swingLockoutMs / 1000)
        }
        recentTilts.append((time, tilt))
    }

    private var isTurning: Bool { inPlaneTurnRate > settings.turnInProgressDegreesPerSecond }

    /// How fast the in-plane angle turns: the filtered angle's pace, except at the start of a run
    /// of full-rate reads. A read after a gap (the still rate's third of a second) may land in the
    /// middle of a fast flip or of a walk's first steps, and the filter then needs about one time
    /// constant of reads before its pace catches up with the motion (and the carried test, which
    /// starts afresh after a gap, a few reads before it sees a walk). Meanwhile the unfiltered
    /// vector must hold still too:
    /// - the read after the gap counts as turning when it moved from the read before (more than
    ///   `movedAcrossGapDegrees` in the plane, or its magnitude by more than `carriedMotion`):
    ///   what it landed in is unknown. One that did not move is measured as usual, so reads that
    ///   all come further apart than the gap (a slow `rate`) still decide once the device holds;
    /// - for the next filter time constant, an unfiltered angle turning faster than the limit, or
    ///   a magnitude changing by more than `carriedMotion` from one read to the next, counts as
    ///   turning.
    /// A device turned and put down (the emulator's jump, a pick-up) holds still at once and is
    /// decided at the next read, as before.
    private mutating func noteInPlaneAngle(filtered angle: Double, raw rawAngle: Double, rawMagnitude: Double, at time: Double) {
        if let last = lastRead, time > last.time {
            inPlaneTurnRate = Geometry.angularDistance(angle, last.angle) / (time - last.time)
            let shaken = abs(rawMagnitude - last.rawMagnitude) > settings.carriedMotion
            let swept = Geometry.angularDistance(rawAngle, last.rawAngle)
            if time - last.time > Self.carriedGap {
                runStart = time
                if shaken || swept > Self.movedAcrossGapDegrees { inPlaneTurnRate = .infinity }
            } else if time - runStart < settings.filterTimeConstantMs / 1000 {
                inPlaneTurnRate = shaken ? .infinity : max(inPlaneTurnRate, swept / (time - last.time))
            }
        }
        lastRead = (time, angle, rawAngle, rawMagnitude)
    }

    /// The orientation the filtered vector points to, or nil when it says nothing reliable.
    private func proposal(tilt: Double, inPlaneAngle angle: Double, at time: Double) -> Orientation? {
        if abs(tilt) >= settings.flatTiltDegrees {
            let face: Orientation = tilt > 0 ? .faceUp : .faceDown
            let flatLongEnough = time - (flatSince ?? time) >= settings.faceDelayMs / 1000 - Self.pollJitter
            return flatLongEnough || orientation == .unknown || decideAtOnce ? face : nil
        }
        let choice: Orientation
        if let centre = inPlaneOrientation.inPlaneAngle,
           Geometry.angularDistance(angle, centre) <= 45 + settings.hysteresisDegrees {
            choice = inPlaneOrientation
        } else {
            choice = Orientation.inPlane.min {
                Geometry.angularDistance(angle, $0.inPlaneAngle!) < Geometry.angularDistance(angle, $1.inPlaneAngle!)
            }!
        }
        return abs(tilt) <= tiltLimit(for: choice, at: time) ? choice : nil
    }

    /// The largest |tilt| at which `choice` may be decided now: its own limit, or for a device at
    /// rest, flat (`faceHysteresisDegrees` short of it when leaving faceUp/faceDown, so a device
    /// resting at the border does not flap). In motion the own limit stays, leaving flat too: a
    /// pick-up that twists would otherwise flash the orientation it was put down in.
    private func tiltLimit(for choice: Orientation, at time: Double) -> Double {
        let own = settings.tiltLimit(for: choice)
        guard isResting(at: time) else { return own }
        let leavingFlat = orientation == .faceUp || orientation == .faceDown
        return max(own, settings.flatTiltDegrees - (leavingFlat ? settings.faceHysteresisDegrees : 0))
    }

    /// Tracks how long the device has held still: not carried, and its vector within
    /// `restDriftDegrees` of where it settled.
    private mutating func noteRest(_ vector: Vector3, carried: Bool, at time: Double) {
        if !carried, let rest, time >= rest.since, Geometry.angle(between: vector, and: rest.vector) <= Self.restDriftDegrees {
            return
        }
        rest = (time, vector)
    }

    private func isResting(at time: Double) -> Bool {
        guard settings.restMs > 0, let rest else { return false }
        return time - rest.since >= settings.restMs / 1000 - Self.pollJitter
    }

    private mutating func forgetMotion() {
        candidate = nil
        recentDeviations.removeAll()
        waitsToLieFlat = false
        flatSince = nil
        recentTilts.removeAll()
        lastRead = nil
        rest = nil
        runStart = -.infinity
        inPlaneTurnRate = 0
        lockedOutUntil = -.infinity
        flatEndedLockoutUntil = -.infinity
    }

    private mutating func publish(_ new: Orientation, at time: Double) -> OrientationChange {
        let change = OrientationChange(orientation: new, previous: orientation, time: time)
        orientation = new
        if new.inPlaneAngle != nil { inPlaneOrientation = new }
        candidate = nil
        return change
    }
}
