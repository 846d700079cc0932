import OrientationCore
import RotateRuntime
import ScreenRotation
import Testing

/// `orientctl rotate`'s main loop in process: news in, turns of a stand-in compositor out, with
/// the time passed in.
@Suite struct RotateLoopTests {
    /// A compositor that records what it is asked, and fails when told to.
    final class StandInScreen: ScreenBackend {
        let name = "stand-in"
        var outputs = ["HDMI-A-1", "eDP-1"]
        var turns: [String] = []
        var failures: [BackendFailure] = []

        func outputNames() throws(BackendFailure) -> [String] { outputs }

        func turn(_ output: String, to rotation: PanelRotation) throws(BackendFailure) {
            if !failures.isEmpty { throw failures.removeFirst() }
            turns.append("\(output) \(rotation.clockwiseDegrees)")
        }
    }

    static func loop(_ screen: StandInScreen, panel: String? = nil) -> RotateLoop {
        RotateLoop(screen: screen, panel: panel, hook: nil, rotator: ScreenRotator())
    }

    @Test func orientdsInterfaceOrientationTurnsTheBuiltInPanel() throws {
        let screen = StandInScreen()
        var loop = Self.loop(screen)
        try loop.handle(.rotator(.subscribed(.landscapeLeft, tabletMode: nil)), at: 0)
        #expect(screen.turns == ["eDP-1 \(PanelRotation(.landscapeLeft).clockwiseDegrees)"], "the built-in panel, not the monitor")
        #expect(loop.panel == "eDP-1")
        try loop.handle(.rotator(.interfaceOrientationChanged(.landscapeLeft)), at: 1)
        #expect(screen.turns.count == 1, "what the panel shows already is not turned again")
        try loop.handle(.rotator(.interfaceOrientationChanged(.portrait)), at: 2)
        #expect(screen.turns.last == "eDP-1 0")
    }

    /// A compositor that is away is tried again at the rotator's wake-up time, not before.
    @Test func aFailedTurnIsTriedAgainAtTheWakeUpTime() throws {
        let screen = StandInScreen()
        screen.failures = [BackendFailure(description: "sway is not running", compositorGone: true)]
        var loop = Self.loop(screen, panel: "eDP-1")
        try loop.handle(.rotator(.subscribed(.portraitUpsideDown, tabletMode: nil)), at: 10)
        #expect(screen.turns.isEmpty)
        let retry = try #require(loop.rotator.wakeUpTime)
        #expect(retry > 10)
        try loop.handle(nil, at: retry)
        #expect(screen.turns == ["eDP-1 180"])
        #expect(loop.rotator.wakeUpTime == nil)
    }

    @Test func withoutABuiltInPanelNothingTurns() throws {
        let screen = StandInScreen()
        screen.outputs = ["HDMI-A-1"]
        var loop = Self.loop(screen)
        try loop.handle(.rotator(.subscribed(.landscapeRight, tabletMode: nil)), at: 0)
        #expect(screen.turns.isEmpty && loop.panel == nil)
        var named = Self.loop(screen, panel: "HDMI-A-1")
        try named.handle(.rotator(.subscribed(.landscapeRight, tabletMode: nil)), at: 0)
        #expect(screen.turns == ["HDMI-A-1 \(PanelRotation(.landscapeRight).clockwiseDegrees)"], "--output names it")
    }

    /// orientd refusing the subscription cannot mend itself: the loop ends with its words.
    @Test func aRefusalFromOrientdEndsTheLoop() {
        var loop = Self.loop(StandInScreen())
        #expect(throws: ClientFailure.self) { try loop.handle(.fatal("orientd refused the subscription: bad"), at: 0) }
    }

    /// Losing orientd leaves the screen as it is; a new subscription turns it only if it must.
    @Test func orientdGoneLeavesTheScreenAsItIs() throws {
        let screen = StandInScreen()
        var loop = Self.loop(screen)
        try loop.handle(.rotator(.subscribed(.landscapeLeft, tabletMode: nil)), at: 0)
        try loop.handle(.rotator(.orientdGone(reason: "orientd closed the connection")), at: 1)
        try loop.handle(.rotator(.subscribed(.landscapeLeft, tabletMode: nil)), at: 2)
        #expect(screen.turns.count == 1)
    }
}
