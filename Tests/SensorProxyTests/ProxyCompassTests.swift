import OrientdHub
import SensorProxy
import Testing

/// The compass's claims and properties, without a bus.
@Suite struct ProxyCompassTests {
    static func present(heading: Double? = nil) -> SensorProxyState.Event {
        .hub { $0.compassAvailable = true; $0.compassHeading = heading }
    }

    @Test func theHeadingIsMinusOneUntilRead() {
        #expect(ProxyCompass().heading == -1)
        #expect(!ProxyCompass().present)
        #expect(SensorProxyState().compass == ProxyCompass())
        #expect(SensorProxyState().value(of: .compassHeading) == .number(-1))
    }

    /// A claim holds the compass, waits for its first heading, then the compass is let go.
    @Test func aClaimHoldsTheCompassAndIsAnsweredAfterItsFirstHeading() {
        var state = SensorProxyState()
        #expect(state.handle((Self.present())) == [], "nobody claims it: nobody is told")
        #expect(state.handle(.claim(1, .compass, at: 1)) == [.holdSensor(.compass), .awaitFresh(.compass)], "present: the claim waits for a heading")
        #expect(state.nextDeadline == 1 + ProxyLimits().settleAfter)
        #expect(state.handle((Self.present(heading: 123.5))) == [.emit(ProxySignal([.compassHeading], to: [":1.1"]))])
        #expect(state.handle(.fresh(.compass)) == [.reply(1)])
        #expect(state.value(of: .compassHeading) == .number(123.5))
        #expect(state.handle((Self.present(heading: 123.5))) == [], "an unchanged heading is not published again")
        #expect(state.handle(.release(2, .compass)) == [.releaseSensor(.compass), .reply(2)])
    }

    /// iio-sensor-proxy takes a claim whether there is a compass or not.
    @Test func withoutACompassAClaimIsAnsweredAtOnce() {
        var state = SensorProxyState()
        #expect(state.handle(.claim(1, .compass)) == [.holdSensor(.compass), .reply(1)])
    }

    @Test func aCompassThatGoesAwayAnswersTheClaimsWaitingForIt() {
        var state = SensorProxyState()
        _ = state.handle((Self.present()))
        _ = state.handle(.claim(1, .compass))
        #expect(state.handle(.hub()) == [.emit(ProxySignal([.hasCompass], to: [":1.1"])), .reply(1)])
    }

    /// geoclue claims the compass as a system user: polkit is not asked.
    @Test func theCompassIsClaimedWithoutPolkit() {
        var state = SensorProxyState(checksPolkit: true)
        #expect(state.handle(.claim(1, .compass)) == [.holdSensor(.compass), .reply(1)])
    }
}
