import OrientationCore
import ScenarioCorpus
import Testing

@Suite struct ScenarioTests {
    /// Every scenario publishes exactly its expected changes, in order, each within its window.
    @Test("scenario corpus", arguments: Corpus.all)
    func scenario(_ scenario: Scenario) {
        let outcome = scenario.replay()
        #expect(outcome.isExact, "\(outcome.report)")
        #expect(outcome.spuriousEvents == 0)
    }

    /// The same at other sensor rates: constants are in time, not samples.
    @Test("scenarios resampled to 25 Hz", arguments: Corpus.all)
    func scenarioAtHalfTheRate(_ scenario: Scenario) {
        var thinned = scenario.samples.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        if thinned.isEmpty { thinned = scenario.samples }
        let slower = Scenario(name: scenario.name, summary: scenario.summary, samples: thinned,
                              expected: scenario.expected.map { ExpectedChange($0.orientation, within: $0.window.lowerBound...($0.window.upperBound + 0.04)) })
        let outcome = slower.replay()
        #expect(outcome.spuriousEvents == 0, "\(outcome.report)")
        #expect(outcome.published.map(\.orientation) == scenario.expected.map(\.orientation), "\(outcome.report)")
    }

    /// The trace format carries a scenario without changing its outcome.
    @Test func tracesRoundTrip() throws {
        let scenario = try #require(Corpus.named("slow-turn"))
        let parsed = try Trace.parse(Trace.format(scenario.samples))
        #expect(parsed.count == scenario.samples.count)
        let replayed = Scenario(name: scenario.name, summary: scenario.summary, samples: parsed, expected: scenario.expected)
        #expect(replayed.replay().isExact)
    }

    /// A trace saved with Windows line endings reads as the same samples, and its errors still
    /// name the right line.
    @Test func crlfLineEndingsAreLinesToo() throws {
        let scenario = try #require(Corpus.named("slow-turn"))
        let text = Trace.format(scenario.samples)
        #expect(try Trace.parse(text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")) == Trace.parse(text))
        #expect(throws: TraceError(line: 3, text: "0.1 1 2", reason: "expected 4 numbers: time x y z")) {
            try Trace.parse("# header\r\n0 0 -9.8 0\r\n0.1 1 2\r\n")
        }
    }

    @Test func malformedTraceLinesAreNamed() {
        #expect(throws: TraceError(line: 3, text: "0.1 1 2", reason: "expected 4 numbers: time x y z")) {
            try Trace.parse("# header\n0 0 -9.8 0\n0.1 1 2\n")
        }
        #expect(throws: TraceError(line: 2, text: "0.5 0 -9.8 0", reason: "time goes backwards")) {
            try Trace.parse("1 0 -9.8 0\n0.5 0 -9.8 0\n")
        }
    }
}

@Suite struct CorpusStrengthTests {
    /// The corpus separates a good classifier from a naive one: with filter, settle time,
    /// hysteresis, lockouts and the turn gate all switched off, many scenarios go wrong.
    @Test func aNaiveClassifierFailsTheCorpus() {
        var naive = ClassifierSettings()
        naive.filterTimeConstantMs = 0
        naive.carriedFilterTimeConstantMs = 0
        naive.settleMs = 0
        naive.hysteresisDegrees = 0
        naive.accelerationTolerance = .infinity
        naive.swingTiltDegrees = .infinity
        naive.flatEndedLockoutMs = 0
        naive.faceDelayMs = 0
        naive.turnInProgressDegreesPerSecond = .infinity
        let failing = Corpus.all.filter { !$0.replay(settings: naive).isExact }.map(\.name)
        #expect(failing.count >= 6, "only \(failing) fail")
        for name in ["jitter-at-45", "shake", "bump", "fast-flip"] {
            #expect(failing.contains(name), "\(name) should trip a naive classifier")
        }
    }
}
