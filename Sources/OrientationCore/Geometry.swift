import Glibc

/// Angles of an acceleration vector in orientd's frame (after the mount matrix: x to the screen's
/// left, y to its bottom edge, z out of the screen; upright reads (0, -1 g, 0); docs/conventions.md,
/// "Axes"), in degrees.
public enum Geometry {
    /// How far the screen faces the sky (+90°) or the floor (-90°); 0° when upright.
    public static func tilt(of vector: Vector3) -> Double {
        let magnitude = vector.magnitude
        guard magnitude > 0 else { return 0 }
        return asin(max(-1, min(1, vector.z / magnitude))) * 180 / .pi
    }

    /// The rotation of the device in the screen's plane, 0° portrait, 90° landscapeLeft,
    /// 180° upside down, 270° landscapeRight. Uses x and y only: the sign of z never decides it.
    public static func inPlaneAngle(of vector: Vector3) -> Double {
        let degrees = atan2(-vector.x, -vector.y) * 180 / .pi
        return degrees < 0 ? degrees + 360 : degrees
    }

    /// The angle between two vectors in space, 0...180°; 0 if either is zero.
    public static func angle(between a: Vector3, and b: Vector3) -> Double {
        let magnitudes = a.magnitude * b.magnitude
        guard magnitudes > 0 else { return 0 }
        return acos(max(-1, min(1, a.dot(b) / magnitudes))) * 180 / .pi
    }

    /// The smallest difference between two angles, 0...180°.
    public static func angularDistance(_ a: Double, _ b: Double) -> Double {
        let difference = abs(a - b).truncatingRemainder(dividingBy: 360)
        return difference > 180 ? 360 - difference : difference
    }
}
