/// The ways `orientctl rotate` can turn the screen: one per compositor family. The raw values
/// are the names `--backend` takes.
public enum CompositorBackendKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// sway's IPC socket (`$SWAYSOCK`).
    case sway
    /// `hyprctl`.
    case hyprland
    /// `niri msg`.
    case niri
    /// `wlr-randr`, for any other compositor with wlr-output-management (river, labwc, Wayfire…).
    case wlrRandr = "wlr-randr"
    /// `xrandr` and `xinput`.
    case x11

    /// The backend the session's environment points to, most specific first: a compositor's own
    /// socket before the generic Wayland one, Wayland before X11 (under XWayland both are set).
    /// Empty variables count as unset. nil when none is set: not inside a graphical session.
    public init?(environment: [String: String]) {
        let detected: [(variable: String, kind: CompositorBackendKind)] = [
            ("SWAYSOCK", .sway),
            ("HYPRLAND_INSTANCE_SIGNATURE", .hyprland),
            ("NIRI_SOCKET", .niri),
            ("WAYLAND_DISPLAY", .wlrRandr),
            ("DISPLAY", .x11),
        ]
        guard let found = detected.first(where: { !(environment[$0.variable] ?? "").isEmpty }) else { return nil }
        self = found.kind
    }

    public var description: String { rawValue }
}
