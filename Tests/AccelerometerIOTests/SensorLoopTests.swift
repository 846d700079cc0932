@testable import AccelerometerIO
import Testing

/// The sensor thread's decisions, without a thread, a sensor or a clock.
@Suite struct SensorLoopTests {
    private let period = 0.04

    private func loop(heartbeat: Double? = nil) -> SensorLoop {
        SensorLoop(settings: SensorLoop.Settings(period: period, heartbeatInterval: heartbeat))
    }

    /// Opens at `time` and takes the first reading, as at start.
    private func started(at time: Double = 0) -> SensorLoop {
        var loop = loop()
        #expect(loop.next(at: time) == .open)
        loop.opened(sysnames: ["iio:device0"], at: time)
        #expect(loop.next(at: time) == .read)
        loop.readFinished(displayFailure: nil, at: time)
        #expect(loop.next(at: time) == .announceStart(opened: true))
        return loop
    }

    @Test func theFirstReadingIsTakenWhateverTheDemandThenOnePerPeriodWhileNeeded() {
        var loop = started()
        #expect(loop.next(at: 0.001) == .checkDemand)
        loop.demand(needed: true, at: 0.001)
        #expect(loop.next(at: 0.001) == .sleep(until: period))
        #expect(loop.next(at: period) == .read)
        loop.readFinished(displayFailure: nil, at: period + 0.002)
        #expect(loop.next(at: period + 0.002) == .checkDemand)
        loop.demand(needed: true, at: period + 0.002)
        #expect(loop.next(at: period + 0.002) == .sleep(until: 2 * period), "reads keep to the period's grid")
    }

    @Test func withNoDemandItSleepsUntilWokenAndReadsAtOnceWhenNeeded() {
        var loop = started()
        #expect(loop.next(at: 0.01) == .checkDemand)
        loop.demand(needed: false, at: 0.01)
        #expect(loop.next(at: 0.01) == .pause)
        #expect(loop.next(at: 0.01) == .sleep(until: .infinity))
        #expect(loop.next(at: 50) == .sleep(until: .infinity), "nothing is read while nobody needs it")
        loop.woken()
        #expect(loop.next(at: 60) == .checkDemand)
        loop.demand(needed: true, at: 60)
        #expect(loop.next(at: 60) == .resume)
        #expect(loop.next(at: 60) == .read)
    }

    @Test func heartbeatsComeWhileAsleepToo() {
        var loop = SensorLoop(settings: SensorLoop.Settings(period: period, heartbeatInterval: 5))
        #expect(loop.next(at: 0) == .beat)
        #expect(loop.next(at: 0) == .open)
        loop.opened(sysnames: ["iio:device0"], at: 0)
        #expect(loop.next(at: 0) == .read)
        loop.readFinished(displayFailure: nil, at: 0)
        #expect(loop.next(at: 0) == .announceStart(opened: true))
        #expect(loop.next(at: 0) == .checkDemand)
        loop.demand(needed: false, at: 0)
        #expect(loop.next(at: 0) == .pause)
        #expect(loop.next(at: 0) == .sleep(until: 5))
        #expect(loop.next(at: 5) == .beat)
        #expect(loop.next(at: 5) == .sleep(until: 10))
    }

    @Test func withoutASensorItRetriesWithADelayThatDoublesToTheCap() {
        var loop = loop()
        var time = 0.0
        var delays: [Double] = []
        for attempt in 0..<6 {
            #expect(loop.next(at: time) == .open)
            loop.openFailed(reason: "no accelerometer", at: time)
            #expect(loop.next(at: time) == .openFailed(reason: "no accelerometer", announce: attempt == 0, log: attempt == 0))
            if attempt == 0 { #expect(loop.next(at: time) == .announceStart(opened: false)) }
            guard case .sleep(let until) = loop.next(at: time) else { Issue.record("expected a sleep"); return }
            delays.append(until - time)
            time = until
        }
        #expect(delays == [1, 2, 4, 8, 10, 10])
    }

    @Test func anotherFailureIsLoggedOnceEach() {
        var loop = loop()
        loop.openFailed(reason: "a", at: 0)
        #expect(loop.next(at: 0) == .openFailed(reason: "a", announce: true, log: true))
        loop.openFailed(reason: "b", at: 1)
        #expect(loop.next(at: 1) == .openFailed(reason: "b", announce: false, log: true))
    }

    @Test func udevAddingADeviceReopensAtOnce() {
        var loop = loop()
        loop.openFailed(reason: "no accelerometer", at: 0)
        _ = loop.next(at: 0)
        _ = loop.next(at: 0)
        #expect(loop.next(at: 0.5) == .sleep(until: 1))
        loop.hotplug(HotplugEvent(action: .add, sysname: "iio:device3"), at: 0.5)
        #expect(loop.next(at: 0.5) == .open)
    }

    @Test func aChangeWithNoSensorOpenRetriesAtOnce() {
        var loop = loop()
        loop.openFailed(reason: "refusing the accelerometer: its scale is 'nan'", at: 0)
        _ = loop.next(at: 0)
        _ = loop.next(at: 0)
        #expect(loop.next(at: 0.5) == .sleep(until: 1))
        loop.hotplug(HotplugEvent(action: .change, sysname: "iio:device0"), at: 0.5)
        #expect(loop.next(at: 0.5) == .open, "a refused sensor may have been fixed")
    }

    /// A reload with new [Device] settings: an open sensor is closed quietly and reopened at once
    /// (with the new matrix); with none open, the next try comes at once.
    @Test func newDeviceSettingsReopenAtOnce() {
        var open = started()
        open.reconfigure(at: 1)
        #expect(open.next(at: 1) == .close(.reconfigured, announce: false))
        #expect(open.next(at: 1) == .open)

        var closed = loop()
        closed.openFailed(reason: "no accelerometer", at: 0)
        _ = closed.next(at: 0)
        _ = closed.next(at: 0)
        #expect(closed.next(at: 0.5) == .sleep(until: 1))
        closed.reconfigure(at: 0.5)
        #expect(closed.next(at: 0.5) == .open)
    }

    @Test func removingTheOnlySensorLosesItAndTheFirstRetryIsQuiet() {
        var loop = started()
        loop.hotplug(HotplugEvent(action: .remove, sysname: "iio:device0"), at: 1)
        #expect(loop.next(at: 1) == .close(.removed(sysname: "iio:device0"), announce: true))
        #expect(loop.next(at: 1) == .sleep(until: 2), "not at once: the device may be half gone")
        #expect(loop.next(at: 2) == .open)
        loop.openFailed(reason: "no accelerometer", at: 2)
        #expect(loop.next(at: 2) == .openFailed(reason: "no accelerometer", announce: false, log: false))
        #expect(loop.next(at: 2) == .sleep(until: 3))
        loop.hotplug(HotplugEvent(action: .add, sysname: "iio:device0"), at: 2.5)
        #expect(loop.next(at: 2.5) == .open, "udev's add reopens at once")
    }

    @Test func anotherDevicesEventsAreNotOurs() {
        var loop = started()
        loop.hotplug(HotplugEvent(action: .remove, sysname: "iio:device7"), at: 1)
        loop.hotplug(HotplugEvent(action: .change, sysname: "iio:device7"), at: 1)
        #expect(loop.next(at: 1) == .checkDemand)
    }

    @Test func aChangedSensorIsReopenedWithoutBeingLost() {
        var loop = started()
        loop.hotplug(HotplugEvent(action: .change, sysname: "iio:device0"), at: 1)
        #expect(loop.next(at: 1) == .close(.udev(.change, sysname: "iio:device0"), announce: false))
        #expect(loop.next(at: 1) == .open)
        let wasLost = loop.opened(sysnames: ["iio:device0"], at: 1)
        #expect(!wasLost, "nobody was told it was lost")
    }

    @Test func readsThatFailForTwoSecondsCloseTheSensor() {
        var loop = started()
        var time = 0.0
        for step in 1...51 {  // failing from 0.04 s to 2.04 s
            time = Double(step) * period
            loop.readFinished(displayFailure: "in_accel_x_raw: No such device", at: time)
            if step == 50 { #expect(loop.next(at: time) == .checkDemand, "1.96 s of failures close nothing") }
        }
        #expect(loop.next(at: time) == .close(.failingReads("in_accel_x_raw: No such device"), announce: true))
        #expect(loop.next(at: time) == .open)
        let wasLost = loop.opened(sysnames: ["iio:device0"], at: time)
        #expect(wasLost, "it comes back as a lost sensor")
    }

    @Test func aGoodReadEndsTheFailingSpell() {
        var loop = started()
        loop.readFinished(displayFailure: "x", at: 0.5)
        loop.readFinished(displayFailure: nil, at: 1.9)
        loop.readFinished(displayFailure: "x", at: 2.6)
        #expect(loop.next(at: 2.6) == .checkDemand, "1.9 s of failures spread over a good read close nothing")
    }
}
