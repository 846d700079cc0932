import Glibc

/// The angle between the display and the base of a convertible, from one accelerometer in each:
/// 0° closed, about 110° as a laptop, 180° flat, about 300° as a tent, 360° folded into a tablet.
///
/// Both vectors are in orientd's frame (docs/conventions.md, "Axes": x to the screen's left, y to
/// its bottom edge, z out of the screen). The base's mount matrix must put the base sensor in the
/// frame the display's has when the lid is opened flat, so the two agree at 180°. The hinge runs
/// along x: opening the lid turns the display about x. Gravity's direction in each half's y-z
/// plane then gives the angle between the halves.
///
/// When the hinge axis points nearly up or down (the machine stands on its side), gravity has
/// almost no component across the hinge, and any angle would be a guess: the reading is undefined.
public enum HingeAngle {
    /// Gravity must lie at least this far (degrees) from the hinge axis in both halves: the hinge
    /// may be tilted at most 60° from horizontal.
    public static let smallestAngleToHingeAxis = 30.0

    public enum Reading: Equatable, Sendable {
        /// Degrees in [0, 360): 0 and 360 are the same relative position (closed, or folded flat
        /// back to back), which only the history of the motion tells apart.
        case angle(Double)
        case undefined(reason: String)
    }

    /// The hinge angle from a display and a base acceleration (reaction to gravity, any unit).
    public static func reading(display: Vector3, base: Vector3) -> Reading {
        for vector in [display, base] {
            let across = (vector.y * vector.y + vector.z * vector.z).squareRoot()
            guard vector.magnitude > 0, across / vector.magnitude >= sin(smallestAngleToHingeAxis * .pi / 180) else {
                return .undefined(reason: "the hinge axis is within \(Int(smallestAngleToHingeAxis))° of vertical")
            }
        }
        // The display is the base turned by (angle - 180°) about x, so gravity's angle in the
        // display's y-z plane lags the base's by that much.
        let baseDirection = atan2(base.z, base.y) * 180 / .pi
        let displayDirection = atan2(display.z, display.y) * 180 / .pi
        let angle = (180 + baseDirection - displayDirection).truncatingRemainder(dividingBy: 360)
        return .angle(angle < 0 ? angle + 360 : angle)
    }
}
