import Glibc

/// Derives an axis-aligned mount matrix (entries -1, 0, 1) from the raw readings of the three
/// `CalibrationPose`s: each pose says which device axis gravity lies along, the reading which
/// sensor axis, so each pose fills one row of the matrix (out = M · raw, docs/conventions.md).
/// Readings that cannot be three still quarter-turned poses are refused with a `CalibrationProblem`.
public enum MountMatrixCalibration {
    public static let gravity = 9.80665
    /// A still device reads 1 g; the mean of a step may differ by this fraction of it.
    public static let magnitudeTolerance = 0.2
    /// The largest distance (m/s²) a sample may stray from its step's mean: a hand holding a
    /// device still stays within a few tenths.
    public static let largestSpread = 1.5
    /// Two poses a quarter turn apart must read directions this far apart (degrees).
    public static let quarterTurn = 60.0...120.0
    /// Readings closer than this (degrees) were not turned at all between the steps.
    public static let notTurned = 20.0
    /// How far (degrees) a reading may point from the nearest sensor axis: a laptop's lid leans
    /// back 10-25°, a hand holds a tablet a little tilted.
    public static let largestSlant = 35.0

    /// The matrix that makes `upright` read portrait, `turnedLeft` landscapeLeft and `flat` faceUp.
    public static func derive(upright: CalibrationReading, turnedLeft: CalibrationReading,
                              flat: CalibrationReading) throws(CalibrationProblem) -> MountMatrix {
        let steps: [(pose: CalibrationPose, reading: CalibrationReading)] = [(.upright, upright), (.turnedLeft, turnedLeft), (.flat, flat)]
        for (pose, reading) in steps { try check(reading, as: pose) }
        let pairs = [(0, 1), (0, 2), (1, 2)]
        let angles = pairs.map { angle(steps[$0.0].reading.mean, steps[$0.1].reading.mean) }
        if let largest = angles.max(), largest < quarterTurn.lowerBound { throw .neverTurned(largestAngle: largest) }
        for ((first, second), angle) in zip(pairs, angles) {
            if angle < quarterTurn.lowerBound { throw .tooClose(steps[first].pose, steps[second].pose, angle: angle) }
            if angle > quarterTurn.upperBound { throw .tooFarApart(steps[first].pose, steps[second].pose, angle: angle) }
        }
        var axes: [(axis: Int, sign: Double)] = []
        for (pose, reading) in steps {
            let (axis, sign, slant) = nearestAxis(of: reading.mean)
            guard slant <= largestSlant else { throw .slanted(pose, degreesFromAxis: slant) }
            if let earlier = axes.firstIndex(where: { $0.axis == axis }) {
                throw .sameAxis(steps[earlier].pose, pose, axis: axis)
            }
            axes.append((axis, sign))
        }
        // Gravity in the device frame is t·e(d) for the pose, and s·g·e(i) in the sensor's: so
        // row d of the matrix is t·s·e(i).
        var rows = [Vector3.zero, .zero, .zero]
        for ((pose, _), (axis, sign)) in zip(steps, axes) {
            let target = pose.deviceFrameGravity
            let (row, direction) = target.x != 0 ? (0, target.x) : target.y != 0 ? (1, target.y) : (2, target.z)
            var entries = [0.0, 0.0, 0.0]
            entries[axis] = direction * sign
            rows[row] = Vector3(entries[0], entries[1], entries[2])
        }
        // Three distinct axes and three distinct rows: a signed permutation, always a valid matrix.
        return MountMatrix(rows: rows)!
    }

    /// What step 2 can tell at once against step 1: the device was turned a quarter, not left as
    /// it was (or turned upside down), so the user hears it before step 3.
    public static func checkTurn(from upright: CalibrationReading, to turnedLeft: CalibrationReading) throws(CalibrationProblem) {
        let turned = angle(upright.mean, turnedLeft.mean)
        if turned < notTurned { throw .neverTurned(largestAngle: turned) }
        if turned < quarterTurn.lowerBound { throw .tooClose(.upright, .turnedLeft, angle: turned) }
        if turned > quarterTurn.upperBound { throw .tooFarApart(.upright, .turnedLeft, angle: turned) }
    }

    /// What one step alone can tell: the device was still, and read 1 g.
    public static func check(_ reading: CalibrationReading, as pose: CalibrationPose) throws(CalibrationProblem) {
        guard reading.spread <= largestSpread else { throw .moved(pose, spread: reading.spread) }
        let magnitude = reading.mean.magnitude
        guard abs(magnitude - gravity) <= magnitudeTolerance * gravity else { throw .notOneG(pose, magnitude: magnitude) }
    }

    /// Degrees between two vectors.
    static func angle(_ a: Vector3, _ b: Vector3) -> Double {
        let cosine = a.dot(b) / (a.magnitude * b.magnitude)
        return acos(min(1, max(-1, cosine))) * 180 / .pi
    }

    /// The sensor axis `vector` lies nearest (0 x, 1 y, 2 z), its sign along it, and the angle
    /// (degrees) between them.
    static func nearestAxis(of vector: Vector3) -> (axis: Int, sign: Double, degrees: Double) {
        let components = [vector.x, vector.y, vector.z]
        let axis = components.indices.max { abs(components[$0]) < abs(components[$1]) }!
        let degrees = acos(min(1, abs(components[axis]) / vector.magnitude)) * 180 / .pi
        return (axis, components[axis] < 0 ? -1 : 1, degrees)
    }
}

extension MountMatrix {
    /// -1 for a matrix that mirrors, as some real hwdb matrices do (`0, 1, 0; 1, 0, 0; 0, 0, 1`).
    public var determinant: Double {
        let (a, b, c) = (rows[0], rows[1], rows[2])
        return a.x * (b.y * c.z - b.z * c.y) - a.y * (b.x * c.z - b.z * c.x) + a.z * (b.x * c.y - b.y * c.x)
    }
}
