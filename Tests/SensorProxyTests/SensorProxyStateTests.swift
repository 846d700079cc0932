import OrientationCore
import OrientdHub
import OrientdProtocol
import SensorProxy
import Testing

/// Shorthands for the calls and the hub's facts the tests hand the state.
extension SensorProxyState.Event {
    static func claim(_ call: ProxyCall, _ sensor: HubSensor = .accelerometer, from sender: String = ":1.1", at time: Double = 0) -> Self {
        .called(ProxyRequest(call, from: sender, claiming: true, sensor), at: time)
    }

    static func release(_ call: ProxyCall, _ sensor: HubSensor = .accelerometer, from sender: String = ":1.1", at time: Double = 0) -> Self {
        .called(ProxyRequest(call, from: sender, claiming: false, sensor), at: time)
    }

    /// The hub's facts: the accelerometer available in `orientation` (with the tilt it has
    /// upright or lying flat) unless said otherwise.
    static func hub(_ orientation: Orientation = .unknown, accelerometer: Bool = true, _ change: (inout HubFacts) -> Void = { _ in }) -> Self {
        var facts = HubFacts()
        facts.accelerometerAvailable = accelerometer
        facts.orientation = orientation
        switch orientation {
        case .unknown: facts.tilt = .unknown
        case .faceUp: facts.tilt = .faceUp
        case .faceDown: facts.tilt = .faceDown
        case .portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight: facts.tilt = .vertical
        }
        change(&facts)
        return .facts(facts)
    }
}

/// When claims hold the sensors and when they are answered, and what the properties show of
/// the hub's facts, without a bus.
@Suite struct SensorProxyStateTests {
    static func withAccelerometer(_ limits: ProxyLimits = ProxyLimits()) -> SensorProxyState {
        var state = SensorProxyState(limits: limits)
        _ = state.handle(.hub())
        return state
    }

    /// Claimed and told fresh by the hub.
    static func claimed(_ sensor: HubSensor = .accelerometer, by sender: String = ":1.1", in state: inout SensorProxyState) {
        #expect(state.handle(.claim(100, sensor, from: sender)) == [.holdSensor(sensor), .awaitFresh(sensor)])
        #expect(state.handle(.fresh(sensor)) == [.reply(100)])
    }

    @Test func theFirstClaimHoldsTheSensorAndTheLastReleaseLetsItGo() {
        var state = Self.withAccelerometer()
        Self.claimed(in: &state)
        // A second claim by the same client changes nothing; another client's neither.
        #expect(state.handle(.claim(2)) == [.reply(2)])
        #expect(state.handle(.claim(3, from: ":1.2")) == [.reply(3)])
        #expect(state.claimers(of: .accelerometer) == [":1.1", ":1.2"])
        #expect(state.handle(.release(4)) == [.reply(4)])
        #expect(state.handle(.release(5)) == [.reply(5)], "releasing what one does not hold changes nothing")
        #expect(state.handle(.release(6, from: ":1.2")) == [.releaseSensor(.accelerometer), .reply(6)])
        #expect(state.claimers(of: .accelerometer) == [])
    }

    /// mutter reads the property right after its claim returns: the claim waits until the hub
    /// says the reading is fresh, which has set the orientation by then.
    @Test func aClaimIsAnsweredOnceTheHubSaysItIsFresh() {
        var state = Self.withAccelerometer()
        #expect(state.handle(.claim(1, at: 10)) == [.holdSensor(.accelerometer), .awaitFresh(.accelerometer)])
        #expect(state.handle(.claim(2, from: ":1.2", at: 10.5)) == [], "one wait serves every claim held")
        #expect(state.nextDeadline == 10 + ProxyLimits().settleAfter)
        #expect(state.awaitsReading(.accelerometer))
        #expect(state.handle(.hub(.landscapeLeft)) == [.emit(ProxySignal([.accelerometerOrientation], to: [":1.1", ":1.2"])),
                                                       .emit(ProxySignal([.accelerometerTilt], to: [":1.1", ":1.2"]))])
        #expect(state.handle(.fresh(.accelerometer)) == [.reply(1), .reply(2)])
        #expect(state.nextDeadline == nil)
        #expect(state.value(of: .accelerometerOrientation) == .text("right-up"))
        // Fresh since the claims began: at once, after telling the newcomer what it may have
        // cached as the defaults.
        #expect(state.handle(.claim(3, from: ":1.3", at: 11)) == [.emit(ProxySignal([.accelerometerOrientation], to: [":1.3"])),
                                                                  .emit(ProxySignal([.accelerometerTilt], to: [":1.3"])), .reply(3)])
    }

    @Test func aSensorThatNeverAnswersSettlesTheClaimAfterTheDeadline() {
        var state = Self.withAccelerometer()
        _ = state.handle(.claim(1, at: 10))
        #expect(state.handle(.time(10 + ProxyLimits().settleAfter / 2)) == [])
        #expect(state.handle(.time(10 + ProxyLimits().settleAfter)) == [.reply(1)])
        #expect(!state.awaitsReading(.accelerometer))
        #expect(state.handle(.claim(2, from: ":1.2", at: 20)) == [], "still not fresh: it waits for the question already asked")
        #expect(state.awaitsReading(.accelerometer))
        #expect(state.handle(.fresh(.accelerometer)) == [.reply(2)])
    }

    @Test func anAbsentSensorIsAnsweredAtOnce() {
        var state = SensorProxyState()
        #expect(state.handle(.claim(1, .light)) == [.holdSensor(.light), .reply(1)])
    }

    @Test func aSensorThatGoesAwayAnswersTheClaimsWaitingForIt() {
        var state = SensorProxyState()
        _ = state.handle(.hub { $0.lightAvailable = true })
        _ = state.handle(.claim(1, .light))
        #expect(state.handle(.hub()) == [.emit(ProxySignal([.hasAmbientLight], to: [":1.1"])), .reply(1)])
    }

    @Test func aReleaseForgetsThatTheSensorWasFresh() {
        var state = Self.withAccelerometer()
        Self.claimed(in: &state)
        _ = state.handle(.release(2))
        #expect(state.handle(.claim(3, at: 5)) == [.holdSensor(.accelerometer), .awaitFresh(.accelerometer)],
                "after a pause the hub must say it is fresh before a claim is answered")
    }

    /// Claims and releases in a loop ask the hub once, however long it takes to answer: nothing
    /// a client does makes the hub keep more than one question a sensor.
    @Test func claimsAndReleasesInALoopAskTheHubOnce() {
        var state = Self.withAccelerometer()
        var asked = 0
        for call in stride(from: ProxyCall(1), to: 200, by: 2) {
            asked += state.handle(.claim(call)).filter { $0 == .awaitFresh(.accelerometer) }.count
            _ = state.handle(.release(call + 1))
        }
        #expect(asked == 1)
        #expect(state.handle(.fresh(.accelerometer)) == [], "nobody claims it now")
        #expect(state.handle(.claim(300)) == [.holdSensor(.accelerometer), .awaitFresh(.accelerometer)], "answered: the next claim asks again")
    }

    /// The last release answers the claims still held: a client that released before its answer still gets one.
    @Test func theLastReleaseAnswersTheClaimsStillHeld() {
        var state = Self.withAccelerometer()
        _ = state.handle(.claim(1))
        #expect(state.handle(.release(2)) == [.reply(1), .releaseSensor(.accelerometer), .reply(2)])
    }

    @Test func onlyChangesArePublishedAndOnlyToClaimers() {
        var state = Self.withAccelerometer()
        #expect(state.handle(.hub(.portrait)) == [], "nobody claims: nobody is told")
        // The first claimer is told what was known before it claimed.
        #expect(state.handle(.claim(100)) == [.emit(ProxySignal([.accelerometerOrientation], to: [":1.1"])),
                                              .emit(ProxySignal([.accelerometerTilt], to: [":1.1"])),
                                              .holdSensor(.accelerometer), .awaitFresh(.accelerometer)])
        #expect(state.handle(.fresh(.accelerometer)) == [.reply(100)])
        #expect(state.value(of: .accelerometerOrientation) == .text("normal"))
        #expect(state.handle(.hub(.portrait)) == [])
        #expect(state.handle(.hub(.portrait) { $0.proximityAvailable = true; $0.proximityNear = false }) == [])
        Self.claimed(.proximity, by: ":1.2", in: &state)
        #expect(state.handle(.hub(.portrait) { $0.proximityAvailable = true; $0.proximityNear = false }) == [])
        #expect(state.handle(.hub(.portrait) { $0.proximityAvailable = true; $0.proximityNear = true })
                == [.emit(ProxySignal([.proximityNear], to: [":1.2"]))])
    }

    /// A value the hub does not know right now (the sensor woke for a socket subscriber and its
    /// first reading is awaited) keeps what was shown: no property ever reads a placeholder.
    /// AccelerometerTilt is the hub's tilt, not the orientation's: leaning back in portrait
    /// says tilted-up while the orientation stays normal; an unknown tilt keeps what was shown.
    @Test func theTiltFollowsTheHubsTiltFact() {
        var state = Self.withAccelerometer()
        Self.claimed(in: &state)
        _ = state.handle(.hub(.portrait))
        #expect(state.handle(.hub(.portrait) { $0.tilt = .tiltedUp }) == [.emit(ProxySignal([.accelerometerTilt], to: [":1.1"]))])
        #expect(state.value(of: .accelerometerTilt) == .text("tilted-up"))
        #expect(state.value(of: .accelerometerOrientation) == .text("normal"))
        _ = state.handle(.hub(.portrait) { $0.tilt = .unknown })
        #expect(state.value(of: .accelerometerTilt) == .text("tilted-up"))
    }

    /// iio-sensor-proxy 3.9's suite reads the values before any claim (integration-test.py's
    /// poll-accel, poll-light, poll-proximity and input tests): its defaults, whatever orientd's
    /// hub knows for socket clients. A claim tells the claimer the real values, one property a
    /// signal, and they are shown from then on, releases included (3.9 resets nothing).
    @Test func valuesBeforeTheFirstClaimAreTheIncumbentsDefaults() {
        var state = Self.withAccelerometer()
        _ = state.handle(.hub(.landscapeLeft) { $0.lightAvailable = true; $0.light = AmbientLight(level: 42, unit: .lux)
            $0.proximityAvailable = true; $0.proximityNear = true })
        #expect(state.value(of: .hasAccelerometer) == .boolean(true))
        #expect(state.value(of: .accelerometerOrientation) == .text("undefined"))
        #expect(state.value(of: .accelerometerTilt) == .text("undefined"))
        #expect(state.value(of: .lightLevel) == .number(0))
        #expect(state.value(of: .lightLevelUnit) == .text("lux"))
        #expect(state.value(of: .proximityNear) == .boolean(false))
        #expect(state.value(of: .hasProximity) == .boolean(true))

        let actions = state.handle(.claim(1))
        #expect(actions.prefix(2) == [.emit(ProxySignal([.accelerometerOrientation], to: [":1.1"])),
                                      .emit(ProxySignal([.accelerometerTilt], to: [":1.1"]))])
        #expect(state.value(of: .accelerometerOrientation) == .text("right-up"))
        #expect(state.value(of: .lightLevel) == .number(0), "the light is not claimed yet")
        #expect(!state.handle(.claim(3)).contains { if case .emit = $0 { true } else { false } }, "a repeated claim changes nothing")
        // A second client, which may have cached the defaults before the first claim, is told too.
        #expect(state.handle(.claim(4, from: ":1.2")).prefix(2) == [.emit(ProxySignal([.accelerometerOrientation], to: [":1.2"])),
                                                                    .emit(ProxySignal([.accelerometerTilt], to: [":1.2"]))])
        _ = state.handle(.release(2))
        #expect(state.value(of: .accelerometerOrientation) == .text("right-up"), "3.9 resets nothing on release")
    }

    @Test func anUnknownValueKeepsWhatWasShown() {
        var state = SensorProxyState()
        _ = state.handle(.claim(9, .light))
        _ = state.handle(.hub { $0.lightAvailable = true; $0.light = AmbientLight(level: 120.5, unit: .lux) })
        #expect(state.value(of: .lightLevel) == .number(120.5))
        _ = state.handle(.hub { $0.lightAvailable = true; $0.light = nil })
        #expect(state.value(of: .lightLevel) == .number(120.5))
        _ = state.handle(.hub(.portrait))
        #expect(state.value(of: .hasAmbientLight) == .boolean(false))
        #expect(state.value(of: .lightLevel) == .number(0), "gone: as iio-sensor-proxy, 0")
    }

    @Test func aLostAccelerometerIsUndefinedAgain() {
        var state = Self.withAccelerometer()
        Self.claimed(in: &state)
        _ = state.handle(.hub(.landscapeRight))
        #expect(state.handle(.hub(accelerometer: false)) == [.emit(ProxySignal([.hasAccelerometer], to: [":1.1"]))])
        #expect(state.accelerometer.orientation == "undefined")
        #expect(state.handle(.hub())
                == [.emit(ProxySignal([.hasAccelerometer, .accelerometerOrientation, .accelerometerTilt], to: [":1.1"]))])
    }

    /// A sensor that went away and came back must be fresh again before a claim is answered.
    @Test func aSensorThatCameBackIsNotFresh() {
        var state = SensorProxyState()
        _ = state.handle(.hub { $0.lightAvailable = true })
        Self.claimed(.light, in: &state)
        _ = state.handle(.hub())
        _ = state.handle(.hub { $0.lightAvailable = true })
        #expect(state.handle(.claim(2, .light, from: ":1.2")) == [.awaitFresh(.light)])
        #expect(state.awaitsReading(.light))
    }
}
