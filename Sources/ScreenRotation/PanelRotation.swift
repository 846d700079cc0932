import OrientationCore

/// How far the picture is turned against the built-in panel, clockwise, so that it reads upright:
/// what `interfaceOrientationDidChange` calls `rotation` (the W3C `screen.orientation.angle`).
/// A device turned left (its top edge to the left) shows its content turned 90° clockwise.
///
/// Compositors count the same turn in two ways: sway and X11 clockwise, Wayland's `wl_output`
/// transforms (Hyprland, niri, wlr-randr) counter-clockwise.
public enum PanelRotation: Int, CaseIterable, Sendable, CustomStringConvertible {
    case upright = 0
    case clockwise90 = 90
    case upsideDown = 180
    case clockwise270 = 270

    /// The rotation that draws `interface` upright.
    public init(_ interface: InterfaceOrientation) {
        self = PanelRotation(rawValue: interface.rotation) ?? .upright
    }

    /// Degrees clockwise: 0, 90, 180 or 270.
    public var clockwiseDegrees: Int { rawValue }

    /// The same turn counted counter-clockwise, as `wl_output` transforms count it: 0, 90, 180 or 270.
    public var counterClockwiseDegrees: Int { (360 - rawValue) % 360 }

    /// The interface orientation this rotation draws.
    public var interfaceOrientation: InterfaceOrientation {
        InterfaceOrientation.allCases.first { $0.rotation == rawValue } ?? .portrait
    }

    public var description: String { "\(rawValue)°" }
}
