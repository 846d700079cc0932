/// Whether a reading can be a real acceleration of the device at all, checked before anything
/// (the low-pass filter, the hinge angle) takes it in: one absurd reading would otherwise poison
/// the filter for as long as it takes to decay, a minute for 1e308 m/s², and make angles that no
/// client can be sent (infinity and NaN have no JSON spelling).
///
/// The bound is 100 g. The accelerometers of tablets, convertibles and phones measure at most
/// ±16 g (most run at ±2 g to ±8 g), so a working one never reports much more, whatever the
/// device goes through. The bound leaves room above that for drivers whose values are in counts
/// rather than m/s² (a missing scale attribute counts as 1: at 256 counts per g, as in the
/// reference vectors that orientd shares with iio-sensor-proxy, gravity reads as 26 g), which
/// orientd still turns by the direction of the vector. A magnitude beyond it, or a component that
/// is not finite, comes from garbage in a raw attribute or a wrong scale: such a reading is
/// treated as a failed read. Whatever passes decays from the filter within about half a second.
public enum PlausibleAcceleration {
    public static let largestMagnitude = 100 * 9.80665

    /// Why `acceleration` (m/s²) cannot be a real reading; nil when it can.
    public static func problem(with acceleration: Vector3) -> String? {
        guard acceleration.x.isFinite, acceleration.y.isFinite, acceleration.z.isFinite else {
            return "\(acceleration) m/s² is not a finite acceleration"
        }
        // A component beyond the bound is enough (and the magnitude of 1e308s would overflow).
        let largest = max(abs(acceleration.x), abs(acceleration.y), abs(acceleration.z))
        guard largest <= largestMagnitude, acceleration.magnitude <= largestMagnitude else {
            return "\(acceleration) m/s² is beyond 100 g, far more than any tablet's or phone's accelerometer measures"
        }
        return nil
    }

    public static func isPlausible(_ acceleration: Vector3) -> Bool { problem(with: acceleration) == nil }
}
