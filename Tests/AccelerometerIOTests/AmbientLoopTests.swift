@testable import AccelerometerIO
import Testing

/// The ambient sensor thread's decisions, without a thread, a sensor or a clock.
@Suite struct AmbientLoopTests {
    private let light = AmbientLoop.Found(device: "iio:device1 (als)", sysname: "iio:device1", interval: 0.8)
    private let proximity = AmbientLoop.Found(device: "iio:device2 (prox)", sysname: "iio:device2", interval: 0.7, nearLevel: 128)

    /// Discovered both sensors at `time`, as at start, with nobody needing them: each is read
    /// once (7 lux, far), and the start is announced after those reads.
    private func started(at time: Double = 0) -> AmbientLoop {
        var loop = AmbientLoop()
        #expect(loop.next(at: time) == .discover)
        loop.discovered(light: light, proximity: proximity, refusals: [], at: time)
        #expect(loop.next(at: time) == .report(.lightAppeared(device: "iio:device1 (als)")))
        #expect(loop.next(at: time) == .report(.proximityAppeared(device: "iio:device2 (prox)")))
        #expect(loop.next(at: time) == .checkDemand)
        loop.demand(light: false, proximity: false, at: time)
        #expect(loop.next(at: time) == .read(.light), "read once when it appears, needed or not")
        loop.readFinished(.light, .value(7), at: time)
        #expect(loop.next(at: time) == .report(.lightLevel(7, unit: .lux)))
        #expect(loop.next(at: time) == .read(.proximity))
        loop.readFinished(.proximity, .value(0), at: time)
        #expect(loop.next(at: time) == .report(.proximity(near: false)))
        #expect(loop.next(at: time) == .announceStart, "after the first reads: what they read is known at start")
        return loop
    }

    @Test func presenceIsKnownBeforeTheStartWithNothingReadWithoutDemand() {
        var loop = started()
        #expect(loop.next(at: 0) == .sleep(until: .infinity), "no demand: asleep until woken, no periodic wake-ups")
        #expect(loop.next(at: 0) == .checkDemand, "a sleep that ended asks the demand again")
        loop.demand(light: false, proximity: false, at: 100)
        #expect(loop.next(at: 100) == .sleep(until: .infinity))
    }

    @Test func demandReadsAtOnceThenEveryIntervalAndItsEndStopsTheReads() {
        var loop = started()
        _ = loop.next(at: 0)
        loop.woken()
        #expect(loop.next(at: 5) == .checkDemand)
        loop.demand(light: true, proximity: false, at: 5)
        #expect(loop.next(at: 5) == .read(.light), "read at once when demand appears")
        loop.readFinished(.light, .value(120), at: 5.01)
        #expect(loop.next(at: 5.01) == .report(.lightLevel(120, unit: .lux)))
        #expect(loop.next(at: 5.01) == .sleep(until: 5.8), "then at its interval, on its grid")
        #expect(loop.next(at: 5.8) == .checkDemand, "the demand is asked before every read")
        loop.demand(light: true, proximity: false, at: 5.8)
        #expect(loop.next(at: 5.8) == .read(.light))
        loop.readFinished(.light, .value(120), at: 5.8)
        #expect(loop.next(at: 5.8) == .sleep(until: 6.6), "an unchanged level is not reported again")
        #expect(loop.next(at: 6.6) == .checkDemand)
        loop.demand(light: false, proximity: false, at: 6.6)
        #expect(loop.next(at: 6.6) == .sleep(until: .infinity), "released: nothing more is read")
    }

    @Test func aLevelIsReportedWhenItChangesAndOnTheFirstReadOfEveryDemand() {
        var loop = started()
        loop.demand(light: true, proximity: false, at: 1)
        #expect(loop.next(at: 1) == .read(.light))
        loop.readFinished(.light, .value(10), at: 1)
        #expect(loop.next(at: 1) == .report(.lightLevel(10, unit: .lux)))
        _ = loop.next(at: 1)
        #expect(loop.next(at: 1.8) == .checkDemand)
        loop.demand(light: true, proximity: false, at: 1.8)
        #expect(loop.next(at: 1.8) == .read(.light))
        loop.readFinished(.light, .value(11.5), at: 1.8)
        #expect(loop.next(at: 1.8) == .report(.lightLevel(11.5, unit: .lux)))
        // Released and claimed again: the same level is reported, for the new claimer.
        loop.demand(light: false, proximity: false, at: 2)
        loop.demand(light: true, proximity: false, at: 30)
        #expect(loop.next(at: 30) == .read(.light))
        loop.readFinished(.light, .value(11.5), at: 30)
        #expect(loop.next(at: 30) == .report(.lightLevel(11.5, unit: .lux)))
    }

    @Test func proximityGoesThroughItsDetectorAsTheIncumbentDecides() {
        var loop = started()
        loop.demand(light: false, proximity: true, at: 1)
        var reports: [AmbientLoop.Action] = []
        var time = 1.0
        for raw in [0.0, 130, 141, 120, 115, 256] {
            #expect(loop.next(at: time) == .read(.proximity))
            loop.readFinished(.proximity, .value(raw), at: time)
            for _ in 0..<3 {
                let action = loop.next(at: time)
                if case .sleep = action {
                    #expect(action == .sleep(until: time + 0.7))
                    break
                }
                reports.append(action)
            }
            time += 0.7
            #expect(loop.next(at: time) == .checkDemand)
            loop.demand(light: false, proximity: true, at: time)
        }
        // As iio-sensor-proxy decides (the margin follows the previous raw reading, level 128):
        // 0: far (first read, reported); 130 after 0 is not above 140.8; 141 after 130 is above
        // 115.2: near; 120 after 141 likewise; 115 after 120 is not above 140.8: far; 256: near.
        #expect(reports == [.report(.proximity(near: false)), .report(.proximity(near: true)),
                            .report(.proximity(near: false)), .report(.proximity(near: true))])
    }

    @Test func bothSensorsAreReadEachAtItsOwnInterval() {
        var loop = started()
        loop.demand(light: true, proximity: true, at: 0)
        #expect(loop.next(at: 0) == .read(.light))
        loop.readFinished(.light, .value(5), at: 0)
        #expect(loop.next(at: 0) == .report(.lightLevel(5, unit: .lux)))
        #expect(loop.next(at: 0) == .read(.proximity))
        loop.readFinished(.proximity, .value(0), at: 0)
        #expect(loop.next(at: 0) == .report(.proximity(near: false)))
        #expect(loop.next(at: 0) == .sleep(until: 0.7), "the sooner of the two")
    }

    @Test func aFailedReadIsLoggedOncePerRunAndReadingGoesOn() {
        var loop = started()
        loop.demand(light: true, proximity: false, at: 0)
        _ = loop.next(at: 0)
        loop.readFinished(.light, .failed(reason: "in_illuminance_input of iio:device1 (als) holds 'abc', not a number", gone: false), at: 0)
        #expect(loop.next(at: 0) == .warn("in_illuminance_input of iio:device1 (als) holds 'abc', not a number"))
        #expect(loop.next(at: 0) == .sleep(until: 0.8))
        _ = loop.next(at: 0.8)
        loop.demand(light: true, proximity: false, at: 0.8)
        #expect(loop.next(at: 0.8) == .read(.light))
        loop.readFinished(.light, .failed(reason: "garbage again", gone: false), at: 0.8)
        #expect(loop.next(at: 0.8) == .sleep(until: 1.6), "logged once, not on every poll")
        _ = loop.next(at: 1.6)
        loop.demand(light: true, proximity: false, at: 1.6)
        _ = loop.next(at: 1.6)
        loop.readFinished(.light, .value(3), at: 1.6)
        #expect(loop.next(at: 1.6) == .report(.lightLevel(3, unit: .lux)), "the first good read after demand started is reported")
    }

    @Test func aSensorWhoseFileVanishedIsGone() {
        var loop = started()
        loop.demand(light: true, proximity: false, at: 0)
        _ = loop.next(at: 0)
        loop.readFinished(.light, .failed(reason: "in_illuminance_input of iio:device1 (als) no longer exists", gone: true), at: 0)
        #expect(loop.next(at: 0) == .report(.lightGone(reason: "in_illuminance_input of iio:device1 (als) no longer exists")))
        #expect(loop.next(at: 0) == .sleep(until: .infinity), "a gone sensor is not read, demand or not")
        _ = loop.next(at: 1)
        loop.demand(light: true, proximity: false, at: 1)
        #expect(loop.next(at: 1) == .sleep(until: .infinity))
    }

    @Test func udevRemovingASensorMakesItGoneAtOnceAndAddingOneRediscovers() {
        var loop = started()
        loop.hotplug(HotplugEvent(action: .remove, sysname: "iio:device0"), at: 1)
        #expect(loop.next(at: 1) == .sleep(until: .infinity), "another device's removal changes nothing")
        loop.hotplug(HotplugEvent(action: .remove, sysname: "iio:device2"), at: 2)
        #expect(loop.next(at: 2) == .report(.proximityGone(reason: "iio:device2 was removed")))
        #expect(loop.next(at: 2) == .checkDemand, "no discovery that could still see it half there")
        loop.demand(light: false, proximity: true, at: 2)
        #expect(loop.next(at: 2) == .sleep(until: .infinity))

        loop.hotplug(HotplugEvent(action: .add, sysname: "iio:device2"), at: 3)
        #expect(loop.next(at: 3) == .discover)
        loop.discovered(light: light, proximity: proximity, refusals: [], at: 3)
        #expect(loop.next(at: 3) == .report(.proximityAppeared(device: "iio:device2 (prox)")), "the light sensor, still there, is not announced again")
        #expect(loop.next(at: 3) == .checkDemand)
        loop.demand(light: false, proximity: true, at: 3)
        #expect(loop.next(at: 3) == .read(.proximity), "demand held while it was gone: read at once")
    }

    @Test func aRediscoveryThatNoLongerFindsASensorReportsItGone() {
        var loop = started()
        loop.hotplug(HotplugEvent(action: .change, sysname: "iio:device1"), at: 1)
        #expect(loop.next(at: 1) == .discover)
        loop.discovered(light: nil, proximity: proximity, refusals: ["refusing the light sensor iio:device1 (als): ..."], at: 1)
        #expect(loop.next(at: 1) == .report(.lightGone(reason: "iio:device1 (als) is no longer found")))
        #expect(loop.next(at: 1) == .warn("refusing the light sensor iio:device1 (als): ..."))
        #expect(loop.next(at: 1) == .checkDemand)
    }

    @Test func aRefusalIsLoggedOnceNotAtEveryDiscovery() {
        var loop = AmbientLoop()
        _ = loop.next(at: 0)
        let refusal = "found proximity sensor iio:device2 (prox) but no PROXIMITY_NEAR_LEVEL udev property; ..."
        loop.discovered(light: nil, proximity: nil, refusals: [refusal], at: 0)
        #expect(loop.next(at: 0) == .warn(refusal))
        #expect(loop.next(at: 0) == .announceStart)
        loop.hotplug(HotplugEvent(action: .add, sysname: "iio:device0"), at: 1)
        #expect(loop.next(at: 1) == .discover)
        loop.discovered(light: nil, proximity: nil, refusals: [refusal], at: 1)
        #expect(loop.next(at: 1) == .checkDemand)
        // A hwdb update sets the level: the sensor appears.
        loop.hotplug(HotplugEvent(action: .change, sysname: "iio:device2"), at: 2)
        #expect(loop.next(at: 2) == .discover)
        loop.discovered(light: nil, proximity: proximity, refusals: [], at: 2)
        #expect(loop.next(at: 2) == .report(.proximityAppeared(device: "iio:device2 (prox)")))
    }

    /// A new near level changes no answer by itself; the next reading is judged against it.
    @Test func aNewNearLevelAppliesFromTheNextReading() {
        var loop = started()
        loop.demand(light: false, proximity: true, at: 0)
        _ = loop.next(at: 0)
        loop.readFinished(.proximity, .value(200), at: 0)
        #expect(loop.next(at: 0) == .report(.proximity(near: true)))
        loop.hotplug(HotplugEvent(action: .change, sysname: "iio:device2"), at: 0.1)
        #expect(loop.next(at: 0.1) == .discover)
        var raised = proximity
        raised.nearLevel = 300
        loop.discovered(light: light, proximity: raised, refusals: [], at: 0.1)
        #expect(loop.next(at: 0.1) == .checkDemand)
        loop.demand(light: false, proximity: true, at: 0.7)
        #expect(loop.next(at: 0.7) == .read(.proximity))
        loop.readFinished(.proximity, .value(280), at: 0.7)
        // The reading before, 200, was not above the new level: 280 must be above 330 to be near.
        #expect(loop.next(at: 0.7) == .report(.proximity(near: false)))
    }

    @Test func withoutSensorsTheStartIsAnnouncedAndNothingIsRead() {
        var loop = AmbientLoop()
        #expect(loop.next(at: 0) == .discover)
        loop.discovered(light: nil, proximity: nil, refusals: [], at: 0)
        #expect(loop.next(at: 0) == .announceStart)
        #expect(loop.next(at: 0) == .checkDemand)
        loop.demand(light: true, proximity: true, at: 0)
        #expect(loop.next(at: 0) == .sleep(until: .infinity))
    }
}

/// The compass in the ambient sensor thread: found beside the others, read only while claimed.
@Suite struct AmbientLoopCompassTests {
    private let compass = AmbientLoop.Found(device: "iio:device3 (magn_3d)", sysname: "iio:device3", interval: 0.7)

    @Test func theCompassIsFoundAtStartAndReadOnlyWhileClaimed() {
        var loop = AmbientLoop()
        #expect(loop.next(at: 0) == .discover)
        loop.discovered(light: nil, proximity: nil, compass: compass, refusals: [], at: 0)
        #expect(loop.next(at: 0) == .report(.compassAppeared(device: "iio:device3 (magn_3d)")))
        #expect(loop.next(at: 0) == .checkDemand)
        loop.demand(light: true, proximity: true, compass: false, at: 0)
        #expect(loop.next(at: 0) == .read(.compass), "read once when it appears")
        loop.readFinished(.compass, .value(90), at: 0)
        #expect(loop.next(at: 0) == .report(.compassHeading(90)))
        #expect(loop.next(at: 0) == .announceStart)
        #expect(loop.next(at: 0) == .sleep(until: .infinity), "unclaimed: not read again")
        #expect(loop.next(at: 3) == .checkDemand)
        loop.demand(light: false, proximity: false, compass: true, at: 3)
        #expect(loop.next(at: 3) == .read(.compass), "read at once when claimed")
        loop.readFinished(.compass, .value(123.5), at: 3)
        #expect(loop.next(at: 3) == .report(.compassHeading(123.5)))
        #expect(loop.next(at: 3) == .sleep(until: 3.7))
        #expect(loop.next(at: 3.7) == .checkDemand)
        loop.demand(light: false, proximity: false, compass: true, at: 3.7)
        #expect(loop.next(at: 3.7) == .read(.compass))
        loop.readFinished(.compass, .value(123.5), at: 3.7)
        #expect(loop.next(at: 3.7) == .sleep(until: 4.4), "an unchanged heading is not reported again")
        #expect(loop.next(at: 4.4) == .checkDemand)
        loop.demand(light: false, proximity: false, compass: true, at: 4.4)
        #expect(loop.next(at: 4.4) == .read(.compass))
        loop.readFinished(.compass, .failed(reason: "a heading of 400 degrees is not between 0 and 360", gone: false), at: 4.4)
        #expect(loop.next(at: 4.4) == .warn("a heading of 400 degrees is not between 0 and 360"), "an implausible heading is logged, not reported")
        #expect(loop.next(at: 4.4) == .sleep(until: 4.4 + 0.7), "on its grid after a failure too")
        #expect(loop.next(at: 5.1) == .checkDemand)
        loop.demand(light: false, proximity: false, compass: false, at: 5.1)
        #expect(loop.next(at: 5.1) == .sleep(until: .infinity), "released: nothing more is read")
    }

    @Test func aRemovedCompassIsGone() {
        var loop = AmbientLoop()
        _ = loop.next(at: 0)
        loop.discovered(light: nil, proximity: nil, compass: compass, refusals: [], at: 0)
        #expect(loop.next(at: 0) == .report(.compassAppeared(device: "iio:device3 (magn_3d)")))
        loop.hotplug(HotplugEvent(action: .remove, sysname: "iio:device3"), at: 1)
        #expect(loop.next(at: 1) == .report(.compassGone(reason: "iio:device3 was removed")))
        #expect(loop.next(at: 1) == .announceStart, "removed before its first read: the start is not held up")
        #expect(loop.next(at: 1) == .checkDemand)
        loop.demand(light: false, proximity: false, compass: true, at: 1)
        #expect(loop.next(at: 1) == .sleep(until: .infinity), "nothing left to read")
    }
}
