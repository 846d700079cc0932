/// Whether the display accelerometer must be read at the full rate or whether the still rate will
/// do, as a pure decision: fed every reading of the display accelerometer with its time, and
/// whether the classifier still waits on a decision.
///
/// It works on the raw vector, not the classifier's filtered one: the filter lags (70 ms), and the
/// point is to notice the very first sample of a motion. Against the noise of real accelerometers
/// (0.05–0.2 m/s² on each axis) a sample moves only when it is farther than `motionThreshold` from
/// a reference vector that averages the still samples; the reference follows the vector with a
/// time constant of `stillAfterMs`, so slow drift (temperature) is followed without waking the
/// sensor, while any turn faster than a few degrees a second is noticed. A sample that moves
/// becomes the new reference, so a continuing motion keeps moving.
///
/// The pace goes to `.full` at the first sample that moves, and back to `.still` once no sample
/// has moved for `stillAfterMs` and the classifier is not waiting to publish anything (settling,
/// locked out, waiting to lie flat long enough): its timing in milliseconds is then the same as
/// at the full rate. A failed read counts as motion, since the classifier times failing readings
/// in milliseconds too. The first sample (at start, after a pause, after time went backwards)
/// starts afresh at the full rate; after a gap in time the new sample is compared with the old
/// reference like any other, so a device turned during a suspend is noticed at once.
public struct SamplingPace: Sendable {
    public enum Rate: Equatable, Sendable {
        /// The configured rate: something moves or is being decided.
        case full
        /// The still rate.
        case still
        /// The dormant rate: still for long (`dormantAfterMs`).
        case dormant
    }

    public struct Settings: Equatable, Sendable {
        /// Polls per second while the device is still. At or above the full rate, the sensor is
        /// read at the full rate all the time (adaptive sampling off). 3 keeps a still device's
        /// CPU two to five times iio-sensor-proxy's (it polls 1.4 times a second; scripts/bench),
        /// and a sudden jump is still seen within 333 ms; a turn by hand is read at the full rate
        /// before it ends.
        public var stillRate: Double = 3
        /// m/s²: how far a sample must be from the still reference to count as motion. 1 m/s² is
        /// 6° of gravity, far from any decision, and five times the noise of a noisy
        /// accelerometer (0.2 m/s²), so noise wakes it about once in hours.
        public var motionThreshold: Double = 1
        /// Milliseconds without motion (and with nothing left for the classifier to decide) before
        /// the still rate. 1500 keeps the full rate through the pauses within one gesture
        /// (turn, hold, turn back) and costs at most 1.5 s of full-rate reads per motion.
        public var stillAfterMs: Double = 1500
        /// Where the accelerometer has a motion event, a still device is not read at all but
        /// waited on; it is read once every this many seconds all the same, in case an interrupt
        /// was lost or the driver forgot its event across a suspend. 0: never wait on a motion
        /// event (read a still device at `stillRate`). 20 costs 0.05 wake-ups a second.
        public var safetyReadSeconds: Double = 20
        /// Polls per second once the device has been still for `dormantAfterMs` (where no motion
        /// event watches it). A phone left on a table for a while is read about as often as
        /// iio-sensor-proxy reads it (1.4 times a second), so it costs no more; one just put down
        /// or held still is read at `stillRate`, and a turn from it is decided as fast as ever.
        /// At or above `stillRate`: never dormant.
        public var dormantRate: Double = 1.25
        /// Milliseconds without motion before the dormant rate.
        public var dormantAfterMs: Double = 10000

        public init() {}

        /// The still rate when a still device is read more slowly than `rate`; nil when it is read
        /// at `rate` all the time.
        public func stillRate(below rate: Double) -> Double? { stillRate < rate ? stillRate : nil }

        public init(stillRate: Double, motionThreshold: Double, stillAfterMs: Double, safetyReadSeconds: Double = 20,
                    dormantRate: Double = 1.25, dormantAfterMs: Double = 10000) {
            self.stillRate = stillRate
            self.motionThreshold = motionThreshold
            self.stillAfterMs = stillAfterMs
            self.safetyReadSeconds = safetyReadSeconds
            self.dormantRate = dormantRate
            self.dormantAfterMs = dormantAfterMs
        }
    }

    public let settings: Settings
    public private(set) var rate = Rate.full
    /// What the still device reads, averaged.
    private var reference: Vector3?
    private var lastTime = -Double.infinity
    private var lastMotion = -Double.infinity
    /// When a sample last moved (a motion event's `noteMotion` is not one).
    public private(set) var lastMovedSample = -Double.infinity

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// One reading of the display accelerometer at `time` (seconds); `deciding`: whether the
    /// classifier, having seen it, still waits on a decision. Returns the pace from now on.
    @discardableResult
    public mutating func note(_ acceleration: Vector3, at time: Double, deciding: Bool) -> Rate {
        guard time.isFinite, acceleration.x.isFinite, acceleration.y.isFinite, acceleration.z.isFinite else {
            return noteFailure(at: time)
        }
        if let reference, time >= lastTime {
            if (acceleration - reference).magnitude > settings.motionThreshold {
                self.reference = acceleration
                lastMotion = time
                lastMovedSample = time
            } else {
                let timeConstant = settings.stillAfterMs / 1000
                let step = time - lastTime
                let weight = timeConstant + step > 0 ? step / (timeConstant + step) : 1
                self.reference = reference + (acceleration - reference) * weight
            }
        } else {
            // Nothing to compare with: start afresh, at the full rate.
            reference = acceleration
            lastMotion = time
        }
        lastTime = time
        return decide(at: time, deciding: deciding)
    }

    /// The accelerometer's own motion event fired at `time`: the full rate, as for a sample that
    /// moved (the reference stays, so the next sample is compared with the still device).
    @discardableResult
    public mutating func noteMotion(at time: Double) -> Rate {
        if time.isFinite {
            lastMotion = time
            lastTime = max(lastTime, time)
        }
        rate = .full
        return rate
    }

    /// A read of the display accelerometer failed (or gave what cannot be an acceleration): it
    /// counts as motion.
    @discardableResult
    public mutating func noteFailure(at time: Double) -> Rate {
        noteMotion(at: time)
    }

    /// Forgets the reference (the sensor slept or was reopened: the device may have moved
    /// unseen); the next reading starts afresh, at the full rate.
    public mutating func reset() {
        reference = nil
        lastTime = -.infinity
        lastMotion = -.infinity
        lastMovedSample = -.infinity
        rate = .full
    }

    private mutating func decide(at time: Double, deciding: Bool) -> Rate {
        let quietFor = time - lastMotion
        if deciding || quietFor < settings.stillAfterMs / 1000 {
            rate = .full
        } else if settings.dormantRate < settings.stillRate, quietFor >= settings.dormantAfterMs / 1000 {
            rate = .dormant
        } else {
            rate = .still
        }
        return rate
    }
}
