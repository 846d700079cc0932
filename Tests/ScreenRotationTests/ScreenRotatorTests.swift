import OrientationCore
import ScreenRotation
import Testing

@Suite struct ScreenRotatorTests {
    /// The turns among `actions`.
    private func turns(_ actions: [ScreenRotator.Action]) -> [PanelRotation] {
        actions.compactMap { if case .turn(let rotation) = $0 { rotation } else { nil } }
    }

    private func logs(_ actions: [ScreenRotator.Action]) -> [String] {
        actions.compactMap { if case .log(let line) = $0 { line } else { nil } }
    }

    @Test func turnsToWhatOrientdSaysAndRunsTheHookAfterEachTurn() {
        var rotator = ScreenRotator()
        #expect(turns(rotator.handle(.subscribed(.portrait, tabletMode: nil), at: 0)) == [.upright])
        #expect(rotator.handle(.turned(.upright), at: 0) == [.runHook(.upright)])
        #expect(turns(rotator.handle(.interfaceOrientationChanged(.landscapeRight), at: 1)) == [.clockwise90])
        #expect(rotator.handle(.turned(.clockwise90), at: 1) == [.runHook(.clockwise90)])
        #expect(turns(rotator.handle(.interfaceOrientationChanged(.landscapeLeft), at: 2)) == [.clockwise270])
    }

    @Test func doesNothingBeforeOrientdSpeaks() {
        var rotator = ScreenRotator()
        #expect(rotator.handle(.compositorBack, at: 0).isEmpty)
        #expect(rotator.handle(.tick, at: 5).isEmpty)
        #expect(rotator.wanted == nil)
    }

    @Test func leavesAPanelThatAlreadyShowsTheRotationAlone() {
        var rotator = ScreenRotator()
        _ = rotator.handle(.subscribed(.landscapeRight, tabletMode: nil), at: 0)
        _ = rotator.handle(.turned(.clockwise90), at: 0)
        // The compositor reports its outputs after the turn (sway sends an output event): no loop.
        #expect(rotator.handle(.compositorShows(.clockwise90), at: 0.1).isEmpty)
        // Someone turned it by hand: it is turned back to what the device says.
        #expect(turns(rotator.handle(.compositorShows(.upright), at: 3)) == [.clockwise90])
    }

    @Test func tabletModeOnlyKeepsALaptopUpright() {
        var rotator = ScreenRotator(settings: .init(tabletModeOnly: true))
        #expect(turns(rotator.handle(.subscribed(.landscapeRight, tabletMode: false), at: 0)) == [.upright])
        _ = rotator.handle(.turned(.upright), at: 0)
        #expect(rotator.handle(.interfaceOrientationChanged(.portraitUpsideDown), at: 1).isEmpty)
        #expect(turns(rotator.handle(.tabletModeChanged(true), at: 2)) == [.upsideDown])
        _ = rotator.handle(.turned(.upsideDown), at: 2)
        #expect(turns(rotator.handle(.tabletModeChanged(false), at: 3)) == [.upright])
    }

    @Test func tabletModeOnlyWithoutAHingeReadingStaysUpright() {
        var rotator = ScreenRotator(settings: .init(tabletModeOnly: true))
        #expect(turns(rotator.handle(.subscribed(.landscapeLeft, tabletMode: nil), at: 0)) == [.upright])
    }

    @Test func retriesAFailedTurnWithAGrowingDelayAndSaysSoOnce() {
        var rotator = ScreenRotator(settings: .init(firstRetryDelay: 0.5, longestRetryDelay: 2))
        _ = rotator.handle(.subscribed(.portraitUpsideDown, tabletMode: nil), at: 0)
        let first = rotator.handle(.turnFailed(reason: "sway is not running", compositorGone: true), at: 0)
        #expect(logs(first).count == 1)
        #expect(logs(first)[0].contains("sway is not running"))
        #expect(rotator.wakeUpTime == 0.5)
        // Nothing happens before the retry is due, not even on news from orientd.
        #expect(rotator.handle(.tick, at: 0.4).isEmpty)
        #expect(rotator.handle(.interfaceOrientationChanged(.portrait), at: 0.45).isEmpty)
        #expect(turns(rotator.handle(.tick, at: 0.5)) == [.upright])
        #expect(rotator.handle(.turnFailed(reason: "sway is not running", compositorGone: true), at: 0.5).isEmpty)
        #expect(rotator.wakeUpTime == 1.5)
        _ = rotator.handle(.tick, at: 1.5)
        _ = rotator.handle(.turnFailed(reason: "sway is not running", compositorGone: true), at: 1.5)
        #expect(rotator.wakeUpTime == 3.5)
        _ = rotator.handle(.tick, at: 3.5)
        _ = rotator.handle(.turnFailed(reason: "sway is not running", compositorGone: true), at: 3.5)
        #expect(rotator.wakeUpTime == 5.5, "the delay stops growing at the longest")
        let back = rotator.handle(.compositorBack, at: 4)
        #expect(turns(back) == [.upright], "a compositor that is back is turned at once")
        let turned = rotator.handle(.turned(.upright), at: 4)
        #expect(logs(turned).count == 1)
        #expect(turned.last == .runHook(.upright))
        #expect(rotator.wakeUpTime == nil)
    }

    @Test func aCompositorThatRestartsIsTurnedAgainWhenItIsBack() {
        var rotator = ScreenRotator()
        _ = rotator.handle(.subscribed(.landscapeLeft, tabletMode: nil), at: 0)
        _ = rotator.handle(.turned(.clockwise270), at: 0)
        let gone = rotator.handle(.compositorGone(reason: "sway closed its socket"), at: 1)
        #expect(turns(gone).isEmpty)
        #expect(logs(gone).count == 1)
        #expect(turns(rotator.handle(.compositorBack, at: 2)) == [.clockwise270])
    }

    @Test func aCompositorThatWasNeverLostIsNotTurnedTwice() {
        var rotator = ScreenRotator()
        _ = rotator.handle(.subscribed(.landscapeLeft, tabletMode: nil), at: 0)
        _ = rotator.handle(.turned(.clockwise270), at: 0)
        #expect(rotator.handle(.compositorBack, at: 0.1).isEmpty, "the watcher connecting late changes nothing")
    }

    /// A turn that timed out but took effect: the compositor then shows what is wanted, and no
    /// retry stays pending (a pending retry in the past would wake the loop at once, forever).
    @Test func aFailedTurnThatTookEffectLeavesNothingToRetry() {
        var rotator = ScreenRotator()
        _ = rotator.handle(.subscribed(.landscapeRight, tabletMode: nil), at: 0)
        _ = rotator.handle(.turnFailed(reason: "sway did not answer", compositorGone: false), at: 5)
        #expect(rotator.wakeUpTime != nil)
        let shows = rotator.handle(.compositorShows(.clockwise90), at: 5.1)
        #expect(turns(shows).isEmpty)
        #expect(logs(shows).count == 1)
        #expect(rotator.wakeUpTime == nil)
        #expect(rotator.handle(.tick, at: 10).isEmpty)
    }

    /// sway's `reload` puts its config's transform back, and drops the touch mapping, even when
    /// the transform happens to be the wanted one.
    @Test func aReloadedCompositorIsTurnedAgain() {
        var rotator = ScreenRotator()
        _ = rotator.handle(.subscribed(.portrait, tabletMode: nil), at: 0)
        _ = rotator.handle(.turned(.upright), at: 0)
        #expect(turns(rotator.handle(.compositorReset, at: 1)) == [.upright])
    }

    @Test func orientdGoingAwayLeavesTheScreenAsItIs() {
        var rotator = ScreenRotator()
        _ = rotator.handle(.subscribed(.landscapeRight, tabletMode: nil), at: 0)
        _ = rotator.handle(.turned(.clockwise90), at: 0)
        let gone = rotator.handle(.orientdGone(reason: "connection closed"), at: 1)
        #expect(turns(gone).isEmpty)
        #expect(logs(gone).count == 1)
        // Back, with the same orientation: nothing to turn.
        #expect(turns(rotator.handle(.subscribed(.landscapeRight, tabletMode: nil), at: 2)).isEmpty)
    }
}
