import OrientationCore
import Testing

/// A gap in the readings (orientd stopped with SIGSTOP, the machine suspended): the first reading
/// after it decides at once, like the first after the sensor slept, so a request answered with it
/// is not answered with the orientation from before the gap.
@Suite struct ReadingGapTests {
    private func settled(in orientation: Vector3, until end: inout Double) -> Classifier {
        var classifier = Classifier()
        for index in 0..<25 {
            end = Double(index) / 25
            _ = classifier.classify(AccelerometerSample(time: end, acceleration: orientation))
        }
        return classifier
    }

    @Test func theFirstReadingAfterAGapDecidesAtOnce() {
        var end = 0.0
        var classifier = settled(in: gravityVector(angle: 0), until: &end)
        #expect(classifier.orientation == .portrait)
        let gap = classifier.settings.filterResetGapMs / 1000 + 0.5
        let change = classifier.classify(AccelerometerSample(time: end + gap, acceleration: gravityVector(angle: 90)))
        #expect(change?.orientation == .landscapeLeft)
    }

    @Test func withoutAGapATurnStillSettles() {
        var end = 0.0
        var classifier = settled(in: gravityVector(angle: 0), until: &end)
        let change = classifier.classify(AccelerometerSample(time: end + 0.04, acceleration: gravityVector(angle: 90)))
        #expect(change == nil, "one reading right after another does not decide on its own")
    }
}
