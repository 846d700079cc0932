/// The scale of an accelerometer whose driver gives none (Samsung's `ssp-accelerometer` sensor
/// hub has no scale attribute at all): its raw values are counts of an unknown size. The
/// magnitude of its first reading that is not zero is taken as 1 g, which puts its readings in
/// m/s² give or take the acceleration of that moment; the judge then learns the device's own
/// 1 g at rest (`GravityLearner`) and gates in it, so a first reading taken in motion costs
/// nothing: only the direction of the vector decides an orientation. Pure: one value per device.
public struct ScaleFromReadings: Equatable, Sendable {
    /// m/s² per count, once a reading has given it.
    public private(set) var scale: Double?

    public init() {}

    /// `counts` (offset applied) in m/s². A zero or non-finite first reading gives no scale: it
    /// comes back as it is (zero is no acceleration the judge decides on; garbage is refused by
    /// `PlausibleAcceleration`), and the next reading is tried. A reading that the scale makes
    /// `relearnBeyond` g or more was taken from a first reading far below 1 g (a part that had not
    /// settled, a scan of zeros but one count): the scale is taken from it instead, so a bad
    /// first reading cannot leave every later one refused as beyond 100 g.
    public mutating func acceleration(fromCounts counts: Vector3) -> Vector3 {
        let magnitude = counts.magnitude
        guard magnitude.isFinite else { return counts }
        if let scale, magnitude * scale < Self.relearnBeyond * Self.standardGravity { return counts * scale }
        guard magnitude > 0 else { return counts }
        scale = Self.standardGravity / magnitude
        return counts * (scale ?? 1)
    }

    static let standardGravity = 9.80665
    /// No shake of a phone or tablet comes near this many g (PlausibleAcceleration's bound is 100).
    static let relearnBeyond = 50.0
}
