import NIOCore
import OrientationCore
import OrientdProtocol
import Testing
@testable import OrientdHub

/// The hub's decisions as a pure machine: no lock, no loop, no clock.
@Suite struct HubStateTests {
    static let start = NIODeadline.uptimeNanoseconds(1_000_000_000_000)
    static let sensor = SensorStatus(id: "local:/accel_3d", uri: "local:", device: "accel_3d", location: .display,
                                     mountMatrix: .identity, mountMatrixSource: "test", rate: 25, reading: true)

    static func opened() -> HubState {
        var state = HubState(staleAfter: .milliseconds(500), lock: .unlocked, at: 0)
        _ = state.sensorOpened(sensor, devices: [sensor], at: 1)
        _ = state.sensorRead(at: start)
        return state
    }

    /// What the actions tell: which kinds, in order.
    static func kinds(_ actions: [HubState.Action]) -> [String] {
        actions.map {
            switch $0 {
            case .deliver: "deliver"
            case .tell: "tell"
            case .answer(let waiters): "answer \(waiters)"
            }
        }
    }

    @Test func aChangeIsToldToEveryViewOnceAndNoChangeToNone() {
        var state = Self.opened()
        let actions = state.orientationDecided(.landscapeLeft, at: 2)
        #expect(Self.kinds(actions) == ["tell", "deliver"], "the observers first, then the subscriptions")
        guard case .deliver(let update) = actions.last, case .tell(let facts) = actions.first else { return }
        #expect(update.orientation == .landscapeLeft && update.previous == .unknown && update.sequence == 1)
        #expect(facts.orientation == .landscapeLeft && facts.accelerometerAvailable)
        #expect(state.orientationDecided(.landscapeLeft, at: 3).isEmpty)
        #expect(state.lastInPlane == .landscapeLeft)
        _ = state.orientationDecided(.faceUp, at: 4)
        #expect(state.lastInPlane == .landscapeLeft, "lying flat keeps what drives interfaces")
    }

    /// Fresh while read recently; stale once paused or old; a lost sensor answers its waiters.
    /// The tilt is a fact of its own: told to both views when it changes, unknown once the
    /// sensor is lost.
    @Test func theTiltIsToldToEveryViewAndForgottenWithTheSensor() {
        var state = Self.opened()
        let actions = state.tiltDecided(.tiltedUp, at: 2)
        #expect(Self.kinds(actions) == ["tell", "deliver"])
        guard case .deliver(let update) = actions.last, case .tell(let facts) = actions.first else { return }
        #expect(update.tilt == .tiltedUp && facts.tilt == .tiltedUp)
        #expect(String(buffer: update.tiltLine) == #"{"event":"deviceTiltDidChange","tilt":"tiltedUp","timestamp":2}"# + "\n")
        #expect(state.tiltDecided(.tiltedUp, at: 3).isEmpty)
        _ = state.sensorLost(reason: "unplugged", at: 4)
        #expect(state.tilt == .unknown && state.facts.tilt == .unknown && state.update.tilt == .unknown)
    }

    @Test func theAccelerometersFreshnessAndItsWaiters() {
        var state = Self.opened()
        #expect(Self.kinds(state.awaitFresh(.accelerometer, waiter: 1, now: Self.start + .milliseconds(100))) == ["answer [1]"])
        #expect(state.awaitFresh(.accelerometer, waiter: 2, now: Self.start + .seconds(1)).isEmpty, "older than staleAfter")
        state.sensorPaused()
        #expect(state.awaitFresh(.accelerometer, waiter: 3, now: Self.start).isEmpty, "asleep")
        state.stopWaiting(3)
        #expect(Self.kinds(state.sensorRead(at: Self.start + .seconds(2))) == ["answer [2]"], "a waiter that gave up is not answered")
        _ = state.awaitFresh(.accelerometer, waiter: 4, now: Self.start + .seconds(5))
        #expect(Self.kinds(state.sensorLost(reason: "removed", at: 6)) == ["tell", "deliver", "answer [4]"])
        #expect(state.orientation == .unknown)
        #expect(state.awaitFresh(.accelerometer, waiter: 5, now: Self.start + .seconds(9)).count == 1, "no sensor: nothing to wait for")
    }

    /// An ambient sensor is fresh once reported since it was last woken; a hold that wakes it
    /// makes what it holds stale.
    @Test func anAmbientSensorsFreshness() {
        var state = Self.opened()
        #expect(Self.kinds(state.awaitFresh(.light, waiter: 1, now: Self.start)) == ["answer [1]"], "no light sensor")
        _ = state.ambientSensorChanged(.light, device: "als", at: 1)
        #expect(state.awaitFresh(.light, waiter: 2, now: Self.start).isEmpty, "found, not read yet")
        #expect(Self.kinds(state.lightRead(AmbientLight(level: 10, unit: .lux), at: 2)) == ["tell", "deliver", "answer [2]"])
        #expect(Self.kinds(state.lightRead(AmbientLight(level: 10, unit: .lux), at: 3)) == [], "unchanged, and nobody waits")
        state.hold(.light, asleep: false)
        #expect(state.awaitFresh(.light, waiter: 3, now: Self.start).count == 1, "read for someone else already")
        state.release(.light)
        state.hold(.light, asleep: true)
        #expect(state.awaitFresh(.light, waiter: 4, now: Self.start).isEmpty, "woken: stale until read")
        #expect(Self.kinds(state.lightRead(AmbientLight(level: 10, unit: .lux), at: 4)) == ["tell", "deliver", "answer [4]"],
                "unchanged, but the first since it woke: news for a subscriber that woke it, and the waiter answered")
    }

    /// The compass is no socket event: its changes are told to the observers alone.
    @Test func theCompassIsToldToTheObserversAlone() {
        var state = Self.opened()
        #expect(Self.kinds(state.ambientSensorChanged(.compass, device: "magn", at: 1)) == ["tell"])
        #expect(Self.kinds(state.compassRead(heading: 90)) == ["tell"])
        #expect(Self.kinds(state.compassRead(heading: 90)) == [])
        _ = state.awaitFresh(.compass, waiter: 1, now: Self.start)
        state.hold(.compass, asleep: true)
        _ = state.awaitFresh(.compass, waiter: 2, now: Self.start)
        #expect(Self.kinds(state.ambientSensorChanged(.compass, device: nil, at: 2)) == ["tell", "answer [2]"])
        #expect(state.facts.compassAvailable == false && state.facts.compassHeading == nil)
        _ = state.ambientSensorChanged(.compass, device: "magn", at: 3)
        #expect(state.awaitFresh(.compass, waiter: 3, now: Self.start).isEmpty, "back: not fresh until its first reading")
        #expect(Self.kinds(state.compassRead(heading: 45)) == ["tell", "answer [3]"])
    }

    @Test func theLockHoldsTheLastInPlaneOrientation() {
        var state = Self.opened()
        _ = state.orientationDecided(.landscapeRight, at: 2)
        let (lock, actions) = state.setLock(true, at: 3)
        #expect(lock == RotationLock(locked: true, orientation: .landscapeRight))
        #expect(Self.kinds(actions) == ["tell", "deliver"])
        #expect(state.setLock(true, at: 4).0 == nil, "locking again changes nothing")
        _ = state.orientationDecided(.portrait, at: 5)
        #expect(state.update.driving == .landscapeRight && state.update.locked)
    }

    /// A subscription that wakes an ambient sensor starts from no value, and hears the first reading.
    @Test func aSubscriptionThatWakesAnAmbientSensorStartsFromNoValue() {
        var state = Self.opened()
        _ = state.ambientSensorChanged(.proximity, device: "prox", at: 1)
        _ = state.proximityRead(near: true, at: 2)
        #expect(state.subscriptionStart(asleep: []).proximity.value == Proximity(near: true))
        #expect(state.subscriptionStart(asleep: [.proximity]).proximity.value == nil)
        #expect(state.facts.proximityNear == true, "the hub keeps its value: the other views keep showing it")
        #expect(Self.kinds(state.proximityRead(near: true, at: 3)) == [], "read, unchanged, nobody woke it: no news")
        state.hold(.proximity, asleep: true)
        #expect(Self.kinds(state.proximityRead(near: true, at: 4)) == ["tell", "deliver"], "the first reading since it woke is news")
        #expect(Self.kinds(state.proximityRead(near: true, at: 5)) == [], "the next unchanged one is not")
    }
}
