import Glibc
import OrientationCore
import ScenarioCorpus
import Testing

/// A driver whose scale is off by a constant factor reads every vector that much too long or
/// short: the judge turns by its direction and gates in units of the 1 g it learns at rest.
@Suite struct ScaleFreeJudgeTests {
    static let scales = [0.1, 0.3, 0.6, 1.0, 1.5, 2.65, 10.0]

    /// Held in each in-plane orientation for 1.5 s in turn (25 Hz, a little sensor noise), read
    /// `scale` times too long: every orientation is decided, in order.
    @Test("every in-plane orientation at any constant scale", arguments: scales)
    func everyOrientationAtAnyScale(scale: Double) {
        var classifier = Classifier()
        var published: [Orientation] = []
        var time = 0.0
        for orientation in [Orientation.portrait, .landscapeLeft, .portraitUpsideDown, .landscapeRight, .portrait] {
            for step in 0..<38 {
                let noise = Vector3(0.02 * sin(Double(step)), 0.02 * cos(Double(step) * 1.7), 0.01) * gravity
                let sample = AccelerometerSample(time: time, acceleration: (gravityVector(angle: orientation.inPlaneAngle!) + noise) * scale)
                if let change = classifier.classify(sample) { published.append(change.orientation) }
                time += 0.04
            }
        }
        #expect(published == [.portrait, .landscapeLeft, .portraitUpsideDown, .landscapeRight, .portrait], "at ×\(scale)")
        let learnt = classifier.gravityAtRest
        #expect(learnt.map { abs($0 / (gravity * scale) - 1) < 0.03 } == true, "learnt \(String(describing: learnt)) at ×\(scale)")
    }

    /// The gates still work at a wrong scale: a 3 g bump (three times this device's 1 g) in the
    /// middle of a turn locks the decision out, as it does at the right scale.
    @Test("a bump still locks the decision out", arguments: [0.3, 1.0, 2.65])
    func aBumpLocksOutAtAnyScale(scale: Double) {
        var classifier = Classifier()
        var time = 0.0
        func feed(_ vector: Vector3, for seconds: Double) -> [Orientation] {
            var published: [Orientation] = []
            let end = time + seconds
            while time < end - 1e-9 {
                if let change = classifier.classify(AccelerometerSample(time: time, acceleration: vector * scale)) { published.append(change.orientation) }
                time += 0.04
            }
            return published
        }
        #expect(feed(gravityVector(angle: 0), for: 1.5) == [.portrait])
        // Turned and bumped at once: the bump's 3 g locks decisions out for 500 ms.
        let turned = gravityVector(angle: 90)
        #expect(feed(turned * 3, for: 0.04) == [])
        #expect(feed(turned, for: 0.3) == [], "decided within the lockout at ×\(scale)")
        #expect(feed(turned, for: 0.5) == [.landscapeLeft], "at ×\(scale)")
    }
}

/// What the judge learns of a device's 1 g is not kept across restarts, and need not be: from
/// its first reading the median of the last readings stands in. Every corpus scenario, read too
/// long or too short from its first sample by a fresh judge (walking, shaking, a bump, a free fall
/// before any rest), gives exactly what it gives at the right scale.
@Suite struct MisScaledFromTheFirstReadingTests {
    @Test("the corpus at a wrong scale from the first sample", arguments: [0.3, 2.65])
    func theCorpusAtAWrongScale(scale: Double) {
        for scenario in Corpus.all {
            let scaled = Scenario(name: scenario.name, summary: scenario.summary,
                                  samples: scenario.samples.map { AccelerometerSample(time: $0.time, acceleration: $0.acceleration * scale) },
                                  expected: scenario.expected)
            let outcome = scaled.replay()
            #expect(outcome.isExact, "×\(scale): \(outcome.report)")
        }
    }
}

@Suite struct GravityLearnerTests {
    @Test func aRunAtRestIsLearnt() {
        var learner = GravityLearner()
        #expect(learner.gravity == nil)
        learner.note(magnitude: 3.0, at: 0)
        #expect(learner.gravity == 3.0 && learner.gravityAtRest == nil, "the median of what was read stands in")
        for step in 1...10 { learner.note(magnitude: 2.94 + (step % 2 == 0 ? 0.02 : -0.02), at: Double(step) * 0.04) }
        #expect(learner.gravityAtRest.map { abs($0 - 2.94) < 0.03 } == true, "\(String(describing: learner.gravityAtRest))")
    }

    /// Carried while walking (±30 % every few samples): never at rest, and the median of what was
    /// read stands in, about 1 g.
    @Test func aDeviceNeverAtRestHasTheMedian() {
        var learner = GravityLearner()
        for step in 0..<100 { learner.note(magnitude: 9.8 * (1 + 0.3 * sin(Double(step) * 1.3)), at: Double(step) * 0.04) }
        #expect(learner.gravityAtRest == nil)
        #expect(learner.gravity.map { abs($0 - 9.8) < 1.5 } == true, "\(String(describing: learner.gravity))")
    }

    /// A free fall is steady too, but near zero: never learnt from.
    @Test func aFreeFallIsNotLearnt() {
        var learner = GravityLearner()
        for step in 0..<20 { learner.note(magnitude: 9.8, at: Double(step) * 0.04) }
        for step in 20..<60 { learner.note(magnitude: 0.1, at: Double(step) * 0.04) }
        #expect(learner.gravityAtRest.map { abs($0 - 9.8) < 0.1 } == true)
        #expect(learner.gravity.map { abs($0 - 9.8) < 0.1 } == true)
    }

    /// One slow push at rest (a run at 1.4 g) is outvoted by the runs around it.
    @Test func oneOddRunIsOutvoted() {
        var learner = GravityLearner()
        var time = 0.0
        func rest(at magnitude: Double, runs: Int) {
            for _ in 0..<(runs * 9) { learner.note(magnitude: magnitude, at: time); time += 0.04 }
            learner.note(magnitude: magnitude * 2, at: time)  // a bump ends the run
            time += 0.04
        }
        rest(at: 9.8, runs: 2)
        rest(at: 13.7, runs: 1)
        rest(at: 9.8, runs: 1)
        #expect(learner.gravityAtRest.map { abs($0 - 9.8) < 0.1 } == true, "\(String(describing: learner.gravityAtRest))")
    }
}

/// A device carried while walking is filtered slowly from its second full-rate sample: read at
/// the still rate until the walk starts, at any phase of that rate's poll, a phone lying between
/// two orientations in a bag never flaps. What is left: at a few phases (2 of 40 here) the first
/// two samples of the walk, one still-rate gap apart from the last still one, are decided on
/// with the fast filter and flip it once, within 0.3 s of the walk's start; never afterwards.
@Suite struct CarriedDeviceTests {
    @Test func aWalkAtAnyPhaseOfTheStillPollNeverFlaps() {
        var flips = 0
        for phase in 0..<40 { walk(phase: phase, flips: &flips) }
        #expect(flips <= 2, "\(flips) of 40 poll phases flipped once at the walk's start")
    }

    private func walk(phase: Int, flips: inout Int) {
        let scenario = Corpus.named("carried-at-the-border")!
        var classifier = Classifier()
        var pace = SamplingPace()
        let lead = 2.0  // held still first: the pace is at the still rate when the walk starts
        var time = Double(phase) * (1 / 3.0) / 40
        var index = 0
        var published: [OrientationChange] = []
        while time <= lead + scenario.duration {
            let t = time - lead
            while index + 1 < scenario.samples.count, scenario.samples[index + 1].time <= t { index += 1 }
            let vector = t < 0 ? scenario.samples[0].acceleration : scenario.samples[index].acceleration
            if let change = classifier.classify(AccelerometerSample(time: time, acceleration: vector)) { published.append(change) }
            time += pace.note(vector, at: time, deciding: classifier.isDeciding) == .still ? 1 / 3.0 : 0.04
        }
        #expect(published.first?.orientation == .landscapeLeft, "\(published)")
        #expect(published.count <= 2, "\(published)")
        #expect(published.dropFirst().allSatisfy { $0.time < lead + 1 + 0.3 }, "a flip after the walk's first 0.3 s: \(published)")
        flips += published.count - 1
    }
}
