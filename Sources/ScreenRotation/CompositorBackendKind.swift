/// The compositors and display servers `orientctl rotate` can turn.
public enum CompositorBackendKind: String, CaseIterable, Sendable {
    case sway
    case hyprland
    case niri
    case wlrRandr = "wlr-randr"
    case x11

    /// The backend the session's environment points to, most specific first: nil when it names none.
    public static func detect(environment: [String: String]) -> CompositorBackendKind? {
        let set = { (name: String) in !(environment[name] ?? "").isEmpty }
        if set("SWAYSOCK") { return .sway }
        if set("HYPRLAND_INSTANCE_SIGNATURE") { return .hyprland }
        if set("NIRI_SOCKET") { return .niri }
        if set("WAYLAND_DISPLAY") { return .wlrRandr }
        if set("DISPLAY") { return .x11 }
        return nil
    }
}

/// The built-in panel among a compositor's outputs: eDP first, then LVDS, then DSI (phones); nil
/// when none is there (an external monitor alone: the user names the output).
public func builtInPanel(among outputs: [String]) -> String? {
    for prefix in ["eDP", "LVDS", "DSI"] {
        if let panel = outputs.first(where: { $0.hasPrefix(prefix + "-") || $0 == prefix }) { return panel }
    }
    return nil
}
