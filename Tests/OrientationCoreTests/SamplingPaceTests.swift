import Glibc
import OrientationCore
import Testing

/// When a still device may be read slowly, without a sensor or a clock.
@Suite struct SamplingPaceTests {
    private let portrait = gravityVector(angle: 0)
    private let settings = SamplingPace.Settings(stillRate: 4, motionThreshold: 1, stillAfterMs: 1500)

    /// A pace that has seen the device still long enough to be slow, its last sample at `time`.
    private func stillPace(at time: Double = 2) -> SamplingPace {
        var pace = SamplingPace(settings: settings)
        pace.note(portrait, at: 0, deciding: false)
        pace.note(portrait, at: time, deciding: false)
        return pace
    }

    /// Gaussian noise of deviation `sigma` on each axis, the same on every run.
    private struct Noise {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let sigma: Double

        mutating func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(state >> 11) + 0.5) / Double(1 << 53)
        }

        mutating func gaussian() -> Double {
            (-2 * log(uniform())).squareRoot() * cos(2 * .pi * uniform()) * sigma
        }

        mutating func vector() -> Vector3 { Vector3(gaussian(), gaussian(), gaussian()) }
    }

    @Test func theFirstSampleStartsAtTheFullRateAndAStillDeviceSlowsDownAfterTheQuietPeriodNotBefore() {
        var pace = SamplingPace(settings: settings)
        #expect(pace.note(portrait, at: 0, deciding: false) == .full, "what the device did before is unknown")
        var time = 0.0
        while time < 1.46 {
            time += 0.04
            #expect(pace.note(portrait, at: time, deciding: false) == .full, "slow at \(time) s, before the quiet period")
        }
        #expect(pace.note(portrait, at: 1.5, deciding: false) == .still)
        #expect(pace.note(portrait, at: 1.75, deciding: false) == .still)
    }

    /// Ten minutes at the still rate of a noisy accelerometer (0.2 m/s² on each axis, the worst
    /// of real ones) whose zero drifts by 0.8 m/s²: never a wake-up.
    @Test func noiseAndSlowDriftStaySlow() {
        var pace = stillPace(at: 2)
        var noise = Noise(sigma: 0.2)
        var wakeUps = 0
        for index in 1...2400 {
            let time = 2 + Double(index) * 0.25
            let drift = Vector3(0.8, -0.4, 0.3) * (Double(index) / 2400)
            if pace.note(portrait + drift + noise.vector(), at: time, deciding: false) == .full { wakeUps += 1 }
        }
        #expect(wakeUps == 0)
    }

    @Test("a small tilt or a bump goes to the full rate at once", arguments: [
        gravityVector(angle: 10),  // 10° in the screen plane: 1.7 m/s²
        gravityVector(angle: 0, tilt: 10),  // tilted back 10°
        gravityVector(angle: 0) * 1.15,  // a tap: 1.5 m/s² more
    ])
    func aSmallMotionGoesFastAtOnce(moved: Vector3) {
        var pace = stillPace()
        #expect(pace.note(moved, at: 2.25, deciding: false) == .full)
        #expect(pace.rate == .full)
    }

    @Test func aMotionBelowTheThresholdStaysSlow() {
        var pace = stillPace()
        #expect(pace.note(gravityVector(angle: 3), at: 2.25, deciding: false) == .still, "3° is 0.5 m/s²")
    }

    /// A turn keeps it fast throughout; it slows down one quiet period after the last sample
    /// that moved.
    @Test func aMovingDeviceSlowsDownOneQuietPeriodAfterItsLastMotion() {
        var pace = stillPace()
        var time = 2.0
        for step in 1...10 {
            time += 0.04
            #expect(pace.note(gravityVector(angle: Double(step) * 9), at: time, deciding: false) == .full)
        }
        let stopped = time
        let landscape = gravityVector(angle: 90)
        while time < stopped + 1.46 {
            time += 0.04
            #expect(pace.note(landscape, at: time, deciding: false) == .full, "slow \(time - stopped) s after the motion")
        }
        #expect(pace.note(landscape, at: stopped + 1.5, deciding: false) == .still)
        #expect(pace.note(landscape, at: stopped + 1.75, deciding: false) == .still, "the new position is the still one")
    }

    /// A slow turn (10° a second) moves the vector past the threshold again and again: fast.
    @Test func aSlowTurnIsMotionToo() {
        var pace = stillPace()
        var fast = 0
        for index in 1...12 {
            let time = 2 + Double(index) * 0.25
            if pace.note(gravityVector(angle: 10 * (time - 2)), at: time, deciding: false) == .full { fast += 1 }
        }
        #expect(fast >= 9)
        #expect(pace.rate == .full)
    }

    @Test func aPendingDecisionKeepsTheFullRate() {
        var pace = SamplingPace(settings: settings)
        pace.note(portrait, at: 0, deciding: false)
        #expect(pace.note(portrait, at: 2, deciding: true) == .full, "the classifier waits on a decision")
        #expect(pace.note(portrait, at: 5, deciding: true) == .full)
        #expect(pace.note(portrait, at: 5.04, deciding: false) == .still, "decided: nothing keeps it fast")
    }

    @Test func aFailedReadKeepsTheFullRateForAQuietPeriod() {
        var pace = stillPace(at: 2)
        #expect(pace.noteFailure(at: 2.25) == .full)
        #expect(pace.note(portrait, at: 2.5, deciding: false) == .full)
        #expect(pace.note(portrait, at: 3.75, deciding: false) == .still)
    }

    @Test func anImplausibleSampleCountsAsAFailure() {
        var pace = stillPace()
        #expect(pace.note(Vector3(.nan, 0, 0), at: 2.25, deciding: false) == .full)
    }

    /// After a suspend the same vector stays slow (dormant: still all along); a device turned meanwhile goes fast at once.
    @Test func aGapInTimeComparesWithTheOldReference() {
        var unmoved = stillPace()
        #expect(unmoved.note(portrait, at: 3600, deciding: false) == .dormant, "still for an hour: dormant")
        var turned = stillPace()
        #expect(turned.note(gravityVector(angle: 90), at: 3600, deciding: false) == .full)
        #expect(turned.note(gravityVector(angle: 90), at: 3601.5, deciding: false) == .still)
    }

    /// Time that goes backwards (a bad timestamp) starts afresh: fast for one quiet period, then slow.
    @Test func timeGoingBackwardsStartsAfresh() {
        var pace = stillPace(at: 10)
        #expect(pace.note(portrait, at: 5, deciding: false) == .full)
        #expect(pace.note(portrait, at: 6, deciding: false) == .full)
        #expect(pace.note(portrait, at: 6.5, deciding: false) == .still)
    }

    @Test func resetStartsAfreshAtTheFullRate() {
        var pace = stillPace()
        pace.reset()
        #expect(pace.rate == .full)
        #expect(pace.note(portrait, at: 3, deciding: false) == .full)
        #expect(pace.note(portrait, at: 4.5, deciding: false) == .still)
    }

    /// Still for dormant-after-ms: the dormant rate; the first sample that moves, the full rate.
    @Test func aDeviceStillForLongGoesDormantAndWakesAtTheFirstMotion() {
        var pace = SamplingPace(settings: settings)
        var time = 0.0
        var rates: [(Double, SamplingPace.Rate)] = []
        while time < 12 {
            let rate = pace.note(portrait, at: time, deciding: false)
            if rates.last?.1 != rate { rates.append((time, rate)) }
            time += 0.25
        }
        #expect(rates.map(\.1) == [.full, .still, .dormant])
        #expect(rates.last.map { $0.0 >= 10 && $0.0 < 10.3 } == true, "dormant 10 s after the last motion: \(rates)")
        #expect(pace.note(gravityVector(angle: 30), at: 12.8, deciding: false) == .full)
    }

    @Test func aDormantRateAtOrAboveTheStillRateNeverSleepsDeeper() {
        var pace = SamplingPace(settings: SamplingPace.Settings(stillRate: 4, motionThreshold: 1, stillAfterMs: 1500, dormantRate: 4))
        var time = 0.0
        while time < 20 {
            #expect(pace.note(portrait, at: time, deciding: false) != .dormant)
            time += 0.25
        }
    }
}

/// What the classifier tells the pace: whether it waits on a decision.
@Suite struct ClassifierDecidingTests {
    @Test func aProposalWaitingToSettleIsPendingUntilPublished() {
        var settings = ClassifierSettings()
        settings.settleMs = 200
        var classifier = Classifier(settings: settings)
        _ = classifier.classify(AccelerometerSample(time: 0, acceleration: gravityVector(angle: 0)))
        #expect(!classifier.isDeciding, "portrait is decided at once")
        var published: Double?
        var time = 0.0
        while published == nil, time < 2 {
            time += 0.04
            if classifier.classify(AccelerometerSample(time: time, acceleration: gravityVector(angle: 90))) != nil {
                published = time
            } else if time > 0.2 {
                #expect(classifier.isDeciding, "landscape waits to settle at \(time) s")
            }
        }
        #expect(published != nil)
        #expect(!classifier.isDeciding)
    }

    /// From the sample that lies flat until faceUp is published (face-delay-ms later), every
    /// sample leaves a decision pending.
    @Test func lyingFlatIsPendingUntilFaceUpIsPublished() {
        var classifier = Classifier()
        _ = classifier.classify(AccelerometerSample(time: 0, acceleration: gravityVector(angle: 0)))
        var time = 0.0
        var pendingWhileFlat: [Bool] = []
        while classifier.orientation != .faceUp, time < 3 {
            time += 0.04
            _ = classifier.classify(AccelerometerSample(time: time, acceleration: gravityVector(angle: 0, tilt: 90)))
            if (classifier.angles?.tilt ?? 0) >= 80, classifier.orientation != .faceUp { pendingWhileFlat.append(classifier.isDeciding) }
        }
        #expect(classifier.orientation == .faceUp)
        #expect(pendingWhileFlat.count >= 10, "face-delay-ms is 500 ms: about 12 samples")
        #expect(!pendingWhileFlat.contains(false))
        #expect(!classifier.isDeciding)
    }

    @Test func aStillDeviceLeavesNothingPending() {
        var classifier = Classifier()
        for index in 0..<10 {
            _ = classifier.classify(AccelerometerSample(time: Double(index) * 0.25, acceleration: gravityVector(angle: 5)))
            #expect(!classifier.isDeciding)
        }
    }
}

import ScenarioCorpus

/// The scenario corpus read as the sensor thread reads it with adaptive sampling: 25 polls a
/// second while something moves or is being decided, `stillRate` while still, each read taking the
/// value the sensor holds at that moment. Two still seconds and `phase` come first, so every motion
/// starts at the still rate, and a still-rate read may land anywhere in it (mid-flip, mid-turn).
@Suite struct PacedScenarioTests {
    /// Forty phases, 8 ms apart: a walk's first steps flipped carried-at-the-border at two
    /// neighbouring ones (and fast-flip at one of eight).
    static let phases = (0..<40).map { Double($0) / 40 / SamplingPace.Settings().stillRate }

    static func lead(phase: Double) -> Double { 2 + phase }

    static func pacedSamples(of scenario: Scenario, phase: Double = 0,
                             settings: SamplingPace.Settings = SamplingPace.Settings()) -> [AccelerometerSample] {
        let lead = lead(phase: phase)
        let held = [AccelerometerSample(time: 0, acceleration: scenario.samples[0].acceleration)]
            + scenario.samples.map { AccelerometerSample(time: $0.time + lead, acceleration: $0.acceleration) }
        var pace = SamplingPace(settings: settings)
        var classifier = Classifier()
        var read: [AccelerometerSample] = []
        var time = 0.0
        var index = 0
        while time <= held.last!.time + 2 {
            while index + 1 < held.count, held[index + 1].time <= time { index += 1 }
            let sample = AccelerometerSample(time: time, acceleration: held[index].acceleration)
            read.append(sample)
            _ = classifier.classify(sample)
            let rate = pace.note(sample.acceleration, at: time, deciding: classifier.isDeciding)
            time += rate == .still ? 1 / settings.stillRate : 0.04
        }
        return read
    }

    @Test("scenario corpus, paced, the still-rate reads at every phase", arguments: Corpus.all)
    func pacedScenario(_ scenario: Scenario) {
        let stillPeriod = 1 / SamplingPace.Settings().stillRate
        for phase in Self.phases {
            let samples = Self.pacedSamples(of: scenario, phase: phase)
            let lead = Self.lead(phase: phase)
            // Each change may come one still period and one poll later; the first one, from the
            // first reading, comes at the start of the still lead.
            let paced = Scenario(name: scenario.name, summary: scenario.summary, samples: samples, expected: scenario.expected.enumerated().map { index, change in
                ExpectedChange(change.orientation, within: (index == 0 ? 0 : change.window.lowerBound + lead)...(change.window.upperBound + lead + stillPeriod + 0.04))
            })
            let outcome = paced.replay()
            let at = "still reads at phase \(phase) s: \(outcome.report)"
            #expect(outcome.spuriousEvents == 0, "\(at)")
            #expect(outcome.published.map(\.orientation) == scenario.expected.map(\.orientation), "\(at)")
            #expect(outcome.isExact, "\(at)")
            #expect(samples.count < Int((samples.last!.time) * 25), "the still rate was never used")
        }
    }
}

/// Reads that all come further apart than a run of full-rate reads (a `rate` below 10 Hz, a slow
/// remote board) still decide: the guard after a gap holds only a read that moved from the one
/// before, and a turned device holds still at the next.
@Suite struct SlowRateTests {
    @Test("every turn decided at a slow steady rate", arguments: [2.0, 4.0, 5.0, 8.0, 10.0])
    func everyTurnAtASlowRate(rate: Double) {
        var classifier = Classifier()
        var published: [(Orientation, Double)] = []
        var time = 0.0
        var turnedAt: [Double] = []
        for orientation in [Orientation.portrait, .landscapeLeft, .portraitUpsideDown, .landscapeRight, .portrait] {
            turnedAt.append(time)
            for _ in 0..<Int(2 * rate) {
                if let change = classifier.classify(AccelerometerSample(time: time, acceleration: gravityVector(angle: orientation.inPlaneAngle!, tilt: 15))) {
                    published.append((change.orientation, change.time))
                }
                time += 1 / rate
            }
        }
        #expect(published.map(\.0) == [.portrait, .landscapeLeft, .portraitUpsideDown, .landscapeRight, .portrait], "at \(rate) Hz")
        // Decided by the third read in the new pose: the filter may still lag the 67.5° border at
        // the first, and a proposal then settles until the next.
        for ((_, decided), turned) in zip(published, turnedAt).dropFirst() {
            #expect(decided - turned <= 2 / rate + 1e-9, "at \(rate) Hz: turned at \(turned), decided at \(decided)")
        }
    }

}
