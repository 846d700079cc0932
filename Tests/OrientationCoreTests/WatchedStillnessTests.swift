import OrientationCore
import Testing

/// The classifier after a still spell watched by the accelerometer's motion interrupt: the
/// readings stop for seconds, but the device is known still, so the next reading is not "after a
/// gap" (which decides at once, on one sample).
@Suite struct WatchedStillnessTests {
    private let portrait = gravityVector(angle: 0)
    private let landscape = gravityVector(angle: 90)

    /// Two seconds upright at 25 Hz, the last reading at 1.96 s.
    private func upright() -> Classifier {
        var classifier = Classifier()
        let changes = replay(Array(repeating: portrait, count: 50), into: &classifier)
        #expect(changes.map(\.orientation) == [.portrait])
        return classifier
    }

    @Test func afterAnUnwatchedGapOneSampleDecidesAtOnce() {
        var classifier = upright()
        let change = classifier.classify(AccelerometerSample(time: 22, acceleration: landscape))
        #expect(change?.orientation == .landscapeLeft, "a gap longer than the filter remembers decides afresh")
    }

    /// A safety read, or a client's request, after 20 s watched still: one odd sample (a bump as
    /// it is read) is filtered as at the full rate, and not published.
    @Test func aWatchedStillSpellContinuesTheFilter() {
        var classifier = upright()
        classifier.wasStill(until: 22)
        var changes = [classifier.classify(AccelerometerSample(time: 22.01, acceleration: landscape))]
        changes += replay(Array(repeating: portrait, count: 25), into: &classifier, start: 22.05)
        #expect(changes.compactMap { $0 }.isEmpty, "\(changes)")
    }

    /// The turn itself, after a safety read found it: decided as at the full rate.
    @Test func aTurnFoundByTheSafetyReadIsDecidedAsAtTheFullRate() throws {
        var classifier = upright()
        classifier.wasStill(until: 22)
        let changes = replay(Array(repeating: landscape, count: 25), into: &classifier, start: 22.0)
        let change = try #require(changes.first)
        #expect(change.orientation == .landscapeLeft)
        #expect(change.time > 22.1 && change.time < 22.2, "filter lag and settle time: \(change.time)")
    }

    /// Woken by the motion interrupt: the filters start from the first reading, which settles as
    /// any proposal does (40 ms), not at once.
    @Test func aMotionWakeUpSettlesTheFirstReading() throws {
        var classifier = upright()
        classifier.wokenByMotion(at: 22)
        #expect(classifier.classify(AccelerometerSample(time: 22.001, acceleration: landscape)) == nil, "not at once")
        let changes = replay(Array(repeating: landscape, count: 5), into: &classifier, start: 22.041)
        let change = try #require(changes.first)
        #expect(change.orientation == .landscapeLeft)
        #expect(change.time < 22.1)
    }

    /// A knock that wakes the device lying still: the first reading is the knock's (1.6 g,
    /// sideways), the next ones are upright again: nothing is published.
    @Test func aKnockThatWakesItIsNotPublished() {
        var classifier = upright()
        classifier.wokenByMotion(at: 22)
        var changes = [classifier.classify(AccelerometerSample(time: 22.001, acceleration: landscape * 1.6))]
        changes += replay(Array(repeating: portrait, count: 25), into: &classifier, start: 22.041)
        #expect(changes.compactMap { $0 }.isEmpty, "\(changes)")
    }
}
