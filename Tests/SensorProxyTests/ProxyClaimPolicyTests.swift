import OrientationCore
import OrientdHub
import OrientdProtocol
import SensorProxy
import Testing

/// The limits and the polkit policy of the D-Bus face's claims, without a bus: what any local
/// user can make orientd hold, and who may claim.
@Suite struct ProxyClaimPolicyTests {
    static func limits(claimers: Int = 512, heldClaims: Int = 256, polkitQuestions: Int = 64, perClient: Int = 2) -> ProxyLimits {
        var limits = ProxyLimits()
        limits.claimers = claimers
        limits.heldClaims = heldClaims
        limits.polkitQuestions = polkitQuestions
        limits.polkitQuestionsPerClient = perClient
        return limits
    }

    static func present(_ limits: ProxyLimits = ProxyLimits(), polkit: Bool = false) -> SensorProxyState {
        var state = SensorProxyState(limits: limits, checksPolkit: polkit)
        _ = state.handle(.hub())
        return state
    }

    /// A claim refused for the limit is only refused: it neither tells the refused client the
    /// values nor shows them to everyone as a claim would (before any claim they read as the
    /// defaults).
    @Test func aRefusedClaimShowsNothing() {
        var state = SensorProxyState(limits: Self.limits(claimers: 1))
        _ = state.handle(.hub(.landscapeLeft) { $0.lightAvailable = true; $0.light = AmbientLight(level: 42, unit: .lux) })
        _ = state.handle(.claim(1, .light, from: ":1.1"))
        #expect(state.handle(.claim(2, from: ":1.2")) == [.refuse(2, .tooManyClaimers)])
        #expect(state.value(of: .accelerometerOrientation) == .text("undefined"))
    }

    @Test func theDefaultsAreTheDocumentedOnes() {
        let limits = ProxyLimits()
        #expect(limits.claimers == 512 && limits.heldClaims == 256 && limits.polkitQuestions == 64 && limits.polkitQuestionsPerClient == 2)
        #expect(limits.settleAfter == 2)
    }

    /// Past the claimers' limit a new client is refused; one that claims already may claim more,
    /// and a place freed is taken again.
    @Test func pastTheClaimersLimitANewClientIsRefused() {
        var state = Self.present(Self.limits(claimers: 3))
        for client in 1...3 { _ = state.handle(.claim(ProxyCall(client), from: ":1.\(client)")) }
        #expect(state.handle(.fresh(.accelerometer)) == [.reply(1), .reply(2), .reply(3)])
        #expect(state.handle(.claim(4, from: ":1.4")) == [.refuse(4, .tooManyClaimers)])
        #expect(ProxyRefusal.tooManyClaimers.errorName == "org.freedesktop.DBus.Error.LimitsExceeded")
        #expect(state.handle(.claim(5, .light, from: ":1.1")) == [.holdSensor(.light), .reply(5)])
        #expect(state.handle(.clientLeft(":1.2")) == [])
        #expect(state.handle(.claim(6, from: ":1.4")) == [.reply(6)])
    }

    /// Past the held claims' limit of a sensor, a claim is answered at once.
    @Test func pastTheHeldClaimsLimitAClaimIsAnsweredAtOnce() {
        var state = Self.present(Self.limits(heldClaims: 2))
        #expect(state.handle(.claim(1)) == [.holdSensor(.accelerometer), .awaitFresh(.accelerometer)])
        #expect(state.handle(.claim(2)) == [])
        #expect(state.handle(.claim(3)) == [.reply(3)])
        #expect(state.handle(.fresh(.accelerometer)) == [.reply(1), .reply(2)])
    }

    /// A claim that changes something waits for polkit; a repeated one, a release of what one
    /// does not hold, and every call without polkit checks, do not ask it.
    @Test func polkitIsAskedOnlyAboutCallsThatChangeSomething() {
        var fresh = Self.present(polkit: true)
        #expect(fresh.handle(.release(1)) == [.reply(1)], "a release of nothing held")
        #expect(fresh.handle(.claim(2)) == [.askPolkit(2)])
        #expect(fresh.handle(.polkitAnswered(2, .authorized, at: 0)) == [.holdSensor(.accelerometer), .awaitFresh(.accelerometer)])
        #expect(fresh.handle(.fresh(.accelerometer)) == [.reply(2)])
        #expect(fresh.handle(.claim(3)) == [.reply(3)], "a repeated claim does not ask again")
        #expect(fresh.handle(.release(4)) == [.askPolkit(4)])
        #expect(fresh.handle(.polkitAnswered(4, .authorized, at: 0)) == [.releaseSensor(.accelerometer), .reply(4)])
        var unchecked = Self.present(polkit: false)
        #expect(unchecked.handle(.claim(5)) == [.holdSensor(.accelerometer), .awaitFresh(.accelerometer)])
    }

    @Test func polkitsRefusalRefusesTheClaimAndHoldsNothing() {
        var state = Self.present(polkit: true)
        #expect(state.handle(.claim(1)) == [.askPolkit(1)])
        #expect(state.handle(.polkitAnswered(1, .denied, at: 0)) == [.refuse(1, .notAuthorized("Sensor claim not allowed"))])
        #expect(state.claimers(of: .accelerometer) == [])
        #expect(ProxyRefusal.notAuthorized("Sensor claim not allowed").message == "Not Authorized: Sensor claim not allowed")
        #expect(ProxyRefusal.notAuthorized("x").errorName == "org.freedesktop.DBus.Error.AccessDenied")
    }

    /// polkit not running: the claim is refused with the reason, said once until polkit answers again.
    @Test func anUnreachablePolkitIsSaidOnceAndRefusesTheClaims() {
        var state = Self.present(polkit: true)
        _ = state.handle(.claim(1))
        _ = state.handle(.claim(2, from: ":1.2"))
        let why = "The name org.freedesktop.PolicyKit1 was not provided by any .service files"
        #expect(state.handle(.polkitAnswered(1, .unreachable(why), at: 0)) == [.polkitReachable(false, reason: why), .refuse(1, .notAuthorized(why))])
        #expect(state.handle(.polkitAnswered(2, .unreachable(why), at: 0)) == [.refuse(2, .notAuthorized(why))])
        _ = state.handle(.claim(3))
        #expect(state.handle(.polkitAnswered(3, .authorized, at: 0))
                == [.polkitReachable(true, reason: ""), .holdSensor(.accelerometer), .awaitFresh(.accelerometer)])
        _ = state.handle(.claim(4, .light, from: ":1.5"))
        #expect(state.handle(.polkitAnswered(4, .failed("org.freedesktop.DBus.Error.AccessDenied"), at: 0))
                == [.refuse(4, .notAuthorized("org.freedesktop.DBus.Error.AccessDenied"))], "an error answer is no outage")
    }

    /// Past the questions in flight, of one client or of all, a call is refused; an answer frees a place.
    @Test func pastThePolkitQuestionsLimitsACallIsRefused() {
        var state = Self.present(Self.limits(polkitQuestions: 3, perClient: 2), polkit: true)
        #expect(state.handle(.claim(1)) == [.askPolkit(1)])
        #expect(state.handle(.claim(2, .light)) == [.askPolkit(2)])
        #expect(state.handle(.claim(3, .proximity)) == [.refuse(3, .tooManyPolkitQuestions)], "two per client")
        #expect(state.handle(.claim(4, from: ":1.2")) == [.askPolkit(4)])
        #expect(state.handle(.claim(5, from: ":1.3")) == [.refuse(5, .tooManyPolkitQuestions)], "three in all")
        _ = state.handle(.polkitAnswered(1, .denied, at: 0))
        #expect(state.handle(.claim(6, from: ":1.3")) == [.askPolkit(6)])
        #expect(Set(state.unansweredCalls) == [2, 4, 6])
    }

    /// A claimer that leaves while polkit decides: nothing is claimed for it, nothing answered,
    /// and its question still counts until polkit answers.
    @Test func aClaimerLeavingMidCheckClaimsNothing() {
        var state = Self.present(Self.limits(polkitQuestions: 1), polkit: true)
        #expect(state.handle(.claim(1)) == [.askPolkit(1)])
        #expect(state.handle(.clientLeft(":1.1")) == [])
        #expect(state.handle(.claim(2, from: ":1.2")) == [.refuse(2, .tooManyPolkitQuestions)])
        #expect(state.handle(.polkitAnswered(1, .authorized, at: 0)) == [.forget(1)])
        #expect(state.claimers(of: .accelerometer) == [])
        #expect(state.handle(.claim(3, from: ":1.2")) == [.askPolkit(3)])
    }

    /// A claimer that leaves: its claims go (the last lets the sensor go) and its calls held for
    /// a reading are let go unanswered; another client's wait on.
    @Test func aClaimerLeavingLetsItsClaimsAndHeldCallsGo() {
        var state = Self.present()
        _ = state.handle(.claim(1, from: ":1.1"))
        _ = state.handle(.claim(2, from: ":1.2"))
        #expect(state.handle(.clientLeft(":1.1")) == [.forget(1)])
        #expect(state.claimers(of: .accelerometer) == [":1.2"])
        #expect(state.awaitsReading(.accelerometer))
        #expect(state.handle(.clientLeft(":1.2")) == [.forget(2), .releaseSensor(.accelerometer)])
        #expect(state.unansweredCalls.isEmpty)
        #expect(state.nextDeadline == nil)
        #expect(state.handle(.clientLeft(":1.3")) == [], "a client that claimed nothing changes nothing")
    }
}
