/// The three poses `orientctl calibrate` measures, in order. Two in the screen's plane fix the x
/// and y rows of the mount matrix; lying flat fixes the z row, which no cross product can give:
/// real hwdb matrices may mirror (determinant -1), so z is measured, not derived.
public enum CalibrationPose: Int, CaseIterable, Sendable, CustomStringConvertible {
    /// Upright in the position the device is normally used in: portrait for a phone or a
    /// portrait tablet; for a laptop or a landscape tablet, the screen-up landscape it is used in.
    case upright = 1
    /// From upright, turned a quarter to the left: the top edge points left.
    case turnedLeft = 2
    /// Lying flat, screen up.
    case flat = 3

    /// The step's number, as the user sees it.
    public var step: Int { rawValue }

    /// What the device must read in this pose once the matrix is right.
    public var orientation: Orientation {
        switch self {
        case .upright: .portrait
        case .turnedLeft: .landscapeLeft
        case .flat: .faceUp
        }
    }

    /// The reaction to gravity in this pose, in g, in the device frame (docs/conventions.md).
    public var deviceFrameGravity: Vector3 {
        switch self {
        case .upright: Vector3(0, -1, 0)
        case .turnedLeft: Vector3(-1, 0, 0)
        case .flat: Vector3(0, 0, 1)
        }
    }

    /// What the user is asked to do, in one or two sentences.
    public var instruction: String {
        switch self {
        case .upright:
            "Hold the device upright, screen towards you, the way you normally use it (a phone or tablet in portrait; " +
                "a laptop or landscape tablet the way it stands on a desk, its screen as near vertical as it goes), and keep it still."
        case .turnedLeft:
            "From there, turn it a quarter to the LEFT (counter-clockwise), so the top edge of the screen points left, " +
                "still upright facing you, and keep it still."
        case .flat:
            "Lay it flat on a table, screen up (a convertible folded into a tablet; a laptop with its lid opened flat, if it opens that far), and keep it still."
        }
    }

    /// "step 2 (turned left)".
    public var description: String {
        switch self {
        case .upright: "step 1 (upright)"
        case .turnedLeft: "step 2 (turned left)"
        case .flat: "step 3 (lying flat)"
        }
    }
}
