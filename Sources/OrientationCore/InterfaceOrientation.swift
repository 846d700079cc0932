/// Apple's `UIInterfaceOrientation`: which way the content is drawn. Its landscapes are named
/// after the way the content turns, so they swap with the device's: the device's `landscapeLeft`
/// (turned left) shows the content in `landscapeRight`.
public enum InterfaceOrientation: String, CaseIterable, Codable, Sendable, CustomStringConvertible {
    case portrait
    case portraitUpsideDown
    case landscapeLeft
    case landscapeRight

    /// The interface orientation that matches an in-plane device orientation; nil for unknown,
    /// faceUp and faceDown, which never change the interface orientation.
    public init?(device: Orientation) {
        switch device {
        case .portrait: self = .portrait
        case .portraitUpsideDown: self = .portraitUpsideDown
        case .landscapeLeft: self = .landscapeRight
        case .landscapeRight: self = .landscapeLeft
        case .unknown, .faceUp, .faceDown: return nil
        }
    }

    /// The device orientation this interface orientation is drawn for.
    public var device: Orientation {
        switch self {
        case .portrait: .portrait
        case .portraitUpsideDown: .portraitUpsideDown
        case .landscapeLeft: .landscapeRight
        case .landscapeRight: .landscapeLeft
        }
    }

    /// Degrees clockwise the content is turned against the panel's natural (portrait) orientation
    /// so that it reads upright: 0, 90, 180 or 270. Equals the W3C `screen.orientation.angle` and
    /// Android's display rotation.
    public var rotation: Int { Int(device.inPlaneAngle!) }

    public var description: String { rawValue }
}

/// One client's interface orientation: follows the device into the orientations the client
/// supports, and stays put otherwise (shouldAutorotateToInterfaceOrientation, decided by the daemon).
public struct InterfaceOrientationFollower: Equatable, Sendable {
    /// The supported orientations, in the client's order of preference.
    public let supported: [InterfaceOrientation]
    public private(set) var current: InterfaceOrientation

    /// Starts in the orientation `driving` asks for if supported, else in the first supported one.
    /// `supported` must not be empty.
    public init(supported: [InterfaceOrientation], driving: Orientation?) {
        precondition(!supported.isEmpty, "an interface supports at least one orientation")
        self.supported = supported
        let wanted = driving.flatMap(InterfaceOrientation.init(device:))
        current = wanted.flatMap { supported.contains($0) ? $0 : nil } ?? supported[0]
    }

    /// Follows a new driving device orientation; returns the previous interface orientation when
    /// it changed. faceUp, faceDown, unknown and unsupported orientations change nothing.
    public mutating func follow(_ driving: Orientation) -> InterfaceOrientation? {
        guard let wanted = InterfaceOrientation(device: driving), supported.contains(wanted), wanted != current else { return nil }
        defer { current = wanted }
        return current
    }
}
