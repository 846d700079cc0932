import EmulatedSensor
import Foundation
import OrientationCore
import ProcessHarness
import ScreenRotation
import Testing

extension IntegrationTests {
    /// `orientctl rotate` with the command backends, end to end: the real daemon on the emulated
    /// accelerometer, orientctl following its interfaceOrientationDidChange, and stub tools on
    /// PATH recording every command. The device turns through the four in-plane orientations and
    /// each turn issues exactly the command lines the tools' documentation gives (the reasons are
    /// in ScreenRotation's HyprlandCommands, NiriCommands, WlrRandrCommands and X11Commands).
    @Suite struct RotateCommandBackendTests {
        /// The turns, after the start in portrait: the device turned left shows its picture turned
        /// a quarter clockwise, and so on round.
        static let turns: [(device: Orientation, rotation: PanelRotation)] = [
            (.landscapeLeft, .clockwise90), (.portraitUpsideDown, .upsideDown), (.landscapeRight, .clockwise270), (.portrait, .upright),
        ]

        /// What each backend runs for each rotation of eDP-1, written from the tools' documentation.
        static let expected: [String: [PanelRotation: [String]]] = [
            // Hyprland wiki "Monitors": transform 0-3 = 0°, 90°, 180°, 270° counter-clockwise.
            "hyprland": [
                .upright: ["hyprctl keyword monitor eDP-1,transform,0", "hyprctl keyword input:touchdevice:transform 0",
                           "hyprctl keyword input:tablet:transform 0"],
                .clockwise90: ["hyprctl keyword monitor eDP-1,transform,3", "hyprctl keyword input:touchdevice:transform 3",
                               "hyprctl keyword input:tablet:transform 3"],
                .upsideDown: ["hyprctl keyword monitor eDP-1,transform,2", "hyprctl keyword input:touchdevice:transform 2",
                              "hyprctl keyword input:tablet:transform 2"],
                .clockwise270: ["hyprctl keyword monitor eDP-1,transform,1", "hyprctl keyword input:touchdevice:transform 1",
                                "hyprctl keyword input:tablet:transform 1"],
            ],
            // niri wiki "Configuration: Outputs": transform rotates counter-clockwise.
            "niri": [
                .upright: ["niri msg output eDP-1 transform normal"],
                .clockwise90: ["niri msg output eDP-1 transform 270"],
                .upsideDown: ["niri msg output eDP-1 transform 180"],
                .clockwise270: ["niri msg output eDP-1 transform 90"],
            ],
            // wlr-randr(1): wl_output transforms, counter-clockwise.
            "wlr-randr": [
                .upright: ["wlr-randr --output eDP-1 --transform normal"],
                .clockwise90: ["wlr-randr --output eDP-1 --transform 270"],
                .upsideDown: ["wlr-randr --output eDP-1 --transform 180"],
                .clockwise270: ["wlr-randr --output eDP-1 --transform 90"],
            ],
            // xrandr(1): right turns the picture clockwise; the touch matrices of libinput/xinput.
            "x11": [
                .upright: ["xrandr --output eDP-1 --rotate normal",
                           "xinput set-prop 'ELAN Touchscreen' 'Coordinate Transformation Matrix' 1 0 0 0 1 0 0 0 1",
                           "xinput set-prop 'Wacom HID 5218 Pen stylus' 'Coordinate Transformation Matrix' 1 0 0 0 1 0 0 0 1"],
                .clockwise90: ["xrandr --output eDP-1 --rotate right",
                               "xinput set-prop 'ELAN Touchscreen' 'Coordinate Transformation Matrix' 0 1 0 -1 0 1 0 0 1",
                               "xinput set-prop 'Wacom HID 5218 Pen stylus' 'Coordinate Transformation Matrix' 0 1 0 -1 0 1 0 0 1"],
                .upsideDown: ["xrandr --output eDP-1 --rotate inverted",
                              "xinput set-prop 'ELAN Touchscreen' 'Coordinate Transformation Matrix' -1 0 1 0 -1 1 0 0 1",
                              "xinput set-prop 'Wacom HID 5218 Pen stylus' 'Coordinate Transformation Matrix' -1 0 1 0 -1 1 0 0 1"],
                .clockwise270: ["xrandr --output eDP-1 --rotate left",
                                "xinput set-prop 'ELAN Touchscreen' 'Coordinate Transformation Matrix' 0 -1 1 1 0 0 0 0 1",
                                "xinput set-prop 'Wacom HID 5218 Pen stylus' 'Coordinate Transformation Matrix' 0 -1 1 1 0 0 0 0 1"],
            ],
        ]

        /// A graphical session as each compositor sets it up, so nothing of the test runner's own
        /// session leaks in (an empty variable counts as unset).
        static func session(_ backend: String) -> [String: String] {
            var environment = ["SWAYSOCK": "", "HYPRLAND_INSTANCE_SIGNATURE": "", "NIRI_SOCKET": "", "WAYLAND_DISPLAY": "", "DISPLAY": ""]
            switch backend {
            case "hyprland": environment.merge(["HYPRLAND_INSTANCE_SIGNATURE": "stub_1700000000_1", "WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":1"]) { $1 }
            case "niri": environment.merge(["NIRI_SOCKET": "/run/user/1000/niri.stub.sock", "WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":1"]) { $1 }
            case "wlr-randr": environment.merge(["WAYLAND_DISPLAY": "wayland-1", "DISPLAY": ":1"]) { $1 }
            default: environment["DISPLAY"] = ":1"
            }
            return environment
        }

        /// Starts `orientctl rotate` on a fresh daemon and stubs, turns the device round, and
        /// checks every turn's command lines. `arguments` come after `rotate`.
        private func turnRound(_ arguments: [String], backend: String, output: String = "eDP-1",
                               turns: [(device: Orientation, rotation: PanelRotation)] = Self.turns, thenRest: Bool = true) throws {
            let stubs = try StubTools()
            defer { stubs.remove() }
            let sensor = try EmulatedAccelerometer.standard(.portrait)
            let daemon = try Daemon(sensor: sensor)
            let logPath = stubs.directory + "/rotate.log"
            let rotate = try ChildProcess(Products.path("orientctl"), ["rotate", "--socket", daemon.socketPath] + arguments,
                                          environment: Self.session(backend).merging(stubs.environment) { $1 },
                                          standardError: logPath)
            defer { rotate.stop() }
            func diagnosis() -> String {
                let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                return "calls: \(stubs.calls)\norientctl rotate's errors:\n\(log)\ndaemon log:\n\(daemon.log)"
            }
            func lines(_ rotation: PanelRotation) -> [String] {
                (Self.expected[backend]?[rotation] ?? []).map { $0.replacing("eDP-1", with: output) }
            }

            // It turns the screen to the orientation the device is in when it starts.
            var expected = lines(.upright)
            try #require(waitUntil(timeout: 10) { stubs.turns.count >= expected.count || !rotate.isRunning } && rotate.isRunning,
                         "no turn to portrait at start; \(diagnosis())")
            for (device, rotation) in turns {
                sensor.turn(to: device)
                expected += lines(rotation)
                try #require(waitUntil(timeout: 10) { stubs.turns.count >= expected.count || !rotate.isRunning },
                             "no turn for \(device) within 10 s; \(diagnosis())")
                #expect(stubs.turns == expected, "after turning \(device); \(diagnosis())")
            }
            // Nothing more once the device rests (an absence: nothing to wait for but a while).
            if thenRest { Thread.sleep(forTimeInterval: 0.5) }
            #expect(stubs.turns == expected, "\(diagnosis())")
            #expect(rotate.isRunning, "\(diagnosis())")
        }

        /// NEEDS `orientctl rotate` (Sources/OrientctlCommand/Rotate.swift).
        @Test(arguments: ["hyprland", "niri", "wlr-randr", "x11"])
        func everyOrientationTurnsTheBuiltInPanel(backend: String) throws {
            // That nothing more comes once the device rests is a property of orientctl, not of
            // the backend: one backend shows it.
            try turnRound(["--backend", backend], backend: backend, thenRest: backend == "hyprland")
        }

        /// NEEDS `orientctl rotate`. `--output` turns the output named, and the backend comes
        /// from the environment when `--backend` is not given.
        @Test(arguments: ["hyprland", "niri", "wlr-randr", "x11"])
        func outputNamedAndBackendFromTheSession(backend: String) throws {
            let other = ["hyprland": "DP-2", "niri": "DP-3", "wlr-randr": "HDMI-A-1", "x11": "DP-1"][backend]!
            try turnRound(["--output", other], backend: backend, output: other, turns: [(.landscapeLeft, .clockwise90)], thenRest: false)
        }

        /// What cannot fix itself ends rotate at once, saying what to do: the compositor's tool
        /// missing (with the Debian package to install), or no built-in panel among the outputs
        /// (with the outputs it sees). Before, it waited for ever, retrying.
        @Test func aMissingToolOrNoBuiltInPanelEndsRotateAtOnce() throws {
            let empty = makeScratchDirectory()
            let missing = try run("orientctl", ["rotate", "--backend", "x11", "--socket", empty + "/none.sock"],
                                  environment: Self.session("x11").merging(["PATH": empty]) { $1 })
            #expect(missing.status == 1, "\(missing.standardError)")
            #expect(missing.standardError.contains("xrandr was not found on PATH"), "\(missing.standardError)")
            #expect(missing.standardError.contains("x11-xserver-utils"), "\(missing.standardError)")

            let bin = makeScratchDirectory()
            try """
                #!/bin/sh
                echo 'Screen 0: minimum 8 x 8, current 1920 x 1080, maximum 32767 x 32767'
                echo 'HDMI-1 connected primary 1920x1080+0+0 (normal left inverted right x axis y axis) 527mm x 296mm'
                echo '   1920x1080     60.00*+'
                """.write(toFile: bin + "/xrandr", atomically: true, encoding: .utf8)
            chmod(bin + "/xrandr", 0o755)
            let noPanel = try run("orientctl", ["rotate", "--backend", "x11", "--socket", empty + "/none.sock"],
                                  environment: Self.session("x11").merging(["PATH": bin + ":/usr/bin:/bin"]) { $1 })
            #expect(noPanel.status == 1, "\(noPanel.standardError)")
            #expect(noPanel.standardError.contains("has no built-in panel"), "\(noPanel.standardError)")
            #expect(noPanel.standardError.contains("HDMI-1"), "\(noPanel.standardError)")
            #expect(noPanel.standardError.contains("--output"), "\(noPanel.standardError)")
        }
    }
}
