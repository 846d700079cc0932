import ScreenRotation
import Testing

@Suite struct BackendChoiceTests {
    /// The most specific variable wins: under Hyprland WAYLAND_DISPLAY and DISPLAY (XWayland)
    /// are set too.
    @Test func backendFromTheEnvironment() {
        let session = ["SWAYSOCK": "/run/user/1000/sway-ipc.1000.1234.sock", "HYPRLAND_INSTANCE_SIGNATURE": "abc_1700000000_1",
                       "NIRI_SOCKET": "/run/user/1000/niri.wayland-1.1234.sock", "WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":0"]
        #expect(CompositorBackendKind(environment: session) == .sway)
        #expect(CompositorBackendKind(environment: session.filter { $0.key != "SWAYSOCK" }) == .hyprland)
        #expect(CompositorBackendKind(environment: ["NIRI_SOCKET": "/run/niri.sock", "WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":0"]) == .niri)
        #expect(CompositorBackendKind(environment: ["WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":0"]) == .wlrRandr)
        #expect(CompositorBackendKind(environment: ["DISPLAY": ":0", "HOME": "/home/me"]) == .x11)
        #expect(CompositorBackendKind(environment: ["HOME": "/home/me"]) == nil)
        // An empty variable is an unset one (a login shell that exported SWAYSOCK= once).
        #expect(CompositorBackendKind(environment: ["SWAYSOCK": "", "DISPLAY": ":0"]) == .x11)
    }

    @Test func backendNamesAreWhatBackendTakes() {
        #expect(CompositorBackendKind.allCases.map(\.rawValue) == ["sway", "hyprland", "niri", "wlr-randr", "x11"])
        #expect(CompositorBackendKind(rawValue: "wlr-randr") == .wlrRandr)
    }

    @Test func builtInPanelPrefersEmbeddedDisplayPort() {
        #expect(BuiltInPanel.choose(from: ["HDMI-A-1", "DSI-1", "LVDS-1", "eDP-1"]) == "eDP-1")
        #expect(BuiltInPanel.choose(from: ["DP-1", "LVDS1", "DSI-1"]) == "LVDS1")
        #expect(BuiltInPanel.choose(from: ["DSI-1", "HDMI-A-1"]) == "DSI-1")
        // X11 drivers write eDP1 (intel) or eDP (amdgpu); the first eDP wins.
        #expect(BuiltInPanel.choose(from: ["DP-1", "eDP1"]) == "eDP1")
        #expect(BuiltInPanel.choose(from: ["eDP", "eDP-2"]) == "eDP")
        #expect(BuiltInPanel.choose(from: ["DP-1", "HDMI-A-1", "eDPX", "LVDS-"]) == nil)
        #expect(BuiltInPanel.choose(from: []) == nil)
    }
}
