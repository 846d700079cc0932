import Glibc

/// The continuous angles of a (filtered) acceleration vector, in degrees, for clients that rotate
/// a view smoothly rather than in 90° steps.
public struct OrientationAngles: Equatable, Sendable {
    /// Rotation in the screen's plane: 0 portrait, 90 landscapeLeft, 180 upside down, 270 landscapeRight.
    public var inPlane: Double
    /// Screen towards the sky (+90) or the floor (-90); 0 upright.
    public var tilt: Double
    /// Rotation about the device's x axis (left-right): 0 upright, +90 lying face up with the top
    /// edge away, ±180 upside down. Undefined with the device on its side (roll near ±90°), where
    /// y and z are both near 0: it jumps with the noise there (docs/protocol.md says so).
    public var pitch: Double
    /// Rotation about the device's y axis (bottom-top): positive when the right edge goes down.
    public var roll: Double

    public init(of vector: Vector3) {
        inPlane = Geometry.inPlaneAngle(of: vector)
        tilt = Geometry.tilt(of: vector)
        pitch = atan2(vector.z, -vector.y) * 180 / .pi
        roll = atan2(vector.x, (vector.y * vector.y + vector.z * vector.z).squareRoot()) * 180 / .pi
    }
}
