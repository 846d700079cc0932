import OrientationCore
import SensorProxy
import Testing

/// Shorthands for the calls the tests make.
extension SensorProxyState.Event {
    static func claim(_ call: ProxyCall, _ sensor: ProxySensor = .accelerometer, from sender: String = ":1.1",
                      reading: Set<ProxySensor> = [], at time: Double = 0) -> Self {
        .called(ProxyRequest(call, from: sender, claiming: true, sensor), reading: reading, at: time)
    }

    static func release(_ call: ProxyCall, _ sensor: ProxySensor = .accelerometer, from sender: String = ":1.1", at time: Double = 0) -> Self {
        .called(ProxyRequest(call, from: sender, claiming: false, sensor), at: time)
    }
}

/// When claims hold the sensors and when they are answered, without a bus.
@Suite struct SensorProxyStateTests {
    static func withAccelerometer(_ limits: ProxyLimits = ProxyLimits()) -> SensorProxyState {
        var state = SensorProxyState(limits: limits)
        _ = state.handle(.accelerometerPresent(true))
        return state
    }

    @Test func theFirstClaimHoldsTheSensorAndTheLastReleaseLetsItGo() {
        var state = Self.withAccelerometer()
        #expect(state.handle(.claim(1, reading: [.accelerometer])) == [.holdSensor(.accelerometer), .reply(1)])
        // A second claim by the same client changes nothing; another client's neither.
        #expect(state.handle(.claim(2, reading: [.accelerometer])) == [.reply(2)])
        #expect(state.handle(.claim(3, from: ":1.2")) == [.reply(3)])
        #expect(state.claimers(of: .accelerometer) == [":1.1", ":1.2"])
        #expect(state.handle(.release(4)) == [.reply(4)])
        #expect(state.handle(.release(5)) == [.reply(5)], "releasing what one does not hold changes nothing")
        #expect(state.handle(.release(6, from: ":1.2")) == [.releaseSensor(.accelerometer), .reply(6)])
        #expect(state.claimers(of: .accelerometer) == [])
    }

    /// mutter reads the property right after its claim returns: the claim waits for a reading,
    /// which has set the orientation by then.
    @Test func aClaimIsAnsweredAfterTheFirstReading() {
        var state = Self.withAccelerometer()
        #expect(state.handle(.claim(1, at: 10)) == [.holdSensor(.accelerometer)])
        #expect(state.nextDeadline == 10 + ProxyLimits().settleAfter)
        #expect(state.awaitsReading(.accelerometer))
        #expect(state.handle(.orientationDecided(.landscapeLeft)) == [.emit(ProxySignal([.accelerometerOrientation], to: [":1.1"])),
                                                                      .emit(ProxySignal([.accelerometerTilt], to: [":1.1"]))])
        #expect(state.handle(.sensorRead(.accelerometer)) == [.reply(1)])
        #expect(state.nextDeadline == nil)
        #expect(state.value(of: .accelerometerOrientation) == .text("right-up"))
        // Read since the claim: a second client is answered at once.
        #expect(state.handle(.claim(2, from: ":1.2", at: 11)) == [.reply(2)])
    }

    @Test func aSensorThatNeverAnswersSettlesTheClaimAfterTheDeadline() {
        var state = Self.withAccelerometer()
        _ = state.handle(.claim(1, at: 10))
        #expect(state.handle(.time(10 + ProxyLimits().settleAfter / 2)) == [])
        #expect(state.handle(.time(10 + ProxyLimits().settleAfter)) == [.reply(1)])
        #expect(!state.awaitsReading(.accelerometer))
    }

    @Test func anAbsentSensorIsAnsweredAtOnce() {
        var state = SensorProxyState()
        #expect(state.handle(.claim(1, .light)) == [.holdSensor(.light), .reply(1)])
    }

    @Test func aSensorThatGoesAwayAnswersTheClaimsWaitingForIt() {
        var state = SensorProxyState()
        var light = ProxyLight()
        light.present = true
        _ = state.handle(.light(light))
        _ = state.handle(.claim(1, .light))
        #expect(state.handle(.light(ProxyLight())) == [.emit(ProxySignal([.hasAmbientLight], to: [":1.1"])), .reply(1)])
    }

    @Test func aReleaseForgetsThatTheSensorWasCurrent() {
        var state = Self.withAccelerometer()
        _ = state.handle(.claim(1))
        _ = state.handle(.sensorRead(.accelerometer))
        _ = state.handle(.release(2))
        #expect(state.handle(.claim(3, at: 5)) == [.holdSensor(.accelerometer)],
                "after a pause the sensor must be read again before a claim is answered")
    }

    /// The last release answers the claims still held: a client that released before its answer still gets one.
    @Test func theLastReleaseAnswersTheClaimsStillHeld() {
        var state = Self.withAccelerometer()
        _ = state.handle(.claim(1))
        #expect(state.handle(.release(2)) == [.reply(1), .releaseSensor(.accelerometer), .reply(2)])
    }

    @Test func onlyChangesArePublishedAndOnlyToClaimers() {
        var state = Self.withAccelerometer()
        #expect(state.handle(.orientationDecided(.portrait)) == [], "nobody claims: nobody is told")
        #expect(state.value(of: .accelerometerOrientation) == .text("normal"))
        _ = state.handle(.claim(1, reading: [.accelerometer]))
        #expect(state.handle(.orientationDecided(.portrait)) == [])
        var proximity = ProxyProximity()
        proximity.present = true
        _ = state.handle(.claim(2, .proximity, from: ":1.2", reading: [.proximity]))
        #expect(state.handle(.proximity(proximity)) == [.emit(ProxySignal([.hasProximity, .proximityNear], to: [":1.2"]))])
        #expect(state.handle(.proximity(proximity)) == [])
        proximity.near = true
        #expect(state.handle(.proximity(proximity)) == [.emit(ProxySignal([.proximityNear], to: [":1.2"]))])
    }

    @Test func aLostAccelerometerIsUndefinedAgain() {
        var state = Self.withAccelerometer()
        _ = state.handle(.claim(1, reading: [.accelerometer]))
        _ = state.handle(.orientationDecided(.landscapeRight))
        #expect(state.handle(.accelerometerPresent(false)) == [.emit(ProxySignal([.hasAccelerometer], to: [":1.1"]))])
        #expect(state.accelerometer.orientation == "undefined")
        #expect(state.handle(.accelerometerPresent(true))
                == [.emit(ProxySignal([.hasAccelerometer, .accelerometerOrientation, .accelerometerTilt], to: [":1.1"]))])
    }

    /// Only a waiting claim makes a reading news for the event thread.
    @Test func aReadingIsAwaitedOnlyWhileAClaimWaits() {
        var state = Self.withAccelerometer()
        _ = state.handle(.claim(1, reading: [.accelerometer]))
        #expect(!state.awaitsReading(.accelerometer))
        _ = state.handle(.release(2))
        _ = state.handle(.claim(3))
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
        _ = state.handle(.claim(1, .light))
        _ = state.handle(.sensorRead(.light))
        _ = state.handle(.light(ProxyLight()))
        _ = state.handle(.light(light))
        #expect(state.handle(.claim(2, .light, from: ":1.2")) == [])
        #expect(state.awaitsReading(.light))
    }
}
