import OrientationCore
import SensorProxy
import Testing

/// When claims hold the sensors and when they are answered, without a bus.
@Suite struct SensorProxyStateTests {
    static func withAccelerometer() -> SensorProxyState {
        var state = SensorProxyState()
        _ = state.handle(.accelerometerPresent(true))
        return state
    }

    @Test func theFirstClaimHoldsTheSensorAndTheLastReleaseLetsItGo() {
        var state = Self.withAccelerometer()
        #expect(state.handle(.claimsChanged(.accelerometer, claimed: true)) == [.holdSensor(.accelerometer)])
        // The shim may say so twice (a release and a claim in one batch): still one hold.
        #expect(state.handle(.claimsChanged(.accelerometer, claimed: true)) == [])
        #expect(state.handle(.claimsChanged(.accelerometer, claimed: false)) == [.releaseSensor(.accelerometer)])
        #expect(state.handle(.claimsChanged(.accelerometer, claimed: false)) == [])
    }

    /// mutter reads the property right after its claim returns: the claim waits for a reading,
    /// which has set the orientation by then.
    @Test func aClaimIsAnsweredAfterTheFirstReading() {
        var state = Self.withAccelerometer()
        _ = state.handle(.claimsChanged(.accelerometer, claimed: true))
        _ = state.handle(.claimArrived(.accelerometer, at: 10))
        #expect(!state.answerNow)
        #expect(state.nextDeadline == 10 + SensorProxyState.settleAfter)
        #expect(state.handle(.orientationDecided(.landscapeLeft)).count == 1)
        #expect(state.handle(.sensorRead(.accelerometer)) == [.settle(.accelerometer)])
        #expect(state.nextDeadline == nil)
        // Read since the claim: a second client is answered at once.
        _ = state.handle(.claimArrived(.accelerometer, at: 11))
        #expect(state.answerNow)
    }

    @Test func aSensorThatNeverAnswersSettlesTheClaimAfterTheDeadline() {
        var state = Self.withAccelerometer()
        _ = state.handle(.claimsChanged(.accelerometer, claimed: true))
        _ = state.handle(.claimArrived(.accelerometer, at: 10))
        #expect(state.handle(.time(10 + SensorProxyState.settleAfter / 2)) == [])
        #expect(state.handle(.time(10 + SensorProxyState.settleAfter)) == [.settle(.accelerometer)])
    }

    @Test func anAbsentSensorIsAnsweredAtOnce() {
        var state = SensorProxyState()
        _ = state.handle(.claimsChanged(.light, claimed: true))
        _ = state.handle(.claimArrived(.light, at: 0))
        #expect(state.answerNow)
    }

    @Test func aSensorThatGoesAwayAnswersTheClaimsWaitingForIt() {
        var state = SensorProxyState()
        var light = ProxyLight()
        light.present = true
        _ = state.handle(.light(light))
        _ = state.handle(.claimsChanged(.light, claimed: true))
        _ = state.handle(.claimArrived(.light, at: 0))
        #expect(!state.answerNow)
        #expect(state.handle(.light(ProxyLight())) == [.publishLight(ProxyLight()), .settle(.light)])
    }

    @Test func aReleaseForgetsThatTheSensorWasCurrent() {
        var state = Self.withAccelerometer()
        _ = state.handle(.claimsChanged(.accelerometer, claimed: true))
        _ = state.handle(.sensorRead(.accelerometer))
        _ = state.handle(.claimsChanged(.accelerometer, claimed: false))
        _ = state.handle(.claimsChanged(.accelerometer, claimed: true))
        _ = state.handle(.claimArrived(.accelerometer, at: 5))
        #expect(!state.answerNow, "after a pause the sensor must be read again before a claim is answered")
    }

    @Test func onlyChangesArePublished() {
        var state = Self.withAccelerometer()
        #expect(state.handle(.orientationDecided(.portrait)).count == 1)
        #expect(state.handle(.orientationDecided(.portrait)) == [])
        var proximity = ProxyProximity()
        proximity.present = true
        #expect(state.handle(.proximity(proximity)) == [.publishProximity(proximity)])
        #expect(state.handle(.proximity(proximity)) == [])
    }

    @Test func aLostAccelerometerIsUndefinedAgain() {
        var state = Self.withAccelerometer()
        _ = state.handle(.orientationDecided(.landscapeRight))
        #expect(state.handle(.accelerometerPresent(false)) == [.publishAccelerometer(ProxyAccelerometer())])
        #expect(state.accelerometer.orientation == "undefined")
    }

    /// Read for a socket subscriber already: the claim needs no wait, and no reading is awaited.
    @Test func aSensorReadForSomeoneElseAnswersAtOnce() {
        var state = Self.withAccelerometer()
        _ = state.handle(.claimsChanged(.accelerometer, claimed: true, beingRead: true))
        _ = state.handle(.claimArrived(.accelerometer, at: 0))
        #expect(state.answerNow)
        #expect(!state.awaitsReading(.accelerometer))
    }

    /// Only a waiting claim makes a reading news for the event thread.
    @Test func aReadingIsAwaitedOnlyWhileAClaimWaits() {
        var state = Self.withAccelerometer()
        _ = state.handle(.claimsChanged(.accelerometer, claimed: true))
        #expect(!state.awaitsReading(.accelerometer))
        _ = state.handle(.claimArrived(.accelerometer, at: 0))
        #expect(state.awaitsReading(.accelerometer))
        _ = state.handle(.sensorRead(.accelerometer))
        #expect(!state.awaitsReading(.accelerometer))
    }

    /// A sensor that went away and came back is read before a claim is answered again.
    @Test func aSensorThatCameBackIsNotCurrent() {
        var state = SensorProxyState()
        var light = ProxyLight()
        light.present = true
        _ = state.handle(.light(light))
        _ = state.handle(.claimsChanged(.light, claimed: true))
        _ = state.handle(.sensorRead(.light))
        _ = state.handle(.light(ProxyLight()))
        _ = state.handle(.light(light))
        _ = state.handle(.claimArrived(.light, at: 0))
        #expect(!state.answerNow)
    }
}
