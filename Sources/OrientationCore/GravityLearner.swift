/// The device's own 1 g, learnt from its readings at rest, so that the judge's magnitude gates
/// (acceleration, free fall) work for a driver whose scale is off by a constant factor (×0.3,
/// ×2.65, raw counts with no scale at all): the direction of the vector was always right, only
/// the gates were absolute.
///
/// At rest is a run of readings spanning at least `stillSpan` seconds whose magnitudes all stay
/// within ±`stillBand` of their mean; each such run's mean is one estimate, and the learnt g is
/// the median of the last `estimatesKept` estimates, so a single odd run (a slow push) is
/// outvoted; a free fall (below `smallestGravity`) is never learnt from. Until the first run at rest, the median of the last magnitudes read
/// stands in: a device that is never still for long (carried while walking) still averages
/// about 1 g. Pure: the times come with the readings.
public struct GravityLearner: Sendable {
    public static let stillSpan = 0.3
    public static let stillBand = 0.03
    static let estimatesKept = 5
    static let provisionalKept = 25
    /// Magnitudes below this (m/s²) are no 1 g of any device orientd can turn (a driver off by
    /// ×0.05 or worse), but a free fall's: never learnt from.
    public static let smallestGravity = 0.5
    /// A run must hold at least this many readings (at 3 readings a second, a still device's
    /// pace, that is 0.67 s).
    static let fewestInRun = 3

    private var run: [(time: Double, magnitude: Double)] = []
    private var estimates: [Double] = []
    private var recent: [Double] = []

    public init() {}

    /// 1 g as this device reads it (m/s² after its scale); nil before any reading.
    public var gravity: Double? { Self.median(estimates) ?? Self.median(recent) }

    /// 1 g learnt from readings at rest; nil until a first run at rest.
    public var gravityAtRest: Double? { Self.median(estimates) }

    /// How many runs at rest the learnt g stands on (at most `estimatesKept`).
    public var runsAtRest: Int { estimates.count }

    /// Takes the magnitude of one plausible reading.
    public mutating func note(magnitude: Double, at time: Double) {
        guard magnitude.isFinite, magnitude >= Self.smallestGravity, time.isFinite else {
            run.removeAll()
            return
        }
        recent.append(magnitude)
        if recent.count > Self.provisionalKept { recent.removeFirst() }
        if let last = run.last, time <= last.time { run.removeAll() }
        run.append((time, magnitude))
        // Keep the longest recent run whose magnitudes stay within the band of their mean.
        while run.count > 1, !Self.isAtRest(run.map(\.magnitude)) { run.removeFirst() }
        guard let first = run.first, run.count >= Self.fewestInRun, time - first.time >= Self.stillSpan else { return }
        estimates.append(run.map(\.magnitude).reduce(0, +) / Double(run.count))
        if estimates.count > Self.estimatesKept { estimates.removeFirst() }
        run.removeAll()
    }

    /// Another device: what was learnt is not its own.
    public mutating func forget() { self = GravityLearner() }

    private static func isAtRest(_ magnitudes: [Double]) -> Bool {
        let mean = magnitudes.reduce(0, +) / Double(magnitudes.count)
        return magnitudes.allSatisfy { abs($0 - mean) <= stillBand * mean }
    }

    private static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
