import SensorProxy
import Testing

/// The compass's claims and properties, without a bus.
@Suite struct ProxyCompassTests {
    static func present(heading: Double = -1) -> ProxyCompass {
        var compass = ProxyCompass()
        compass.present = true
        compass.heading = heading
        return compass
    }

    @Test func theHeadingIsMinusOneUntilRead() {
        #expect(ProxyCompass().heading == -1)
        #expect(!ProxyCompass().present)
        #expect(SensorProxyState().compass == ProxyCompass())
    }

    /// A claim holds the compass, waits for its first heading, then the compass is let go.
    @Test func aClaimHoldsTheCompassAndIsAnsweredAfterItsFirstHeading() {
        var state = SensorProxyState()
        #expect(state.handle(.compass(Self.present())) == [.publishCompass(Self.present())])
        #expect(state.handle(.claimsChanged(.compass, claimed: true)) == [.holdSensor(.compass)])
        _ = state.handle(.claimArrived(.compass, at: 1))
        #expect(!state.answerNow, "present: the claim waits for a heading")
        #expect(state.nextDeadline == 1 + SensorProxyState.settleAfter)
        #expect(state.handle(.compass(Self.present(heading: 123.5))) == [.publishCompass(Self.present(heading: 123.5))])
        #expect(state.handle(.sensorRead(.compass)) == [.settle(.compass)])
        #expect(state.compass.heading == 123.5)
        #expect(state.handle(.compass(Self.present(heading: 123.5))) == [], "an unchanged heading is not published again")
        #expect(state.handle(.claimsChanged(.compass, claimed: false)) == [.releaseSensor(.compass)])
    }

    /// iio-sensor-proxy takes a claim whether there is a compass or not.
    @Test func withoutACompassAClaimIsAnsweredAtOnce() {
        var state = SensorProxyState()
        #expect(state.handle(.claimsChanged(.compass, claimed: true)) == [.holdSensor(.compass)])
        _ = state.handle(.claimArrived(.compass, at: 0))
        #expect(state.answerNow)
    }

    @Test func aCompassThatGoesAwayAnswersTheClaimsWaitingForIt() {
        var state = SensorProxyState()
        _ = state.handle(.compass(Self.present()))
        _ = state.handle(.claimsChanged(.compass, claimed: true))
        _ = state.handle(.claimArrived(.compass, at: 0))
        #expect(state.handle(.compass(ProxyCompass())) == [.publishCompass(ProxyCompass()), .settle(.compass)])
    }
}
