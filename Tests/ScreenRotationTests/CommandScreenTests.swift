import ScreenRotation
import Testing

/// An executor that answers from a script and records what was run.
final class ScriptedTools: ToolExecutor {
    var answer: (ToolCommand) -> ToolRun
    private(set) var ran: [String] = []
    private(set) var pauses = 0

    init(_ answer: @escaping (ToolCommand) -> ToolRun = { _ in .finished(ToolResult(status: 0)) }) {
        self.answer = answer
    }

    func run(_ command: ToolCommand) -> ToolRun {
        ran.append(command.description)
        return answer(command)
    }

    func pause(seconds: Double) { pauses += 1 }
}

/// CommandScreen runs a plan and words every way it can fail.
@Suite struct CommandScreenTests {
    private func failure<Result>(_ body: () throws(ToolFailure) -> Result) -> ToolFailure? {
        do { _ = try body() } catch { return error }
        return nil
    }

    @Test func listsOutputs() throws {
        let tools = ScriptedTools { _ in .finished(ToolResult(status: 0, standardOutput: ToolListings.wlrRandr)) }
        let screen = CommandScreen(plan: WlrRandrCommands(), executor: tools)
        #expect(try screen.outputNames() == ["eDP-1", "HDMI-A-1"])
        #expect(tools.ran == ["wlr-randr"])
    }

    @Test func turnsWithThePlansCommandsOnly() throws {
        let tools = ScriptedTools()
        try CommandScreen(plan: NiriCommands(), executor: tools).turn("eDP-1", to: .clockwise90)
        #expect(tools.ran == ["niri msg output eDP-1 transform 270"])
    }

    /// X11 finds the touchscreens and pens in `xinput list` on every turn (a pen or a detachable
    /// keyboard with a touchpad may come and go), and still turns the picture without xinput.
    @Test func x11FindsTouchDevicesEachTurn() throws {
        let tools = ScriptedTools { command in
            command.description == "xinput list --name-only"
                ? .finished(ToolResult(status: 0, standardOutput: "ELAN Touchscreen\nSynPS/2 Synaptics TouchPad\n"))
                : .finished(ToolResult(status: 0))
        }
        try CommandScreen(plan: X11Commands(), executor: tools).turn("eDP-1", to: .upsideDown)
        #expect(tools.ran == [
            "xinput list --name-only",
            "xrandr --output eDP-1 --rotate inverted",
            "xinput set-prop 'ELAN Touchscreen' 'Coordinate Transformation Matrix' -1 0 1 0 -1 1 0 0 1",
        ])

        let withoutXinput = ScriptedTools { $0.tool == "xinput" ? .notFound : .finished(ToolResult(status: 0)) }
        try CommandScreen(plan: X11Commands(), executor: withoutXinput).turn("eDP-1", to: .clockwise90)
        #expect(withoutXinput.ran == ["xinput list --name-only", "xrandr --output eDP-1 --rotate right"])

        // Devices the user named must be mapped: a missing xinput is then an error.
        let named = ScriptedTools { $0.tool == "xinput" ? .notFound : .finished(ToolResult(status: 0)) }
        let failed = failure { () throws(ToolFailure) in
            try CommandScreen(plan: X11Commands(namedTouchDevices: ["ELAN Touchscreen"]), executor: named).turn("eDP-1", to: .clockwise90)
        }
        #expect(failed == ToolFailure("xinput was not found on PATH: Debian package xinput", compositorGone: false))
    }

    /// Hyprland applies a monitor keyword later: the turn is read back until it shows.
    @Test func hyprlandReadsTheTurnBack() throws {
        var reads = 0
        let tools = ScriptedTools { command in
            guard command.description == "hyprctl monitors" else { return .finished(ToolResult(status: 0, standardOutput: "ok")) }
            reads += 1
            let transform = reads < 3 ? "transform: 0" : "transform: 3"
            return .finished(ToolResult(status: 0, standardOutput: ToolListings.hyprctlMonitors.replacing("transform: 0", with: transform, maxReplacements: 1)))
        }
        try CommandScreen(plan: HyprlandCommands(), executor: tools).turn("eDP-1", to: .clockwise90)
        #expect(tools.ran == [
            "hyprctl keyword monitor eDP-1,transform,3",
            "hyprctl keyword input:touchdevice:transform 3",
            "hyprctl keyword input:tablet:transform 3",
            "hyprctl monitors", "hyprctl monitors", "hyprctl monitors",
        ])
        #expect(tools.pauses == 2)
    }

    /// With no monitor rule named eDP-1 in the user's config, Hyprland ignores the transform-only
    /// rule: the turn is then given as a full rule from the monitor's current state.
    @Test func hyprlandWithoutANamedRuleGetsAFullOne() throws {
        let tools = ScriptedTools { command in
            command.description == "hyprctl monitors"
                ? .finished(ToolResult(status: 0, standardOutput: ToolListings.hyprctlMonitors))
                : .finished(ToolResult(status: 0, standardOutput: "ok\n"))
        }
        var screen = CommandScreen(plan: HyprlandCommands(), executor: tools)
        screen.confirmationReads = 4
        try screen.turn("eDP-1", to: .clockwise270)
        #expect(tools.ran.suffix(5) == [
            "hyprctl monitors", "hyprctl monitors", "hyprctl monitors", "hyprctl monitors",
            "hyprctl keyword monitor eDP-1,2880x1800@90.00100,0x0,1.50,transform,1",
        ])
    }

    @Test func hyprlandRefusalsAndAbsence() {
        // hyprctl exits 0 with Hyprland's error message: anything but "ok" is a refusal.
        let refusing = ScriptedTools { _ in .finished(ToolResult(status: 0, standardOutput: "invalid transform\n")) }
        #expect(failure { () throws(ToolFailure) in
            try CommandScreen(plan: HyprlandCommands(), executor: refusing).turn("eDP-1", to: .upright)
        } == ToolFailure("'hyprctl keyword monitor eDP-1,transform,0' failed: invalid transform", compositorGone: false))

        // Hyprland gone: its socket refuses; older hyprctl said so with exit status 0.
        let gone = ScriptedTools { _ in
            .finished(ToolResult(status: 3, standardOutput: "Couldn't connect to /run/user/1000/hypr/abc_1_1/.socket.sock. (3)\n"))
        }
        let goneFailure = failure { () throws(ToolFailure) in
            try CommandScreen(plan: HyprlandCommands(), executor: gone).turn("eDP-1", to: .upright)
        }
        #expect(goneFailure?.compositorGone == true)
        #expect(goneFailure?.description ==
            "hyprland cannot be reached ('hyprctl keyword monitor eDP-1,transform,0': Couldn't connect to /run/user/1000/hypr/abc_1_1/.socket.sock. (3))")
        let unset = ScriptedTools { _ in
            .finished(ToolResult(status: 0, standardOutput: "HYPRLAND_INSTANCE_SIGNATURE not set! (is hyprland running?)\n"))
        }
        #expect(failure { () throws(ToolFailure) in try CommandScreen(plan: HyprlandCommands(), executor: unset).outputNames() }?.compositorGone == true)

        // The output is not among the monitors.
        let elsewhere = ScriptedTools { command in
            command.description == "hyprctl monitors"
                ? .finished(ToolResult(status: 0, standardOutput: ToolListings.hyprctlMonitors))
                : .finished(ToolResult(status: 0, standardOutput: "ok"))
        }
        #expect(failure { () throws(ToolFailure) in
            try CommandScreen(plan: HyprlandCommands(), executor: elsewhere).turn("HDMI-A-1", to: .upright)
        } == ToolFailure("hyprland has no output HDMI-A-1 (it has: eDP-1, DP-2)", compositorGone: false))
    }

    @Test func missingToolsNameTheirPackage() {
        let none = ScriptedTools { _ in .notFound }
        let expected: [(any ScreenCommandPlan, String)] = [
            (HyprlandCommands(), "hyprctl was not found on PATH: hyprctl comes with Hyprland, which Debian 12 does not package: see hyprland.org"),
            (NiriCommands(), "niri was not found on PATH: niri msg comes with niri, which Debian 12 does not package: see github.com/YaLTeR/niri"),
            (WlrRandrCommands(), "wlr-randr was not found on PATH: Debian package wlr-randr"),
            (X11Commands(), "xrandr was not found on PATH: Debian package x11-xserver-utils"),
        ]
        for (plan, words) in expected {
            #expect(failure { () throws(ToolFailure) in try CommandScreen(plan: plan, executor: none).outputNames() } ==
                ToolFailure(words, compositorGone: false))
        }
    }

    @Test func failuresCarryTheToolsWords() {
        let refused = ScriptedTools { _ in .finished(ToolResult(status: 1, standardError: "  unknown output eDP-9\n")) }
        #expect(failure { () throws(ToolFailure) in
            try CommandScreen(plan: WlrRandrCommands(), executor: refused).turn("eDP-9", to: .upright)
        } == ToolFailure("'wlr-randr --output eDP-9 --transform normal' failed: unknown output eDP-9", compositorGone: false))

        let noDisplay = ScriptedTools { _ in .finished(ToolResult(status: 1, standardError: "failed to connect to display\n")) }
        #expect(failure { () throws(ToolFailure) in try CommandScreen(plan: WlrRandrCommands(), executor: noDisplay).outputNames() }?
            .compositorGone == true)

        let noX = ScriptedTools { _ in .finished(ToolResult(status: 1, standardError: "Can't open display :0\n")) }
        #expect(failure { () throws(ToolFailure) in try CommandScreen(plan: X11Commands(), executor: noX).outputNames() } ==
            ToolFailure("x11 cannot be reached ('xrandr --query': Can't open display :0)", compositorGone: true))

        // xrandr ignores an output it does not have, with exit status 0.
        let noOutput = ScriptedTools { command in
            command.tool == "xrandr"
                ? .finished(ToolResult(status: 0, standardError: "warning: output eDP-9 not found; ignoring\n"))
                : .finished(ToolResult(status: 0))
        }
        #expect(failure { () throws(ToolFailure) in
            try CommandScreen(plan: X11Commands(), executor: noOutput).turn("eDP-9", to: .upright)
        } == ToolFailure("'xrandr --output eDP-9 --rotate normal' failed: warning: output eDP-9 not found; ignoring", compositorGone: false))

        // A warning on standard error does not hide hyprctl's words on standard output.
        let warned = ScriptedTools { _ in
            .finished(ToolResult(status: 3, standardOutput: "Couldn't connect to /run/user/1000/hypr/x/.socket.sock. (3)\n",
                                 standardError: "warning: locale not supported\n"))
        }
        #expect(failure { () throws(ToolFailure) in try CommandScreen(plan: HyprlandCommands(), executor: warned).outputNames() }?
            .compositorGone == true)

        // niri keeps a change to an output it does not have, and says so with exit status 0.
        let absent = ScriptedTools { _ in
            .finished(ToolResult(status: 0, standardOutput: "Output \"eDP-9\" is not connected.\nThe change will apply when it is connected.\n"))
        }
        #expect(failure { () throws(ToolFailure) in
            try CommandScreen(plan: NiriCommands(), executor: absent).turn("eDP-9", to: .upright)
        }?.description == "'niri msg output eDP-9 transform normal' failed: Output \"eDP-9\" is not connected.\nThe change will apply when it is connected.")
        let noNiri = ScriptedTools { _ in
            .finished(ToolResult(status: 1, standardError: "Error: error connecting to the niri socket\n\nCaused by:\n    NIRI_SOCKET is not set\n"))
        }
        #expect(failure { () throws(ToolFailure) in try CommandScreen(plan: NiriCommands(), executor: noNiri).outputNames() }?
            .compositorGone == true)
    }

    /// A tool that hangs was killed by the executor: worth trying again later.
    @Test func hungToolsAreReportedAsGone() {
        let hung = ScriptedTools { _ in .timedOut(seconds: 5) }
        #expect(failure { () throws(ToolFailure) in try CommandScreen(plan: NiriCommands(), executor: hung).outputNames() } ==
            ToolFailure("'niri msg outputs' did not finish within 5 s and was killed; is niri hung?", compositorGone: true))
    }
}
