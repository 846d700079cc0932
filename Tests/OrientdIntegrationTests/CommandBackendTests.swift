import Foundation
import ProcessHarness
import ScreenRotation
import Testing
@testable import RotateRuntime

extension IntegrationTests {
    /// orientctl's command backends run in process against stub tools on PATH: the commands
    /// reach the tools as separate arguments, and the tools' failures come back in words.
    @Suite struct CommandBackendTests {
        private func backend(_ name: String, _ stubs: StubTools, behavior: String? = nil, touchDevices: [String] = [],
                             timeout: Double = 5) throws -> CommandBackend {
            var environment = ProcessInfo.processInfo.environment.merging(stubs.environment) { $1 }
            environment["STUB_BEHAVIOR"] = behavior
            let plan = try #require(CompositorBackendKind(rawValue: name)?.commandPlan(touchDevices: touchDevices))
            return CommandBackend(plan: plan, environment: environment, timeout: timeout)
        }

        private func failure(_ body: () throws(BackendFailure) -> Void) -> BackendFailure? {
            do { try body() } catch { return error }
            return nil
        }

        @Test func factoryKnowsTheCommandBackends() {
            for name in ["hyprland", "niri", "wlr-randr", "x11"] {
                #expect(makeCommandBackend(named: name, environment: [:], touchDevices: [])?.name == name)
            }
            #expect(makeCommandBackend(named: "sway", environment: [:], touchDevices: []) == nil)
            #expect(makeCommandBackend(named: "weston", environment: [:], touchDevices: []) == nil)
        }

        @Test func everyBackendListsAndTurnsThroughItsTool() throws {
            let stubs = try StubTools()
            defer { stubs.remove() }

            let hyprland = try backend("hyprland", stubs)
            #expect(try hyprland.outputNames() == ["eDP-1", "DP-2", "HDMI-A-1"])
            try hyprland.turn("eDP-1", to: .clockwise90)
            let niri = try backend("niri", stubs)
            #expect(try niri.outputNames() == ["eDP-1", "DP-3"])
            try niri.turn("eDP-1", to: .clockwise90)
            let wlrRandr = try backend("wlr-randr", stubs)
            #expect(try wlrRandr.outputNames() == ["HDMI-A-1", "eDP-1"])
            try wlrRandr.turn("eDP-1", to: .clockwise90)
            let x11 = try backend("x11", stubs)
            #expect(try x11.outputNames() == ["eDP-1", "DP-1"])
            try x11.turn("eDP-1", to: .clockwise90)
            try backend("x11", stubs, touchDevices: ["ELAN2514:00 04F3:2817"]).turn("eDP-1", to: .upright)

            #expect(stubs.calls == [
                "hyprctl monitors",
                "hyprctl keyword monitor eDP-1,transform,3",
                "hyprctl keyword input:touchdevice:transform 3",
                "hyprctl keyword input:tablet:transform 3",
                "hyprctl monitors",
                "niri msg outputs",
                "niri msg output eDP-1 transform 270",
                "wlr-randr",
                "wlr-randr --output eDP-1 --transform 270",
                "xrandr --query",
                "xinput list --name-only",
                "xrandr --output eDP-1 --rotate right",
                "xinput set-prop 'ELAN Touchscreen' 'Coordinate Transformation Matrix' 0 1 0 -1 0 1 0 0 1",
                "xinput set-prop 'Wacom HID 5218 Pen stylus' 'Coordinate Transformation Matrix' 0 1 0 -1 0 1 0 0 1",
                "xrandr --output eDP-1 --rotate normal",
                "xinput set-prop 'ELAN2514:00 04F3:2817' 'Coordinate Transformation Matrix' 1 0 0 0 1 0 0 0 1",
            ])
        }

        /// A monitor without a rule of its name ignores `monitor NAME,transform,N`: the turn is
        /// then given as a full rule. (The stub's HDMI-A-1 has no rule.)
        @Test func hyprlandFallsBackToAFullRule() throws {
            let stubs = try StubTools()
            defer { stubs.remove() }
            try backend("hyprland", stubs).turn("HDMI-A-1", to: .clockwise270)
            #expect(stubs.turns == [
                "hyprctl keyword monitor HDMI-A-1,transform,1",
                "hyprctl keyword input:touchdevice:transform 1",
                "hyprctl keyword input:tablet:transform 1",
                "hyprctl keyword monitor HDMI-A-1,1920x1080@60.00000,5440x0,1.00,transform,1",
            ])
        }

        @Test func failuresSayWhatHappened() throws {
            let stubs = try StubTools()
            defer { stubs.remove() }
            let nowhere = CommandBackend(plan: NiriCommands(), environment: ["PATH": stubs.directory + "/empty"])
            #expect(failure { () throws(BackendFailure) in _ = try nowhere.outputNames() }?.description ==
                "niri was not found on PATH: niri msg comes with niri, which Debian 12 does not package: see github.com/YaLTeR/niri")

            let hyprlandGone = try backend("hyprland", stubs, behavior: "gone")
            let gone = failure { () throws(BackendFailure) in try hyprlandGone.turn("eDP-1", to: .upright) }
            #expect(gone?.compositorGone == true)
            #expect(gone?.description.contains("Couldn't connect to /run/user/1000/hypr/stub/.socket.sock") == true)
            let x11Gone = try backend("x11", stubs, behavior: "gone")
            #expect(failure { () throws(BackendFailure) in _ = try x11Gone.outputNames() }?.compositorGone == true)

            let refusing = try backend("wlr-randr", stubs, behavior: "refuse")
            let refused = failure { () throws(BackendFailure) in try refusing.turn("eDP-1", to: .upright) }
            #expect(refused?.description == "'wlr-randr --output eDP-1 --transform normal' failed: wlr-randr: refused by the test")
            #expect(refused?.compositorGone == false)
        }

        /// A tool that hangs is killed, with what it started, after its time; the backend says so.
        @Test func hungToolsAreKilled() throws {
            let stubs = try StubTools()
            defer { stubs.remove() }
            let started = monotonicNow()
            // Time enough for the stub (a shell script) to start its sleep and say so on a loaded
            // machine: killed before, it would have nothing left behind to check.
            let hanging = try backend("niri", stubs, behavior: "hang", timeout: 1.5)
            let hung = failure { () throws(BackendFailure) in _ = try hanging.outputNames() }
            #expect(monotonicNow() - started < 5)
            #expect(hung?.description == "'niri msg outputs' did not finish within 1.5 s and was killed; is niri hung?")
            #expect(hung?.compositorGone == true)
            // The sleep it started went with it.
            let sleeper = try #require(try? String(contentsOfFile: stubs.directory + "/sleeper", encoding: .utf8))
            let pid = try #require(Int32(sleeper.trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(waitUntil(timeout: 2) { kill(pid, 0) != 0 }, "the stub's sleep \(pid) is still running")
        }
    }
}
