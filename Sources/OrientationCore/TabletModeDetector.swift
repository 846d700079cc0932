/// Follows the hinge angle of a convertible from its display and base accelerometers and decides
/// when it is a tablet, without flapping:
/// - both vectors are low-pass filtered; a half that is accelerating (outside g ± tolerance) or
///   whose sample is older than `pairingWindow` against the other's gives no angle;
/// - near 0°/360° (within `seam`), where closed and folded back read alike, the angle is the one
///   nearer the last angle, so a lid folded back past 350° reads 360° (tablet), not 0° (closed);
///   with no history it is unknown, and so is tablet mode, until the lid moves out of the seam;
/// - the published angle changes only by `angleStep` or more;
/// - tablet mode starts at `enterTabletAt` or beyond and ends at `leaveTabletAt` or below; an
///   undefined angle (the hinge axis near vertical) changes neither.
/// A sample that cannot be a real acceleration (`PlausibleAcceleration`) is ignored.
/// Time is passed in, in seconds.
public struct TabletModeDetector: Sendable {
    public var enterTabletAt = 200.0
    public var leaveTabletAt = 160.0
    public var angleStep = 5.0
    public var pairingWindow = 0.5
    public var seam = 40.0
    public var gravity = 9.80665
    public var accelerationTolerance = 4.0

    /// What the detector says; `angle` nil while it is undefined (`problem` says why) or before
    /// both halves were read; `tabletMode` nil until an angle was first known.
    public struct State: Equatable, Sendable {
        public var angle: Double?
        public var tabletMode: Bool?
        public var problem: String?

        public init(angle: Double? = nil, tabletMode: Bool? = nil, problem: String? = nil) {
            self.angle = angle
            self.tabletMode = tabletMode
            self.problem = problem
        }
    }

    public private(set) var state = State()
    private var display = LowPassFilter(timeConstant: 0.1, resetGap: 1)
    private var base = LowPassFilter(timeConstant: 0.1, resetGap: 1)
    private var displayTime = -Double.infinity
    private var baseTime = -Double.infinity
    /// The last angle computed, unwrapped, published or not.
    private var lastAngle: Double?

    public init() {}

    public mutating func display(_ sample: AccelerometerSample) -> State? {
        guard sample.time.isFinite, PlausibleAcceleration.isPlausible(sample.acceleration) else { return nil }
        displayTime = sample.time
        _ = display.filter(sample.acceleration, at: sample.time)
        return update()
    }

    public mutating func base(_ sample: AccelerometerSample) -> State? {
        guard sample.time.isFinite, PlausibleAcceleration.isPlausible(sample.acceleration) else { return nil }
        baseTime = sample.time
        _ = base.filter(sample.acceleration, at: sample.time)
        return update()
    }

    /// A half could not be read: the angle is unknown (`reason` says why) until both are read
    /// again; tablet mode stays as it was.
    public mutating func unreadable(because reason: String) -> State? {
        var next = state
        next.angle = nil
        next.problem = reason
        guard next != state else { return nil }
        state = next
        return next
    }

    /// Forgets the motion so far (a sensor was lost): the next angle starts afresh.
    public mutating func reset() {
        self = TabletModeDetector(thresholdsOf: self)
    }

    private init(thresholdsOf other: TabletModeDetector) {
        enterTabletAt = other.enterTabletAt
        leaveTabletAt = other.leaveTabletAt
        angleStep = other.angleStep
        pairingWindow = other.pairingWindow
        seam = other.seam
        gravity = other.gravity
        accelerationTolerance = other.accelerationTolerance
    }

    /// The new state, or nil when nothing published changed.
    private mutating func update() -> State? {
        guard let display = display.value, let base = base.value, abs(displayTime - baseTime) <= pairingWindow else { return nil }
        guard [display, base].allSatisfy({ abs($0.magnitude - gravity) <= accelerationTolerance }) else { return nil }
        var next = state
        switch HingeAngle.reading(display: display, base: base) {
        case .undefined(let reason):
            next.angle = nil
            next.problem = reason
        case .angle(let raw):
            guard let angle = unwrapped(raw) else {
                next.angle = nil
                next.problem = Self.seamProblem
                break
            }
            lastAngle = angle
            next.problem = nil
            if next.angle.map({ abs($0 - angle) >= angleStep }) ?? true { next.angle = angle.rounded() }
            switch next.tabletMode {
            case nil: next.tabletMode = angle >= enterTabletAt
            case false? where angle >= enterTabletAt: next.tabletMode = true
            case true? where angle <= leaveTabletAt: next.tabletMode = false
            default: break
            }
        }
        guard next != state else { return nil }
        state = next
        return next
    }

    static let seamProblem = "closed or folded back into a tablet: the two read alike until the lid moves"

    /// `raw` in [0, 360); near the seam, whichever of its readings near 0° and near 360° is
    /// nearer the last angle, within [0, 360]; nil near the seam with no last angle.
    private func unwrapped(_ raw: Double) -> Double? {
        guard raw < seam || raw > 360 - seam else { return raw }
        guard let lastAngle else { return nil }
        let nearZero = raw < 180 ? raw : raw - 360
        let nearest = abs(nearZero - lastAngle) <= abs(nearZero + 360 - lastAngle) ? nearZero : nearZero + 360
        return min(max(nearest, 0), 360)
    }
}
