/// Why `MountMatrixCalibration` refuses a set of readings: what was measured and what to do.
public enum CalibrationProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The samples of one step strayed too far from their mean (m/s²): the device moved.
    case moved(CalibrationPose, spread: Double)
    /// One step's mean is far from 1 g (m/s²).
    case notOneG(CalibrationPose, magnitude: Double)
    /// Every step read about the same direction: the device was never turned.
    case neverTurned(largestAngle: Double)
    /// Two steps read directions closer than a quarter turn allows (degrees).
    case tooClose(CalibrationPose, CalibrationPose, angle: Double)
    /// Two steps read directions further apart than a quarter turn allows (degrees).
    case tooFarApart(CalibrationPose, CalibrationPose, angle: Double)
    /// One step read a direction far from every sensor axis (degrees from the nearest).
    case slanted(CalibrationPose, degreesFromAxis: Double)
    /// Two steps read along the same sensor axis (0 x, 1 y, 2 z).
    case sameAxis(CalibrationPose, CalibrationPose, axis: Int)

    public var description: String {
        switch self {
        case .moved(let pose, let spread):
            return "\(pose): the readings moved by up to \(Self.number(spread)) m/s² during the step: the device moved. "
                + "Hold it still (rest it against something) and run the calibration again."
        case .notOneG(let pose, let magnitude):
            return "\(pose): the reading's size is \(Self.number(magnitude)) m/s², far from 1 g (9.81 m/s²): "
                + "the device was moving, or the sensor's scale is wrong (check `orientctl status` and the sensor's in_accel_scale). "
                + "Hold it still and run the calibration again."
        case .neverTurned(let angle):
            return "the steps read about the same direction (at most \(Self.number(angle))° apart): the device was not turned between the steps. "
                + "If it lay flat the whole time, pick it up for steps 1 and 2: hold it upright, screen facing you."
        case .tooClose(let first, let second, let angle) where second == .flat:
            return "\(first) looked flat: its reading is only \(Self.number(angle))° from \(second)'s, where a quarter turn (90°) is expected. "
                + "In \(first) hold the device upright, screen facing you, not lying down; in step 3 lay it flat, screen up."
        case .tooClose(let first, let second, let angle):
            return "readings too close together: did you turn it a quarter? \(first) and \(second) read directions only \(Self.number(angle))° apart, "
                + "where a quarter turn (90°) is expected. In step 2 turn the device a quarter to the left from step 1, top edge pointing left, still facing you."
        case .tooFarApart(let first, let second, let angle) where second == .flat:
            return "\(first) and \(second) read directions \(Self.number(angle))° apart, where a quarter turn (90°) is expected: "
                + "the device lay screen down in step 3, or faced the floor in \(first). Lay it screen up in step 3; hold it upright facing you in \(first)."
        case .tooFarApart(let first, let second, let angle):
            return "\(first) and \(second) read directions \(Self.number(angle))° apart: the device was turned half way round (upside down), not a quarter. "
                + "In step 2 turn it a quarter to the left from step 1, top edge pointing left."
        case .slanted(let pose, let degrees):
            return "\(pose): the reading points \(Self.number(degrees))° away from every axis of the sensor: the device was held at a slant. "
                + "Hold it straight (upright with its edges vertical; in step 3 flat on a table). If it was straight, the sensor is mounted "
                + "at an angle that a matrix of -1, 0 and 1 cannot describe: set mount-matrix in orientd's config file instead."
        case .sameAxis(let first, let second, let axis):
            return "\(first) and \(second) both read along the sensor's \(["x", "y", "z"][axis]) axis, where each step must read along its own: "
                + "the device was not turned a quarter between them. Run the calibration again."
        }
    }

    /// One decimal.
    private static func number(_ value: Double) -> String { formatDecimal((value * 10).rounded() / 10) }
}
