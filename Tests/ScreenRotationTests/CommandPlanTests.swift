import ScreenRotation
import Testing

/// Every backend turns every rotation with the command line its tool's documentation gives for
/// it. PanelRotation is the clockwise turn of the picture: `.clockwise90` is the device turned
/// left (its top edge to the left; iio-sensor-proxy's right-up), `.clockwise270` turned right.
@Suite struct CommandPlanTests {
    private func lines(_ plan: any ScreenCommandPlan, _ rotation: PanelRotation, inputs: [String] = []) -> [String] {
        plan.turn("eDP-1", to: rotation, inputs: inputs).map(\.description)
    }

    /// Hyprland wiki, "Monitors" (transform 0 normal, 1 90°, 2 180°, 3 270°, counted as
    /// wl_output.transform: counter-clockwise), and "Variables" (input:touchdevice:transform and
    /// input:tablet:transform take the monitors' values).
    @Test func hyprlandCountsCounterClockwiseQuarterTurns() {
        let plan = HyprlandCommands()
        #expect(lines(plan, .upright) == [
            "hyprctl keyword monitor eDP-1,transform,0",
            "hyprctl keyword input:touchdevice:transform 0",
            "hyprctl keyword input:tablet:transform 0",
        ])
        #expect(lines(plan, .clockwise90) == [
            "hyprctl keyword monitor eDP-1,transform,3",
            "hyprctl keyword input:touchdevice:transform 3",
            "hyprctl keyword input:tablet:transform 3",
        ])
        #expect(lines(plan, .upsideDown) == [
            "hyprctl keyword monitor eDP-1,transform,2",
            "hyprctl keyword input:touchdevice:transform 2",
            "hyprctl keyword input:tablet:transform 2",
        ])
        #expect(lines(plan, .clockwise270) == [
            "hyprctl keyword monitor eDP-1,transform,1",
            "hyprctl keyword input:touchdevice:transform 1",
            "hyprctl keyword input:tablet:transform 1",
        ])
        #expect(plan.turn("eDP-1", to: .clockwise90, inputs: [])[0].arguments == ["hyprctl", "keyword", "monitor", "eDP-1,transform,3"])
    }

    /// niri wiki, "Configuration: Outputs": transform "rotates the output counter-clockwise",
    /// values normal|90|180|270|flipped…; `niri msg output --help`: `niri msg output OUTPUT transform T`.
    @Test func niriCountsCounterClockwise() {
        let plan = NiriCommands()
        #expect(lines(plan, .upright) == ["niri msg output eDP-1 transform normal"])
        #expect(lines(plan, .clockwise90) == ["niri msg output eDP-1 transform 270"])
        #expect(lines(plan, .upsideDown) == ["niri msg output eDP-1 transform 180"])
        #expect(lines(plan, .clockwise270) == ["niri msg output eDP-1 transform 90"])
    }

    /// wlr-randr(1): `--transform normal|90|180|270|flipped…`, wl_output.transform values, which
    /// wayland.xml defines as counter-clockwise. No touch mapping.
    @Test func wlrRandrCountsCounterClockwise() {
        let plan = WlrRandrCommands()
        #expect(lines(plan, .upright) == ["wlr-randr --output eDP-1 --transform normal"])
        #expect(lines(plan, .clockwise90) == ["wlr-randr --output eDP-1 --transform 270"])
        #expect(lines(plan, .upsideDown) == ["wlr-randr --output eDP-1 --transform 180"])
        #expect(lines(plan, .clockwise270) == ["wlr-randr --output eDP-1 --transform 90"])
    }

    /// xrandr(1): `--rotate normal|left|right|inverted`, "right" turning the picture clockwise;
    /// libinput's and xinput's Coordinate Transformation Matrix for each (ArchWiki,
    /// "Touchscreen": left `0 -1 1 1 0 0 0 0 1`, right `0 1 0 -1 0 1 0 0 1`, inverted
    /// `-1 0 1 0 -1 1 0 0 1`).
    @Test func x11NamesTheDirectionOfThePicture() {
        let plan = X11Commands()
        let pen = ["Wacom HID 5218 Pen stylus"]
        #expect(lines(plan, .upright, inputs: pen) == [
            "xrandr --output eDP-1 --rotate normal",
            "xinput set-prop 'Wacom HID 5218 Pen stylus' 'Coordinate Transformation Matrix' 1 0 0 0 1 0 0 0 1",
        ])
        #expect(lines(plan, .clockwise90, inputs: pen) == [
            "xrandr --output eDP-1 --rotate right",
            "xinput set-prop 'Wacom HID 5218 Pen stylus' 'Coordinate Transformation Matrix' 0 1 0 -1 0 1 0 0 1",
        ])
        #expect(lines(plan, .upsideDown, inputs: pen) == [
            "xrandr --output eDP-1 --rotate inverted",
            "xinput set-prop 'Wacom HID 5218 Pen stylus' 'Coordinate Transformation Matrix' -1 0 1 0 -1 1 0 0 1",
        ])
        #expect(lines(plan, .clockwise270, inputs: pen) == [
            "xrandr --output eDP-1 --rotate left",
            "xinput set-prop 'Wacom HID 5218 Pen stylus' 'Coordinate Transformation Matrix' 0 -1 1 1 0 0 0 0 1",
        ])
        // The device name is one argument, spaces and all: no shell in between.
        #expect(plan.turn("eDP-1", to: .clockwise90, inputs: pen)[1].arguments ==
            ["xinput", "set-prop", "Wacom HID 5218 Pen stylus", "Coordinate Transformation Matrix", "0", "1", "0", "-1", "0", "1", "0", "0", "1"])
    }

    /// The matrices do what their rotation does to the picture: a touch at the panel's top-left
    /// corner lands where that corner of the panel shows the picture, and turning the panel by
    /// two matrices is turning it by their sum.
    @Test func touchMatricesFollowThePicture() {
        func apply(_ rotation: PanelRotation, _ point: (Int, Int)) -> (Int, Int) {
            let m = X11Commands.touchMatrix(rotation).map { Int($0)! }
            return (m[0] * point.0 + m[1] * point.1 + m[2], m[3] * point.0 + m[4] * point.1 + m[5])
        }
        // Picture turned right: the panel's top-left corner shows the picture's bottom-left.
        #expect(apply(.clockwise90, (0, 0)) == (0, 1))
        #expect(apply(.clockwise270, (0, 0)) == (1, 0))
        #expect(apply(.upsideDown, (0, 0)) == (1, 1))
        #expect(apply(.upright, (1, 0)) == (1, 0))
        let corners = [(0, 0), (1, 0), (1, 1), (0, 1)]
        for corner in corners {
            #expect(apply(.clockwise90, apply(.clockwise90, corner)) == apply(.upsideDown, corner))
            #expect(apply(.clockwise90, apply(.clockwise270, corner)) == corner)
        }
    }

    /// The named X11 devices come first and are mapped even when xinput lists none of them.
    @Test func x11MapsNamedDevicesWithoutListing() {
        let plan = X11Commands(namedTouchDevices: ["ELAN2514:00 04F3:2817"])
        #expect(plan.inputListing == nil)
        #expect(lines(plan, .clockwise270) == [
            "xrandr --output eDP-1 --rotate left",
            "xinput set-prop 'ELAN2514:00 04F3:2817' 'Coordinate Transformation Matrix' 0 -1 1 1 0 0 0 0 1",
        ])
        #expect(X11Commands().inputListing?.description == "xinput list --name-only")
    }

    @Test func everyBackendButSwayHasAPlan() {
        #expect(CompositorBackendKind.sway.commandPlan() == nil)
        #expect(CompositorBackendKind.hyprland.commandPlan()?.outputListing.description == "hyprctl monitors")
        #expect(CompositorBackendKind.niri.commandPlan()?.outputListing.description == "niri msg outputs")
        #expect(CompositorBackendKind.wlrRandr.commandPlan()?.outputListing.description == "wlr-randr")
        #expect(CompositorBackendKind.x11.commandPlan()?.outputListing.description == "xrandr --query")
        for kind in CompositorBackendKind.allCases {
            #expect(kind.commandPlan().map { $0.kind == kind } ?? true)
        }
    }
}
