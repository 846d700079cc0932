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
    /// `PlausibleAcceleration`), and the next reading is tried.
    public mutating func acceleration(fromCounts counts: Vector3) -> Vector3 {
        if scale == nil {
            let magnitude = counts.magnitude
            guard magnitude.isFinite, magnitude > 0 else { return counts }
            scale = Self.standardGravity / magnitude
        }
        return counts * (scale ?? 1)
    }

    static let standardGravity = 9.80665
}
