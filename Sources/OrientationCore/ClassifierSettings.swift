/// Every constant of the orientation judge, in degrees, milliseconds and m/s², never in samples,
/// so it behaves the same at any sensor rate. Defaults follow Android's window-orientation judge
/// (docs/conventions.md, "Classifier constants", gives each one's source), tuned for latency
/// where noted.
public struct ClassifierSettings: Equatable, Sendable {
    /// Time constant of the low-pass filter on the acceleration vector. Android uses 200 ms;
    /// 70 ms takes a 90° turn past the hysteresis border in 86 ms and still smooths walking (2 Hz)
    /// to a few degrees: every corpus scenario passes at 50 and 25 Hz. The lag it saves pays for
    /// polling at 25 Hz (a turn is published 140 ms after it at 25 Hz, 158 ms at worst).
    public var filterTimeConstantMs: Double = 70
    /// While the device is carried (walking with it, in a bag or a pocket: the magnitude swings by
    /// more than `carriedMotion` g RMS over the last second), the vector is filtered with this
    /// time constant instead: a step's bounce and sway no longer tip it over a border. Real
    /// recordings of a person walking (scripts/bench-recordings) flapped 8.7 times an hour of
    /// constant posture with the 70 ms filter, 2.5 with this (the rest are a loose phone shifting
    /// in a purse); a turn made while walking is decided about this much later. 0: the same
    /// filter always.
    public var carriedFilterTimeConstantMs: Double = 600
    /// g: the carried test's RMS swing; also, in the filter time constant after a still-rate
    /// read, how much the magnitude may change from read to read before it counts as a motion.
    public var carriedMotion: Double = 0.1
    /// A gap between samples longer than this (suspend/resume) restarts the filter.
    public var filterResetGapMs: Double = 1000
    /// Below this magnitude there is no usable gravity (free fall, a dead sensor): no decision.
    public var freeFallMagnitude: Double = 1
    /// Standard gravity, and how far the magnitude may stray from it before the device counts as
    /// accelerating (shaken, bumped), which suspends decisions for `accelerationLockoutMs`.
    public var gravity: Double = 9.80665
    public var accelerationTolerance: Double = 4
    public var accelerationLockoutMs: Double = 500
    /// |tilt| at which the device lies flat: no in-plane decision, faceUp/faceDown instead.
    public var flatTiltDegrees: Double = 80
    /// A device at rest (`restMs`) leaves faceUp/faceDown below `flatTiltDegrees` less this, so
    /// one resting at the border does not flap. In motion, faceUp/faceDown is left at the tilt
    /// limit of the orientation it goes to (70° for portrait): a pick-up that twists must not flash
    /// the orientation it was put down in.
    public var faceHysteresisDegrees: Double = 5
    /// How long it must lie flat before faceUp/faceDown is published.
    public var faceDelayMs: Double = 500
    /// After lying flat at least `flatMinimumMs`, a new in-plane orientation waits `flatEndedLockoutMs`.
    /// Android waits 500 ms, lest picking the device up flash a wrong orientation; orientd waits
    /// none: the tilt limits, the settle time and the turn in progress already keep a pick-up,
    /// even a twisting one, from flashing (the corpus's pick-up scenarios, and real recordings,
    /// give the same decisions without it), and the wait made a pick-up 0.5 s slower than a turn.
    /// Returning to the orientation it was put down in never waits.
    public var flatMinimumMs: Double = 1000
    public var flatEndedLockoutMs: Double = 0
    /// A swing towards flat (|tilt| up by `swingTiltDegrees` within `swingWindowMs`) suspends
    /// decisions for `swingLockoutMs` (putting the device down).
    public var swingTiltDegrees: Double = 20
    public var swingWindowMs: Double = 300
    public var swingLockoutMs: Double = 300
    /// Largest |tilt| at which each in-plane orientation may be decided. Symmetric in the sign of z,
    /// because the z sign of real mount matrices is unreliable.
    public var portraitTiltLimitDegrees: Double = 70
    public var landscapeTiltLimitDegrees: Double = 65
    public var upsideDownTiltLimitDegrees: Double = 60
    /// Once the device has held still this long, the tilt limits no longer apply: an in-plane
    /// orientation is decided up to `flatTiltDegrees`. The limits keep a device in motion near
    /// flat (picked up, put down, a hand's wobble) from deciding on a weak in-plane pull; a device
    /// at rest between a limit and flat (a phone in a pocket as its owner sits or lies down, a
    /// tablet propped low) has a steady in-plane pull and shows its pose. 0: the limits always apply.
    public var restMs: Double = 1000
    /// Beyond the 45° border, how far the in-plane angle must go to leave the current orientation
    /// (22.5°: leave portrait at 67.5°, come back at 22.5°, Android's 45° gap).
    public var hysteresisDegrees: Double = 22.5
    /// How long a new orientation must be proposed without interruption before it is published.
    public var settleMs: Double = 40
    /// While the filtered in-plane angle turns faster than this, a rotation is in progress and no
    /// new in-plane orientation is published: a fast 180° flip must not flash landscape on the way.
    /// (With the 70 ms filter a sudden 90° turn crosses the 67.5° border at about 400°/s, so it
    /// counts as turning for a sample; the proposal is still timed from that sample.) For one
    /// filter time constant after a still-rate read the unfiltered angle's pace counts too, and
    /// that read itself counts as turning if it moved from the one before (`Classifier`).
    public var turnInProgressDegreesPerSecond: Double = 360
    /// Without a reliable reading for this long, the orientation becomes unknown.
    public var staleAfterMs: Double = 2000

    public init() {}

    func tiltLimit(for orientation: Orientation) -> Double {
        switch orientation {
        case .portrait: portraitTiltLimitDegrees
        case .landscapeLeft, .landscapeRight: landscapeTiltLimitDegrees
        case .portraitUpsideDown: upsideDownTiltLimitDegrees
        case .unknown, .faceUp, .faceDown: 90
        }
    }
}
