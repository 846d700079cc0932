@testable import AccelerometerIO
import OrientationCore
import Testing

/// The read period following the device's motion (`SamplingPace` inside `SensorLoop`).
@Suite struct SensorLoopPaceTests {
    private let period = 0.04
    private let pace = SamplingPace.Settings(stillRate: 4, motionThreshold: 1, stillAfterMs: 1500)
    private let portrait = Vector3(0, -9.80665, 0)
    private let landscape = Vector3(-9.80665, 0, 0)

    /// The loop with the sensor open, demand for readings, and the first read taken at 0.
    private func started(pace: SamplingPace.Settings?, rate: Double = 25) -> SensorLoop {
        var loop = SensorLoop(settings: SensorLoop.Settings(period: 1 / rate, pace: pace))
        #expect(loop.next(at: 0) == .open)
        loop.opened(sysnames: ["iio:device0"], at: 0)
        #expect(loop.next(at: 0) == .read)
        loop.displaySample(portrait, at: 0, deciding: false)
        loop.readFinished(displayFailure: nil, at: 0)
        #expect(loop.next(at: 0) == .announceStart(opened: true))
        return loop
    }

    /// Runs the loop as the poller would, the sensor reading `vector(time)`, until `end`; returns
    /// the times of the reads and the pace changes announced.
    private func run(_ loop: inout SensorLoop, until end: Double, deciding: Bool = false,
                     vector: (Double) -> Vector3) -> (reads: [Double], changes: [(time: Double, rate: SamplingPace.Rate)]) {
        var now = 0.0
        var reads: [Double] = []
        var changes: [(Double, SamplingPace.Rate)] = []
        while now < end {
            switch loop.next(at: now) {
            case .checkDemand: loop.demand(needed: true, at: now)
            case .read:
                reads.append(now)
                loop.displaySample(vector(now), at: now, deciding: deciding)
                loop.readFinished(displayFailure: nil, at: now)
            case .sleep(let until): now = until
            case .paceChanged(let rate): changes.append((now, rate))
            case let other: Issue.record("unexpected \(other)"); return (reads, changes)
            }
        }
        return (reads, changes)
    }

    @Test func aStillDeviceIsReadAtTheStillRateAfterTheQuietPeriod() {
        var loop = started(pace: pace)
        let (reads, changes) = run(&loop, until: 10) { _ in portrait }
        #expect(reads.filter { $0 < 1.5 }.count >= 36, "the full rate until the quiet period has passed")
        #expect(reads.filter { $0 >= 2 }.count == 32, "4 reads a second from then on: \(reads.filter { $0 >= 2 })")
        #expect(changes.map(\.rate) == [.still])
        #expect(loop.rate == .still)
    }

    /// The read that sees the motion brings the next one a full period after it, not a still one.
    @Test func theFirstSampleThatMovesBringsTheFullRateAtOnce() throws {
        var loop = started(pace: pace)
        let turnedAt = 5.1
        let (reads, changes) = run(&loop, until: 8) { $0 >= turnedAt ? landscape : portrait }
        let seen = try #require(reads.first { $0 >= turnedAt })
        #expect(seen - turnedAt <= 0.25 + 1e-9, "seen within one still period")
        let after = reads.filter { $0 > seen }.prefix(3)
        #expect(zip([seen] + after, after).allSatisfy { abs($1 - $0 - period) < 1e-9 }, "full rate from the moving read on: \(Array(after))")
        #expect(changes.map(\.rate) == [.still, .full, .still])
        let slowedAgain = try #require(changes.last?.time)
        #expect(slowedAgain >= seen + 1.5 && slowedAgain <= seen + 1.5 + period + 1e-9)
    }

    @Test func aPendingDecisionKeepsTheFullRate() {
        var loop = started(pace: pace)
        let (reads, changes) = run(&loop, until: 4, deciding: true) { _ in portrait }
        #expect(changes.isEmpty)
        #expect(reads.count >= 99)
    }

    @Test func resumingAfterAPauseStartsAtTheFullRate() {
        var loop = started(pace: pace)
        _ = run(&loop, until: 3) { _ in portrait }
        #expect(loop.rate == .still)
        loop.woken()
        #expect(loop.next(at: 3.1) == .checkDemand)
        loop.demand(needed: false, at: 3.1)
        #expect(loop.next(at: 3.1) == .pause)
        loop.woken()
        #expect(loop.next(at: 60) == .checkDemand)
        loop.demand(needed: true, at: 60)
        #expect(loop.next(at: 60) == .resume)
        #expect(loop.rate == .full)
        #expect(loop.next(at: 60) == .read)
        loop.displaySample(portrait, at: 60, deciding: false)
        loop.readFinished(displayFailure: nil, at: 60)
        #expect(loop.next(at: 60) == .checkDemand)
        loop.demand(needed: true, at: 60)
        #expect(loop.next(at: 60) == .sleep(until: 60 + period))
    }

    @Test("without a pace, or a still rate at or above the rate, the period never changes", arguments: [
        nil, SamplingPace.Settings(stillRate: 25, motionThreshold: 1, stillAfterMs: 1500),
        SamplingPace.Settings(stillRate: 100, motionThreshold: 1, stillAfterMs: 0),
    ])
    func noPaceNoChange(pace: SamplingPace.Settings?) {
        var loop = started(pace: pace)
        let (reads, changes) = run(&loop, until: 4) { _ in portrait }
        #expect(changes.isEmpty)
        #expect(reads.count >= 99)
    }

    @Test func failedReadsKeepTheFullRate() {
        var loop = started(pace: pace)
        _ = run(&loop, until: 3) { _ in portrait }
        #expect(loop.rate == .still)
        loop.displayFailure(at: 3.2)
        loop.readFinished(displayFailure: nil, at: 3.2)
        #expect(loop.next(at: 3.2) == .paceChanged(.full))
    }

    /// The sensor thread and the classifier together: a device turned at once while read at the
    /// still rate is decided within one still period, the settle time and a poll.
    @Test(arguments: [0.0, 0.07, 0.13, 0.2, 0.249])
    func aStepWhileStillIsDecidedWithinAStillPeriodAndTheSettleTime(offset: Double) throws {
        var loop = started(pace: pace)
        var classifier = Classifier()
        _ = classifier.classify(AccelerometerSample(time: 0, acceleration: portrait))
        let turnedAt = 5 + offset
        var now = 0.0
        var decided: Double?
        while now < 8, decided == nil {
            switch loop.next(at: now) {
            case .checkDemand: loop.demand(needed: true, at: now)
            case .read:
                let sample = AccelerometerSample(time: now, acceleration: now >= turnedAt ? landscape : portrait)
                if classifier.classify(sample)?.orientation == .landscapeLeft { decided = now }
                loop.displaySample(sample.acceleration, at: now, deciding: classifier.isDeciding)
                loop.readFinished(displayFailure: nil, at: now)
            case .sleep(let until): now = until
            default: break
            }
        }
        let latency = try #require(decided) - turnedAt
        #expect(latency <= 0.25 + ClassifierSettings().settleMs / 1000 + period + 1e-9, "decided \(latency) s after the turn")
    }

    /// Still for 10 s: read at the dormant rate (1.25 a second), and a turn brings the full rate.
    @Test func aDeviceStillForLongIsReadAtTheDormantRate() {
        var loop = started(pace: pace)
        let turnedAt = 30.1
        let (reads, changes) = run(&loop, until: 32) { $0 >= turnedAt ? landscape : portrait }
        let dormant = reads.filter { $0 >= 12 && $0 < 30 }
        #expect(dormant.count >= 21 && dormant.count <= 24, "1.25 reads a second: \(dormant.count) in 18 s")
        #expect(changes.map(\.rate) == [.still, .dormant, .full])
        let seen = reads.first { $0 >= turnedAt } ?? 99
        #expect(seen - turnedAt <= 0.8 + 1e-9, "the turn is read within one dormant poll")
    }
}
