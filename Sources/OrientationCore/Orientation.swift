/// Apple's `UIDeviceOrientation` states, with Apple's raw values and names.
public enum Orientation: String, CaseIterable, Codable, Sendable, CustomStringConvertible {
    case unknown
    case portrait
    case portraitUpsideDown
    case landscapeLeft
    case landscapeRight
    case faceUp
    case faceDown

    /// `UIDeviceOrientation.rawValue`.
    public var appleRawValue: Int {
        switch self {
        case .unknown: 0
        case .portrait: 1
        case .portraitUpsideDown: 2
        case .landscapeLeft: 3
        case .landscapeRight: 4
        case .faceUp: 5
        case .faceDown: 6
        }
    }

    /// The in-plane angle (degrees, W3C screen-orientation convention) at the centre of this orientation.
    public var inPlaneAngle: Double? {
        switch self {
        case .portrait: 0
        case .landscapeLeft: 90
        case .portraitUpsideDown: 180
        case .landscapeRight: 270
        case .unknown, .faceUp, .faceDown: nil
        }
    }

    public static let inPlane: [Orientation] = [.portrait, .landscapeLeft, .portraitUpsideDown, .landscapeRight]

    public var description: String { rawValue }
}
