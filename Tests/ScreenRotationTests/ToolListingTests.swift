import ScreenRotation
import Testing

/// The output and device listings of each tool are read into names.
@Suite struct ToolListingTests {
    @Test func hyprctlMonitors() {
        let plan = HyprlandCommands()
        #expect(plan.outputNames(inListing: ToolListings.hyprctlMonitors) == ["eDP-1", "DP-2"])
        #expect(plan.rotation(of: "eDP-1", inListing: ToolListings.hyprctlMonitors) == .upright)
        // DP-2's transform 1 is 90° counter-clockwise: the picture turned left.
        #expect(plan.rotation(of: "DP-2", inListing: ToolListings.hyprctlMonitors) == .clockwise270)
        #expect(plan.rotation(of: "HDMI-A-1", inListing: ToolListings.hyprctlMonitors) == nil)
        #expect(plan.outputNames(inListing: "") == [])
    }

    /// When `monitor NAME,transform,N` did not take, the full rule keeps the monitor's mode,
    /// position and scale as hyprctl printed them.
    @Test func hyprlandFallsBackToAFullRule() {
        let plan = HyprlandCommands()
        #expect(plan.fallbackTurn("eDP-1", to: .clockwise90, listing: ToolListings.hyprctlMonitors).map(\.description) ==
            ["hyprctl keyword monitor eDP-1,2880x1800@90.00100,0x0,1.50,transform,3"])
        #expect(plan.fallbackTurn("DP-2", to: .upright, listing: ToolListings.hyprctlMonitors).map(\.description) ==
            ["hyprctl keyword monitor DP-2,2560x1440@143.91200,-2560x0,1.00,transform,0"])
        #expect(plan.fallbackTurn("HDMI-A-1", to: .upright, listing: ToolListings.hyprctlMonitors).isEmpty)
    }

    @Test func niriOutputs() {
        #expect(NiriCommands().outputNames(inListing: ToolListings.niriOutputs) == ["eDP-1", "DP-3"])
    }

    @Test func wlrRandrOutputs() {
        #expect(WlrRandrCommands().outputNames(inListing: ToolListings.wlrRandr) == ["eDP-1", "HDMI-A-1"])
    }

    @Test func xrandrConnectedOutputsOnly() {
        #expect(X11Commands().outputNames(inListing: ToolListings.xrandrQuery) == ["eDP-1", "DP-1"])
    }

    /// Touchscreens and pens by their names; not touchpads, mice, keyboards or virtual devices.
    @Test func xinputTouchAndPenDevices() {
        #expect(X11Commands().touchInputs(inListing: ToolListings.xinputNames) == [
            "Wacom HID 5218 Pen stylus", "Wacom HID 5218 Finger touch", "Wacom HID 5218 Pen eraser", "ELAN Touchscreen",
        ])
        #expect(X11Commands().touchInputs(inListing: "Raydium Corporation Raydium Touch System\nLogitech Touch Mouse M600\n") ==
            ["Raydium Corporation Raydium Touch System"])
    }
}
