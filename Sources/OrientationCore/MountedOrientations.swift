/// What orientd would report for each of the six ways a device can rest, under a given mount
/// matrix, when the sensor is really mounted as another (axis-aligned) matrix says: so that
/// `orientctl calibrate` can show what the current matrix does and what the new one will do.
public enum MountedOrientations {
    /// One resting pose of the device and what the classifier makes of it.
    public struct Reading: Equatable, Sendable {
        /// How the device is held.
        public var pose: Orientation
        /// What orientd would report.
        public var reads: Orientation
    }

    /// The six poses in the order people think of them.
    public static let poses: [Orientation] = [.portrait, .landscapeLeft, .portraitUpsideDown, .landscapeRight, .faceUp, .faceDown]

    /// For each pose: what a sensor mounted as `truth` (a signed permutation, as
    /// `MountMatrixCalibration.derive` gives) reads, put through `matrix` and the classifier.
    public static func readings(with matrix: MountMatrix, mountedAs truth: MountMatrix,
                                settings: ClassifierSettings = ClassifierSettings()) -> [Reading] {
        poses.map { pose in
            let gravity = restingGravity(pose) * settings.gravity
            // A signed permutation's inverse is its transpose.
            let raw = Vector3(
                truth.rows[0].x * gravity.x + truth.rows[1].x * gravity.y + truth.rows[2].x * gravity.z,
                truth.rows[0].y * gravity.x + truth.rows[1].y * gravity.y + truth.rows[2].y * gravity.z,
                truth.rows[0].z * gravity.x + truth.rows[1].z * gravity.y + truth.rows[2].z * gravity.z)
            return Reading(pose: pose, reads: classify(matrix.apply(to: raw), settings: settings))
        }
    }

    /// What a fresh classifier decides from one sample at rest.
    public static func classify(_ acceleration: Vector3, settings: ClassifierSettings = ClassifierSettings()) -> Orientation {
        var classifier = Classifier(settings: settings)
        return classifier.classify(AccelerometerSample(time: 0, acceleration: acceleration))?.orientation ?? .unknown
    }

    /// The reaction to gravity at rest in `pose`, in g, in the device frame (docs/conventions.md).
    public static func restingGravity(_ pose: Orientation) -> Vector3 {
        switch pose {
        case .portrait: Vector3(0, -1, 0)
        case .portraitUpsideDown: Vector3(0, 1, 0)
        case .landscapeLeft: Vector3(-1, 0, 0)
        case .landscapeRight: Vector3(1, 0, 0)
        case .faceUp: Vector3(0, 0, 1)
        case .faceDown: Vector3(0, 0, -1)
        case .unknown: .zero
        }
    }
}
