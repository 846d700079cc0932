import NIOConcurrencyHelpers
import OrientationCore
import OrientdProtocol
import Testing
@testable import OrientdHub

/// The hub as the one owner of what every view shows: a view other than the socket (the D-Bus
/// face) observes its facts, holds its sensors and waits on it for fresh readings, in process.
@Suite struct HubViewTests {
    /// What an observer was told, in order.
    final class Observed: Sendable {
        private let facts = NIOLockedValueBox<[HubFacts]>([])
        var all: [HubFacts] { facts.withLockedValue { $0 } }
        var last: HubFacts? { all.last }
        @Sendable func record(_ new: HubFacts) { facts.withLockedValue { $0.append(new) } }
    }

    /// Counts the calls of a freshness wait's continuation.
    final class Calls: Sendable {
        private let count = NIOLockedValueBox(0)
        var made: Int { count.withLockedValue { $0 } }
        @Sendable func call() { count.withLockedValue { $0 += 1 } }
    }

    @Test func anObserverIsToldTheFactsAtOnceAndAfterEveryChangeInOrder() {
        let harness = HubHarness()
        harness.hub.lightSensorChanged(device: "als")
        harness.hub.publishLight(level: 120.5, unit: .lux)
        let observed = Observed()
        harness.hub.observe(observed.record)
        #expect(observed.all.count == 1)
        #expect(observed.last?.lightAvailable == true && observed.last?.light == AmbientLight(level: 120.5, unit: .lux),
                "what was read before anyone observed is known at once")
        harness.sensorReads(.landscapeLeft)
        harness.hub.proximitySensorChanged(device: "prox")
        harness.hub.publishProximity(near: true)
        harness.hub.compassSensorChanged(device: "magn")
        harness.hub.publishCompass(heading: 271.5)
        let last = observed.last
        #expect(last?.accelerometerAvailable == true && last?.orientation == .landscapeLeft)
        #expect(last?.proximityAvailable == true && last?.proximityNear == true)
        #expect(last?.compassAvailable == true && last?.compassHeading == 271.5)
        #expect(observed.all.map(\.orientation) == [.unknown, .unknown, .landscapeLeft, .landscapeLeft, .landscapeLeft, .landscapeLeft, .landscapeLeft],
                "told after each change, in order: \(observed.all)")
        harness.hub.publishCompass(heading: 271.5)
        harness.hub.publishLight(level: 120.5, unit: .lux)
        #expect(observed.all.count == 7, "a reading that changes nothing is no news")
        harness.hub.hingeChanged(TabletModeDetector.State(angle: 180, tabletMode: false))
        #expect(observed.all.count == 7, "a change the observers do not show (the hinge) wakes none of them")
        harness.hub.compassSensorChanged(device: nil)
        #expect(observed.last?.compassAvailable == false && observed.last?.compassHeading == nil)
    }

    /// A held ambient sensor that slept is stale until its next reading; one read for someone
    /// else is fresh at once; one that is not there has no reading to wait for.
    @Test func anAmbientSensorIsFreshOnceReadAfterItWoke() {
        let harness = HubHarness()
        harness.hub.lightSensorChanged(device: "als")
        harness.hub.publishLight(level: 5, unit: .lux)
        harness.lightDemand.isReading = false
        harness.hub.hold(.light)
        #expect(harness.lightDemand.held == 1)
        let calls = Calls()
        harness.hub.whenFresh(.light, then: calls.call)
        #expect(calls.made == 0, "asleep until held: the value held may be stale")
        harness.lightDemand.isReading = true
        harness.hub.publishLight(level: 5, unit: .lux)
        #expect(calls.made == 1, "the first reading after it woke, changed or not")
        harness.hub.whenFresh(.light, then: calls.call)
        #expect(calls.made == 2, "read since it woke: at once")

        harness.hub.hold(.light)
        harness.hub.whenFresh(.light, then: calls.call)
        #expect(calls.made == 3, "read for someone else already")
        harness.hub.release(.light)
        harness.hub.release(.light)
        #expect(harness.lightDemand.held == 0)

        harness.hub.whenFresh(.proximity, then: calls.call)
        #expect(calls.made == 4, "no proximity sensor: nothing to wait for")
    }

    @Test func aSensorThatGoesAwayAnswersItsWaiters() {
        let harness = HubHarness()
        harness.hub.compassSensorChanged(device: "magn")
        harness.compassDemand.isReading = false
        harness.hub.hold(.compass)
        let calls = Calls()
        harness.hub.whenFresh(.compass, then: calls.call)
        harness.hub.whenFresh(.compass, then: calls.call)
        #expect(calls.made == 0)
        harness.hub.compassSensorChanged(device: nil)
        #expect(calls.made == 2)
        harness.hub.release(.compass)
        #expect(harness.compassDemand.held == 0)
    }

    /// The accelerometer's wait is the one `get` and `subscribe` use: fresh while read recently,
    /// else after the next reading (and the sensor is woken for it).
    @Test func theAccelerometersWaitIsTheSocketsWait() {
        let harness = HubHarness()
        harness.sensorReads(.portrait)
        let calls = Calls()
        harness.hub.whenFresh(.accelerometer, now: harness.now, then: calls.call)
        #expect(calls.made == 1, "read just now")
        harness.hub.sensorPaused()
        harness.hub.hold(.accelerometer)
        let requests = harness.demand.requests
        harness.hub.whenFresh(.accelerometer, now: harness.now, then: calls.call)
        #expect(calls.made == 1, "asleep: the wait goes on")
        #expect(harness.demand.requests == requests + 1, "and the sensor is woken for it")
        harness.hub.sensorRead(at: harness.now)
        #expect(calls.made == 2)
        harness.hub.release(.accelerometer)
        #expect(harness.demand.held == 0)
    }
}
