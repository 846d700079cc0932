@testable import AccelerometerIO
import OrientationCore
import Testing

/// A still device watched by its accelerometer's motion event (`SensorLoop` opened with a watch):
/// nothing is read while it is still, but for a safety read; the event, a client's request, a
/// resume or a failed watch bring reads back. Every effect on the watch is an action.
@Suite struct SensorLoopMotionWatchTests {
    private let pace = SamplingPace.Settings(stillRate: 3, motionThreshold: 1, stillAfterMs: 1500, safetyReadSeconds: 20)
    private let portrait = Vector3(0, -9.80665, 0)
    private let landscape = Vector3(-9.80665, 0, 0)

    /// What the poller saw, in order.
    private enum Step: Equatable {
        case read(Double)
        case armed(Double)
        case waited(until: Double)
        case pace(SamplingPace.Rate, Double)
        case missed(givingUp: Bool, Double)
    }

    private func started(motionEvents: Bool = true, traits: SensorLoop.WatchTraits = .motionEvent,
                         pace: SamplingPace.Settings? = nil) -> SensorLoop {
        var loop = SensorLoop(settings: SensorLoop.Settings(period: 0.04, pace: pace ?? self.pace))
        #expect(loop.next(at: 0) == .open)
        loop.opened(sysnames: ["iio:device0"], watch: motionEvents ? traits : nil, at: 0)
        #expect(loop.next(at: 0) == .read)
        loop.displaySample(portrait, at: 0, deciding: false)
        loop.readFinished(displayFailure: nil, at: 0)
        #expect(loop.next(at: 0) == .announceStart(opened: true))
        return loop
    }

    /// Runs the loop as the poller would until `end`: the device reads `vector(time)`, arming
    /// succeeds unless `armingFails`, and the motion event fires at the times of `motion` (a sleep
    /// on it ends there).
    private func run(_ loop: inout SensorLoop, until end: Double, from start: Double = 0, motion: [Double] = [],
                     armingFails: Bool = false, vector: (Double) -> Vector3) -> [Step] {
        var now = start
        var steps: [Step] = []
        var motion = motion
        while now < end {
            switch loop.next(at: now) {
            case .checkDemand: loop.demand(needed: true, at: now)
            case .read:
                steps.append(.read(now))
                loop.displaySample(vector(now), at: now, deciding: false)
                loop.readFinished(displayFailure: nil, at: now)
            case .sleep(let until): now = until
            case .paceChanged(let rate): steps.append(.pace(rate, now))
            case .motionEventMissed: steps.append(.missed(givingUp: false, now))
            case .dropWatch(.keepsMissing): steps.append(.missed(givingUp: true, now))
            case .watchEnded, .releaseCapture, .interruptWatch, .dropWatch(.failed), .dropWatch(.wakesWithoutMotion): break
            case .armMotionWatch:
                if armingFails {
                    loop.motionWatchFailed(reason: "refused", at: now)
                } else {
                    steps.append(.armed(now))
                    loop.motionWatchArmed(at: now)
                }
            case .waitForMotion(let until):
                steps.append(.waited(until: until))
                if let next = motion.first, next < until {
                    motion.removeFirst()
                    now = max(now, next)
                    loop.motionSeen(at: now)
                } else {
                    now = until
                }
            case let other: Issue.record("unexpected \(other)"); return steps
            }
        }
        return steps
    }

    private func reads(_ steps: [Step]) -> [Double] {
        steps.compactMap { if case .read(let time) = $0 { time } else { nil } }
    }

    @Test func aStillDeviceIsNotReadButForTheSafetyRead() {
        var loop = started()
        let steps = run(&loop, until: 62) { _ in portrait }
        let still = reads(steps).filter { $0 > 2 }
        #expect(still.count == 3, "a safety read every 20 s once still: \(still)")
        #expect(zip(still, still.dropFirst()).allSatisfy { abs($1 - $0 - 20) < 0.1 })
        #expect(steps.contains { if case .pace(.still, _) = $0 { true } else { false } })
        #expect(loop.isWatchingMotion)
    }

    @Test func theMotionEventBringsAReadAtOnceAndTheFullRate() throws {
        var loop = started()
        let turnedAt = 30.0
        let steps = run(&loop, until: 33, motion: [turnedAt]) { $0 >= turnedAt ? landscape : portrait }
        let after = reads(steps).filter { $0 >= turnedAt }
        #expect(after.first == turnedAt, "read the moment the event fires")
        let fullRate = after.filter { $0 < turnedAt + 1.5 }
        #expect(fullRate.count >= 37, "25 a second for the quiet period after the turn: \(fullRate.count)")
        #expect(steps.contains(.pace(.full, turnedAt)))
        #expect(after.filter { $0 > turnedAt + 1.6 }.isEmpty, "still again: watched, not read")
        #expect(loop.isWatchingMotion)
    }

    @Test func theMotionEventTellsThePipelineFirst() {
        var loop = started()
        _ = run(&loop, until: 5) { _ in portrait }
        loop.motionSeen(at: 5)
        #expect(loop.next(at: 5) == .watchEnded(at: 5, byMotion: true))
        #expect(loop.next(at: 5) == .paceChanged(.full))
        #expect(loop.next(at: 5) == .read)
    }

    @Test func theDeviceIsWatchedAgainOnceStillAfterTheMotion() {
        var loop = started()
        let steps = run(&loop, until: 40, motion: [10]) { _ in portrait }
        let armings = steps.compactMap { if case .armed(let time) = $0 { time } else { nil } }
        #expect(armings.count == 3, "armed once still, again after the event, again after the safety read: \(armings)")
        #expect(armings.dropFirst().first.map { $0 > 11.4 && $0 < 11.7 } == true, "1.5 s after the event's read: \(armings)")
        #expect(loop.isWatchingMotion)
    }

    @Test func aClientsRequestReadsOnceAndWatchesAgain() {
        var loop = started()
        _ = run(&loop, until: 5) { _ in portrait }
        #expect(loop.isWatchingMotion)
        loop.readingRequested(at: 5)
        #expect(loop.next(at: 5) == .interruptWatch(readRaw: true), "disarmed, and the raw attributes read: the buffer was released")
        #expect(loop.next(at: 5) == .watchEnded(at: 5, byMotion: false), "the pipeline hears the device was still until the request")
        #expect(loop.next(at: 5) == .read)
        loop.displaySample(portrait, at: 5, deciding: false)
        loop.readFinished(displayFailure: nil, at: 5)
        #expect(loop.next(at: 5) == .releaseCapture, "the buffer goes before the event's descriptor is asked for")
        #expect(loop.next(at: 5) == .armMotionWatch, "still: watched again at once")
    }

    @Test func aWatchThatCannotBeArmedFallsBackToTheStillRate() {
        var loop = started()
        let steps = run(&loop, until: 10, armingFails: true) { _ in portrait }
        let still = reads(steps).filter { $0 > 3 }
        #expect(still.count >= 20, "3 reads a second: \(still.count)")
        #expect(!steps.contains { if case .waited = $0 { true } else { false } })
    }

    @Test func aWatchThatFailsWhileArmedReadsAtOnce() {
        var loop = started()
        _ = run(&loop, until: 5) { _ in portrait }
        loop.motionWatchFailed(reason: "the descriptor failed", at: 5)
        #expect(!loop.isWatchingMotion)
        #expect(loop.next(at: 5) == .dropWatch(.failed(reason: "the descriptor failed")))
        #expect(loop.next(at: 5) == .read)
    }

    @Test func aDeviceWithoutMotionEventsIsPolledAtTheStillRate() {
        var loop = started(motionEvents: false)
        let steps = run(&loop, until: 10) { _ in portrait }
        #expect(!steps.contains { if case .armed = $0 { true } else { false } })
        #expect(reads(steps).filter { $0 > 3 }.count >= 20)
    }

    @Test func safetyReadSecondsZeroNeverWatches() {
        var settings = pace
        settings.safetyReadSeconds = 0
        var loop = started(pace: settings)
        let steps = run(&loop, until: 10) { _ in portrait }
        #expect(!steps.contains { if case .armed = $0 { true } else { false } })
    }

    @Test func theHeartbeatEndsTheWaitOnMotion() {
        var loop = SensorLoop(settings: SensorLoop.Settings(period: 0.04, pace: pace, heartbeatInterval: 5))
        #expect(loop.next(at: 0) == .beat)
        #expect(loop.next(at: 0) == .open)
        loop.opened(sysnames: ["iio:device0"], watch: .motionEvent, at: 0)
        var now = 0.0
        var waits: [Double] = []
        while now < 30 {
            switch loop.next(at: now) {
            case .read:
                loop.displaySample(portrait, at: now, deciding: false)
                loop.readFinished(displayFailure: nil, at: now)
            case .checkDemand: loop.demand(needed: true, at: now)
            case .sleep(let until): now = until
            case .armMotionWatch: loop.motionWatchArmed(at: now)
            case .waitForMotion(let until):
                waits.append(until - now)
                now = until
            case .beat, .announceStart, .paceChanged, .watchEnded, .releaseCapture, .interruptWatch: break
            case let other: Issue.record("unexpected \(other)"); return
            }
        }
        #expect(!waits.isEmpty && waits.allSatisfy { $0 <= 5 + 1e-9 }, "\(waits)")
    }

    /// The unit's watchdog (90 s, a beat every 22.5 s): the beats ride on the safety reads, so a
    /// watched still device wakes once every 20 s, and no beat is ever late.
    @Test func theWatchdogsBeatsRideOnTheSafetyReads() {
        var loop = SensorLoop(settings: SensorLoop.Settings(period: 0.04, pace: pace, heartbeatInterval: 22.5))
        var now = 0.0
        var beats: [Double] = []
        var wakes = 0
        while now < 400 {
            switch loop.next(at: now) {
            case .read:
                loop.displaySample(portrait, at: now, deciding: false)
                loop.readFinished(displayFailure: nil, at: now)
            case .open: loop.opened(sysnames: ["iio:device0"], watch: .motionEvent, at: now)
            case .checkDemand: loop.demand(needed: true, at: now)
            case .sleep(let until): now = until
            case .armMotionWatch: loop.motionWatchArmed(at: now)
            case .waitForMotion(let until):
                if now > 100 { wakes += 1 }
                now = until
            case .beat: beats.append(now)
            case .announceStart, .paceChanged, .watchEnded, .releaseCapture, .interruptWatch: break
            case let other: Issue.record("unexpected \(other)"); return
            }
        }
        let gaps = zip(beats, beats.dropFirst()).map { $1 - $0 }
        #expect(gaps.allSatisfy { $0 <= 22.5 + 1e-9 }, "\(gaps)")
        #expect(wakes <= 16, "one wake-up per safety read after 100 s: \(wakes) in 300 s")
    }

    @Test func pausingForWantOfClientsDisarmsTheWatch() {
        var loop = started()
        _ = run(&loop, until: 5) { _ in portrait }
        loop.woken()
        #expect(loop.next(at: 5) == .checkDemand)
        loop.demand(needed: false, at: 5)
        #expect(loop.next(at: 5) == .pause)
        #expect(!loop.isWatchingMotion)
        loop.woken()
        #expect(loop.next(at: 6) == .checkDemand)
        loop.demand(needed: true, at: 6)
        #expect(loop.next(at: 6) == .resume)
        #expect(loop.next(at: 6) == .read, "reading resumes at once, at the full rate")
    }

    private func misses(_ steps: [Step]) -> [Step] {
        steps.filter { if case .missed = $0 { true } else { false } }
    }

    /// The device turned with no event (a lost interrupt): the safety read catches the turn and
    /// counts one miss; it stays watched.
    @Test func aSafetyReadThatFindsTheDeviceMovedCountsAMiss() {
        var loop = started()
        let steps = run(&loop, until: 30) { $0 >= 10 ? landscape : portrait }
        #expect(reads(steps).contains { $0 > 21 && $0 < 22 }, "the safety read 20 s after arming sees the turn")
        #expect(misses(steps).count == 1, "\(misses(steps))")
        #expect(misses(steps).allSatisfy { if case .missed(false, _) = $0 { true } else { false } })
        #expect(loop.isWatchingMotion, "one miss is not enough to give up the event")
    }

    /// Two turns in a row that only the safety read saw: the event is never raised (no IRQ);
    /// the still device is read at the still rate from then on.
    @Test func twoMissesInARowFallBackToTheStillRate() {
        var loop = started()
        let steps = run(&loop, until: 80) { time in
            time >= 45 ? portrait : time >= 10 ? landscape : portrait
        }
        let missed = misses(steps)
        #expect(missed.count == 2, "\(missed)")
        if case .missed(let givingUp, _)? = missed.last { #expect(givingUp) }
        #expect(!loop.isWatchingMotion)
        let lastMiss: Double = if case .missed(_, let time)? = missed.last { time } else { 80 }
        #expect(reads(steps).filter { $0 > lastMiss + 2 }.count >= 20, "read 3 times a second after giving up")
        #expect(!steps.contains { if case .armed(let time) = $0 { time > lastMiss } else { false } })
    }

    /// Issue 43, point 8: a turn too slow for the slope detector, then one it sees, then another
    /// slow one. The event between does not excuse the misses (it reset them, so slow turns cost
    /// a safety-read period each for ever): the second miss gives the watch up.
    @Test func anEventBetweenMissesDoesNotExcuseThem() {
        var loop = started()
        let steps = run(&loop, until: 75, motion: [30]) { time in
            time >= 40 ? portrait : time >= 10 ? landscape : portrait
        }
        let missed = misses(steps)
        #expect(missed.count == 2, "\(missed)")
        if case .missed(let givingUp, _)? = missed.last { #expect(givingUp, "\(missed)") }
        #expect(!loop.isWatchingMotion, "a chip that keeps missing is polled")
    }

    /// Each missed turn costs at most one safety-read period: the turn at 10 s is read by 21 s.
    @Test func aMissedTurnIsReadWithinOneSafetyReadPeriod() {
        var loop = started()
        let steps = run(&loop, until: 40) { $0 >= 10 ? landscape : portrait }
        let firstAfter = reads(steps).first { $0 >= 10 }
        #expect(firstAfter.map { $0 - 10 <= 20 } == true, "\(String(describing: firstAfter))")
    }

    /// A watch that wakes orientd with the device still (a hub ignoring its change sensitivity,
    /// a threshold under the table's vibrations), five times in a row, is given up for the still
    /// rate; wakes that find motion never count.
    @Test func aWatchThatKeepsWakingWithoutMotionIsGivenUp() {
        var loop = started()
        let steps = run(&loop, until: 60, motion: [5, 10, 15, 20, 25, 30]) { _ in portrait }
        #expect(!loop.isWatchingMotion, "five quiet wakes give the watch up")
        #expect(reads(steps).filter { $0 > 40 }.count >= 20, "read at the still rate after")

        var moving = started()
        _ = run(&moving, until: 60, motion: [5, 10, 15, 20, 25, 30]) { time in
            Int(time / 5) % 2 == 0 ? portrait : landscape
        }
        #expect(moving.isWatchingMotion, "wakes that find motion are what the watch is for")
    }

    /// A hub's change reports: its buffer stays (no `releaseCapture`), and a read it did not ask
    /// for reads the raw attributes.
    @Test func aHubsWatchKeepsItsBuffer() {
        let hub = SensorLoop.WatchTraits(releasesCapture: false, readsRawWhenAsked: true)
        var loop = started(traits: hub)
        var actions: [SensorLoop.Action] = []
        var now = 0.0
        while now < 25 {
            let action = loop.next(at: now)
            actions.append(action)
            switch action {
            case .checkDemand: loop.demand(needed: true, at: now)
            case .read:
                loop.displaySample(portrait, at: now, deciding: false)
                loop.readFinished(displayFailure: nil, at: now)
            case .sleep(let until), .waitForMotion(let until): now = until
            case .armMotionWatch: loop.motionWatchArmed(at: now)
            default: break
            }
        }
        #expect(!actions.contains(.releaseCapture))
        #expect(actions.contains(.interruptWatch(readRaw: true)), "the safety read reads raw")
    }

    /// Issue 43, point 7: a resume ends the watch and reads at once, at the full rate; a second
    /// word of the same resume (logind's and the clocks') reads nothing more.
    @Test func aResumeReadsAtOnce() {
        var loop = started()
        _ = run(&loop, until: 10) { _ in portrait }
        #expect(loop.isWatchingMotion)
        loop.systemResumed(at: 10)
        loop.systemResumed(at: 10.5)
        #expect(!loop.isWatchingMotion)
        #expect(loop.next(at: 10.5) == .systemResumed)
        #expect(loop.next(at: 10.5) == .interruptWatch(readRaw: true))
        #expect(loop.next(at: 10.5) == .read)
        #expect(loop.rate == .full)
        loop.displaySample(landscape, at: 10.5, deciding: true)
        loop.readFinished(displayFailure: nil, at: 10.5)
        let after = run(&loop, until: 11.5) { _ in landscape }
        #expect(reads(after).count >= 20, "read at the full rate after it: \(reads(after).count)")
    }

    /// A resume with the sources closed tries them at once; with nobody needing readings, nothing
    /// is read (reading starts afresh when someone does).
    @Test func aResumeReopensClosedSourcesAndLeavesIdleOnesAsleep() {
        var closed = SensorLoop(settings: SensorLoop.Settings(period: 0.04, pace: pace))
        #expect(closed.next(at: 0) == .open)
        closed.openFailed(reason: "no accelerometer", at: 0)
        _ = closed.next(at: 0)
        _ = closed.next(at: 0)
        #expect(closed.next(at: 0.5) == .sleep(until: 1))
        closed.systemResumed(at: 0.5)
        #expect(closed.next(at: 0.5) == .open)

        var idle = started()
        _ = run(&idle, until: 5) { _ in portrait }
        idle.woken()
        #expect(idle.next(at: 5) == .checkDemand)
        idle.demand(needed: false, at: 5)
        #expect(idle.next(at: 5) == .pause)
        idle.systemResumed(at: 6)
        #expect(idle.next(at: 6) == .sleep(until: .infinity))
    }
}

/// A suspend noticed by the clocks, where logind does not run.
@Suite struct SuspendNoticeTests {
    private func resumes(from start: Double, looks: [Double]) -> [Bool] {
        var notice = SuspendNotice(suspendedSeconds: start)
        return looks.map { notice.resumed(suspendedSeconds: $0) }
    }

    @Test func aGrowthOfTheSuspendedTimeIsAResume() {
        #expect(resumes(from: 100, looks: [100.0001, 160, 160]) == [false, true, false], "slept a minute, once")
    }

    /// Preempted between the two clocks' reads, a look comes out short: the next, true one is
    /// no resume (it was one under an emulated CPU, and a still hub reported for 1.5 s).
    @Test func aShortLookIsNoBaseline() {
        #expect(resumes(from: 100, looks: [99.2, 100]) == [false, false])
    }
}
