import OrientationCore
import OrientdProtocol
import Testing
@testable import OrientdHub

/// The proximity and ambient light sensors through the hub, in process: the test plays the
/// sensors (`proximitySensorChanged`, `publishProximity`, ...) and the clients.
@Suite struct AmbientSensorTests {
    private static let proximityOnly = #"{"id":1,"method":"subscribe","events":["proximityStateDidChange"]}"# + "\n"
    private static let lightOnly = #"{"id":1,"method":"subscribe","events":["ambientLightDidChange"]}"# + "\n"

    @Test func aProximitySubscriptionHoldsTheProximitySensorOnlyAndHearsOfChanges() throws {
        let harness = HubHarness()
        harness.hub.proximitySensorChanged(device: "iio:device2 (prox)")
        harness.hub.publishProximity(near: false)
        let client = try harness.connect()
        _ = try client.received()
        try client.send(Self.proximityOnly)
        let result = try #require(try client.received().first?["result"])
        #expect(result["proximityAvailable"] == .bool(true))
        #expect(result["proximityState"] == .bool(false))
        #expect(result["sensorAvailable"] == nil, "no accelerometer member without an accelerometer event")
        #expect(harness.proximityDemand.held == 1)
        #expect(harness.lightDemand.holds == 0)
        #expect(harness.demand.holds == 0 && harness.demand.requests == 0, "the accelerometer is not woken")

        harness.hub.publishProximity(near: true)
        harness.hub.publishProximity(near: true)
        harness.loop.run()
        let events = try client.received()
        #expect(events.count == 1, "a reading that changes nothing is no event: \(events)")
        #expect(events.first?["event"] == .string("proximityStateDidChange"))
        #expect(events.first?["proximityState"] == .bool(true))
        #expect(harness.hub.proximityNear == true)

        try client.send(#"{"id":2,"method":"unsubscribe"}"# + "\n")
        #expect(harness.proximityDemand.held == 0)
        harness.hub.publishProximity(near: false)
        harness.loop.run()
        #expect(try client.received().map(\.id) == [.integer(2)], "nothing after the unsubscribe reply")
    }

    @Test func aLightSubscriptionHoldsTheLightSensorUntilTheClientLeaves() throws {
        let harness = HubHarness()
        harness.hub.lightSensorChanged(device: "iio:device1 (als)")
        let client = try harness.connect()
        try client.send(Self.lightOnly)
        let result = try #require(try client.received().last?["result"])
        #expect(result["lightAvailable"] == .bool(true))
        #expect(result["ambientLight"] == nil, "no level read yet")
        #expect(harness.lightDemand.held == 1)
        #expect(harness.proximityDemand.holds == 0 && harness.demand.holds == 0)

        harness.hub.publishLight(level: 12.504, unit: .lux)
        harness.loop.run()
        let event = try #require(try client.received().first)
        #expect(event["event"] == .string("ambientLightDidChange"))
        #expect(event["level"] == .number(12.5))
        #expect(event["unit"] == .string("lux"))

        try client.channel.close().wait()
        harness.loop.run()
        #expect(harness.lightDemand.held == 0)
        #expect(harness.hub.status(clients: 0).subscribers == 0)
    }

    @Test func orientationAndLockSubscriptionsHoldNoAmbientSensorAndHearNothingOfThem() throws {
        let harness = HubHarness()
        harness.sensorReads(.portrait)
        harness.hub.proximitySensorChanged(device: "prox")
        harness.hub.lightSensorChanged(device: "als")
        let orientation = try harness.connect()
        try orientation.send(#"{"id":1,"method":"subscribe"}"# + "\n")
        let lock = try harness.connect()
        try lock.send(#"{"id":1,"method":"subscribe","events":["rotationLockDidChange"]}"# + "\n")
        _ = try orientation.received() + lock.received()
        #expect(harness.proximityDemand.holds == 0 && harness.lightDemand.holds == 0)
        #expect(harness.demand.held == 1)

        harness.hub.publishProximity(near: true)
        harness.hub.publishLight(level: 300, unit: .lux)
        harness.hub.proximitySensorChanged(device: nil)
        harness.loop.run()
        #expect(try orientation.received().isEmpty)
        #expect(try lock.received().isEmpty)
    }

    @Test func anAmbientSubscriberHearsNothingOfTheOrientation() throws {
        let harness = HubHarness()
        harness.sensorReads(.portrait)
        harness.hub.lightSensorChanged(device: "als")
        let client = try harness.connect()
        try client.send(Self.lightOnly)
        _ = try client.received()
        harness.hub.publish(.landscapeLeft, at: 2)
        harness.hub.sensorLost(reason: "removed")
        harness.loop.run()
        #expect(try client.received().isEmpty)
    }

    @Test func bothSensorsAndTheAccelerometerAreHeldTogetherAndReleasedTogether() throws {
        let harness = HubHarness()
        harness.sensorReads(.portrait)
        let client = try harness.connect()
        try client.send(#"{"id":1,"method":"subscribe","events":["deviceOrientationDidChange","proximityStateDidChange","ambientLightDidChange"]}"# + "\n")
        let result = try #require(try client.received().last?["result"])
        #expect(result["sensorAvailable"] == .bool(true))
        #expect(result["proximityAvailable"] == .bool(false))
        #expect(result["lightAvailable"] == .bool(false))
        #expect([harness.demand.held, harness.proximityDemand.held, harness.lightDemand.held] == [1, 1, 1])
        try client.send(#"{"id":2,"method":"subscribe","events":["ambientLightDidChange"]}"# + "\n")
        #expect([harness.demand.held, harness.proximityDemand.held, harness.lightDemand.held] == [0, 0, 1],
                "subscribing again replaces what is held")
        try client.send(#"{"id":3,"method":"unsubscribe"}"# + "\n")
        #expect([harness.demand.held, harness.proximityDemand.held, harness.lightDemand.held] == [0, 0, 0])
    }

    @Test func aSensorComingAndGoingIsToldWithWhy() throws {
        let harness = HubHarness()
        let client = try harness.connect()
        try client.send(Self.proximityOnly)
        let result = try #require(try client.received().last?["result"])
        #expect(result["proximityAvailable"] == .bool(false))
        #expect(result["proximityState"] == nil)

        harness.hub.publishProximity(near: true)
        harness.loop.run()
        #expect(try client.received().isEmpty, "a reading without a sensor is ignored")

        harness.hub.proximitySensorChanged(device: "iio:device2 (prox)")
        harness.hub.publishProximity(near: true)
        harness.loop.run()
        let came = try client.received()
        #expect(came.map { $0["event"]?.stringValue } == ["sensorAvailability", "proximityStateDidChange"])
        #expect(came.first?["sensor"] == .string("proximity"))
        #expect(came.first?["available"] == .bool(true))
        #expect(came.first?["device"] == .string("iio:device2 (prox)"))

        harness.hub.proximitySensorChanged(device: nil)
        harness.loop.run()
        let went = try #require(try client.received().first)
        #expect(went["event"] == .string("sensorAvailability"))
        #expect(went["available"] == .bool(false))
        #expect(went["reason"]?.stringValue?.contains("no proximity sensor") == true)
        #expect(harness.hub.proximityNear == nil)

        // The same state after it comes back is news: the client was told it is unknown.
        harness.hub.proximitySensorChanged(device: "iio:device2 (prox)")
        harness.hub.publishProximity(near: true)
        harness.loop.run()
        #expect(try client.received().last?["proximityState"] == .bool(true))
    }

    @Test func statusDescribesBothSensorsAndTheirValuesWhileRead() throws {
        let harness = HubHarness()
        var status = harness.hub.status(clients: 0)
        #expect(status.light == LightSensorStatus(available: false, device: "none", reading: false))
        #expect(status.proximity == ProximitySensorStatus(available: false, device: "none", reading: false))

        harness.hub.lightSensorChanged(device: "als")
        harness.hub.publishLight(level: 40, unit: .vendor)
        harness.hub.proximitySensorChanged(device: "prox")
        harness.hub.publishProximity(near: false)
        status = harness.hub.status(clients: 0)
        #expect(status.light == LightSensorStatus(available: true, device: "als", reading: true, light: AmbientLight(level: 40, unit: .vendor)))
        #expect(status.proximity == ProximitySensorStatus(available: true, device: "prox", reading: true, proximityState: false))

        // Asleep, the last values may be stale: left out.
        harness.lightDemand.isReading = false
        harness.proximityDemand.isReading = false
        status = harness.hub.status(clients: 0)
        #expect(status.light == LightSensorStatus(available: true, device: "als", reading: false))
        #expect(status.proximity == ProximitySensorStatus(available: true, device: "prox", reading: false))
        #expect(harness.hub.ambientLight == nil && harness.hub.proximityNear == nil)

        // Through the socket too, as the main hub's status.
        let client = try harness.connect()
        try client.send(#"{"id":"s","method":"status"}"# + "\n")
        let result = try #require(try client.received().last?["result"])
        #expect(result["light"] == .object(["available": .bool(true), "device": .string("als"), "reading": .bool(false)]))
        #expect(result["proximity"]?["device"] == .string("prox"))
    }

    @Test func aSubscriberThatWakesTheSensorIsToldOfTheFirstReadingEvenIfItMatchesTheLastOne() throws {
        let harness = HubHarness()
        harness.hub.proximitySensorChanged(device: "prox")
        harness.hub.publishProximity(near: true)
        harness.proximityDemand.isReading = false
        let client = try harness.connect()
        try client.send(Self.proximityOnly)
        let result = try #require(try client.received().last?["result"])
        #expect(result["proximityState"] == nil, "a value from before the sensor slept is not reported")

        harness.proximityDemand.isReading = true
        harness.hub.publishProximity(near: true)
        harness.loop.run()
        #expect(try client.received().map { $0["proximityState"] } == [.bool(true)])
    }

    @Test func aSlowReaderEndsWithTheLatestValueOnly() throws {
        let harness = HubHarness()
        harness.hub.lightSensorChanged(device: "als")
        let client = try harness.connect()
        try client.send(Self.lightOnly)
        _ = try client.received()
        client.stallReading()
        for level in [1.0, 2, 3, 4] { harness.hub.publishLight(level: level, unit: .lux) }
        harness.loop.run()
        client.resumeReading()
        #expect(try client.received().map { $0["level"] } == [.integer(4)])
    }

    /// The ambient sensors are the main hub's: a subscription to another context finds none.
    @Test func aSubscriptionToAnotherContextFindsNoAmbientSensor() throws {
        let harness = HubHarness(otherContext: "ip:192.0.2.7")
        harness.hub.proximitySensorChanged(device: "prox")
        let client = try harness.connect()
        try client.send(#"{"id":1,"method":"subscribe","device":"ip:192.0.2.7","events":["proximityStateDidChange"]}"# + "\n")
        let result = try #require(try client.received().last?["result"])
        #expect(result["proximityAvailable"] == .bool(false))
        #expect(harness.proximityDemand.holds == 0)
        try client.send(#"{"id":2,"method":"status"}"# + "\n")
        #expect(try client.received().last?["result"]?["proximity"]?["available"] == .bool(true), "status is the main hub's")
    }

    @Test func aLevelThatIsNoNumberIsIgnored() throws {
        let harness = HubHarness()
        harness.hub.lightSensorChanged(device: "als")
        harness.hub.publishLight(level: 5, unit: .lux)
        harness.hub.publishLight(level: .nan, unit: .lux)
        harness.hub.publishLight(level: -.infinity, unit: .lux)
        #expect(harness.hub.ambientLight == AmbientLight(level: 5, unit: .lux))
    }
}
