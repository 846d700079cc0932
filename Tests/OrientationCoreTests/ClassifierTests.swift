import OrientationCore
import Testing

let gravity = 9.80665

/// Feeds samples at `rate` Hz from `start` and returns the published changes.
func replay(_ vectors: [Vector3], into classifier: inout Classifier, rate: Double = 25, start: Double = 0) -> [OrientationChange] {
    vectors.enumerated().compactMap { index, vector in
        classifier.classify(AccelerometerSample(time: start + Double(index) / rate, acceleration: vector))
    }
}

/// The orientation a fresh classifier publishes for one vector.
func firstOrientation(_ vector: Vector3) -> Orientation {
    var classifier = Classifier()
    return classifier.classify(AccelerometerSample(time: 0, acceleration: vector))?.orientation ?? .unknown
}

/// A vector of 1 g at `angle` degrees in the screen plane, tilted `tilt` degrees towards the sky.
func gravityVector(angle: Double, tilt: Double = 0) -> Vector3 {
    let inPlane = gravity * cos(tilt * .pi / 180)
    return Vector3(-inPlane * sin(angle * .pi / 180), -inPlane * cos(angle * .pi / 180), gravity * sin(tilt * .pi / 180))
}

import Foundation

@Suite struct ReferenceVectorTests {
    /// The six unit vectors (in g) after the mount matrix (docs/conventions.md, "Orientation names").
    @Test("the six unit vectors", arguments: [
        (Vector3(0, -1, 0), Orientation.portrait),
        (Vector3(0, 1, 0), .portraitUpsideDown),
        (Vector3(-1, 0, 0), .landscapeLeft),
        (Vector3(1, 0, 0), .landscapeRight),
        (Vector3(0, 0, 1), .faceUp),
        (Vector3(0, 0, -1), .faceDown),
    ])
    func unitVectors(vector: Vector3, expected: Orientation) {
        #expect(firstOrientation(vector * gravity) == expected)
    }

    /// iio-sensor-proxy's test vectors (docs/conventions.md, "Reference vectors"), plain: 1 g = 256 counts, no matrix.
    @Test("reference vectors, plain", arguments: [
        (Vector3(0, -256, 0), Orientation.portrait),
        (Vector3(-256, 0, 0), .landscapeLeft),
        (Vector3(256, 0, 0), .landscapeRight),
        (Vector3(0, 256, 0), .portraitUpsideDown),
    ])
    func plainVectors(raw: Vector3, expected: Orientation) {
        let calibration = AccelerometerCalibration(
            x: AxisCalibration(scale: gravity / 256), y: AxisCalibration(scale: gravity / 256), z: AxisCalibration(scale: gravity / 256))
        #expect(firstOrientation(calibration.acceleration(fromRaw: raw)) == expected)
    }

    /// iio-sensor-proxy's test vectors (docs/conventions.md, "Reference vectors") with the mount matrix
    /// "0, -1, 0; -1, 0, 0; 0, 0, 1".
    @Test("reference vectors with a mount matrix", arguments: [
        ("Onda v975", Vector3(523, 13, 5), 0.019163, Orientation.portrait),
        ("Onda v975", Vector3(8, 521, -67), 0.019163, .landscapeLeft),
        ("Winbook TW100", Vector3(24, 0, -21), 0.306457, .portrait),
        ("Winbook TW100", Vector3(15, -25, -14), 0.306457, .landscapeRight),
    ])
    func matrixVectors(device: String, raw: Vector3, scale: Double, expected: Orientation) throws {
        let matrix = try MountMatrix(parsing: "0, -1, 0; -1, 0, 0; 0, 0, 1")
        let axis = AxisCalibration(scale: scale)
        let acceleration = matrix.apply(to: AccelerometerCalibration(x: axis, y: axis, z: axis).acceleration(fromRaw: raw))
        #expect(firstOrientation(acceleration) == expected, "\(device) \(raw)")
    }

    @Test("z sign never decides an in-plane orientation", arguments: Orientation.inPlane)
    func zSignIsIgnoredInPlane(orientation: Orientation) {
        let up = gravityVector(angle: orientation.inPlaneAngle!, tilt: 40)
        let down = Vector3(up.x, up.y, -up.z)
        #expect(firstOrientation(up) == orientation)
        #expect(firstOrientation(down) == orientation)
    }
}

@Suite struct JudgeMechanicsTests {
    @Test func firstReadingIsPublishedAtOnce() {
        var classifier = Classifier()
        let change = classifier.classify(AccelerometerSample(time: 5, acceleration: gravityVector(angle: 0)))
        #expect(change == OrientationChange(orientation: .portrait, previous: .unknown, time: 5))
    }

    /// A 90° step at 50 Hz: the filter takes the angle past 67.5° in 1.23 time constants
    /// (tan 67.5° = (1 - e^-t/τ) / e^-t/τ), then the proposal must hold 40 ms.
    @Test func aStepIsPublishedAfterFilterLagAndSettleTime() {
        var classifier = Classifier()
        let step = Array(repeating: gravityVector(angle: 0), count: 50) + Array(repeating: gravityVector(angle: 90), count: 50)
        let changes = replay(step, into: &classifier, rate: 50)
        #expect(changes.map(\.orientation) == [.portrait, .landscapeLeft])
        let delay = changes[1].time - 1.0
        let settings = ClassifierSettings()
        let expected = 1.23 * settings.filterTimeConstantMs / 1000 + settings.settleMs / 1000
        #expect(abs(delay - expected) <= 0.021, "published \(delay) s after the step, not \(expected)")
    }

    /// At 25 Hz the settle time is one poll period; polls that wake a little early or late must
    /// not make a step wait a period more (samples are stamped when read).
    @Test func aStepAt25HzWithJitteredPollsIsPublishedOnTime() {
        var random = SystemRandomNumberGenerator()
        var latest: Double = 0
        for trial in 0..<50 {
            var classifier = Classifier()
            var published: Double?
            for index in 0..<100 {
                let time = Double(index) * 0.04 + Double.random(in: -0.001...0.001, using: &random)
                let sample = AccelerometerSample(time: time, acceleration: gravityVector(angle: index < 50 ? 0 : 90))
                if classifier.classify(sample)?.orientation == .landscapeLeft { published = time }
            }
            let delay = (published ?? 99) - 2.0
            latest = max(latest, delay)
            // The third sample after the step crosses the border (filter 70 ms), the next one
            // settles it: 120 ms, not 160.
            #expect(delay < 0.125, "trial \(trial): published \(delay) s after the step")
        }
        #expect(latest > 0.1)
    }

    @Test func aFilterOfZeroTimeConstantPassesSamplesThrough() {
        var filter = LowPassFilter(timeConstant: 0, resetGap: 1)
        _ = filter.filter(Vector3(0, -9.8, 0), at: 1)
        let repeated = filter.filter(Vector3(-9.8, 0, 0), at: 1)
        #expect(repeated.value == Vector3(-9.8, 0, 0))
    }

    @Test func aSingleOutlierIsNotPublished() {
        var classifier = Classifier()
        var samples = Array(repeating: gravityVector(angle: 0), count: 50)
        samples[20] = gravityVector(angle: 180)
        samples[21] = gravityVector(angle: 90)
        #expect(replay(samples, into: &classifier, rate: 50).map(\.orientation) == [.portrait])
    }

    @Test func faceUpAndFaceDownAreDecidedByTheSignOfZ() {
        var classifier = Classifier()
        let samples = Array(repeating: gravityVector(angle: 0), count: 50)
            + Array(repeating: gravityVector(angle: 0, tilt: 85), count: 100)
            + Array(repeating: gravityVector(angle: 0, tilt: -85), count: 100)
        #expect(replay(samples, into: &classifier, rate: 50).map(\.orientation) == [.portrait, .faceUp, .faceDown])
        #expect(classifier.inPlaneOrientation == .portrait)
    }

    @Test func missingReadingsHoldTheOrientationThenGoUnknown() {
        var classifier = Classifier()
        _ = classifier.classify(AccelerometerSample(time: 0, acceleration: gravityVector(angle: 90)))
        #expect(classifier.noteMissingReading(at: 1.0) == nil)
        #expect(classifier.orientation == .landscapeLeft)
        let lost = classifier.noteMissingReading(at: 2.0)
        #expect(lost == OrientationChange(orientation: .unknown, previous: .landscapeLeft, time: 2.0))
        let back = classifier.classify(AccelerometerSample(time: 2.04, acceleration: gravityVector(angle: 90)))
        #expect(back?.orientation == .landscapeLeft)
    }

    @Test func aSensorStuckAtZeroBecomesUnknown() {
        var classifier = Classifier()
        // 1 s of good readings, then 3 s of (0, 0, 0) at 25 Hz.
        let samples = Array(repeating: gravityVector(angle: 90), count: 25) + Array(repeating: Vector3.zero, count: 75)
        let changes = replay(samples, into: &classifier)
        #expect(changes.map(\.orientation) == [.landscapeLeft, .unknown])
        #expect(abs(changes[1].time - (0.96 + classifier.settings.staleAfterMs / 1000)) < 0.05)
    }

    @Test func timeGoingBackwardsRestartsTheFilterAndTheSettleTime() {
        var classifier = Classifier()
        _ = classifier.classify(AccelerometerSample(time: 10, acceleration: gravityVector(angle: 0)))
        #expect(classifier.classify(AccelerometerSample(time: 3, acceleration: gravityVector(angle: 90))) == nil)
        #expect(classifier.classify(AccelerometerSample(time: 3.02, acceleration: gravityVector(angle: 90))) == nil)
        #expect(classifier.classify(AccelerometerSample(time: 3.04, acceleration: gravityVector(angle: 90)))?.orientation == .landscapeLeft)
    }

    @Test func anglesOfTheFilteredVector() throws {
        var classifier = Classifier()
        _ = classifier.classify(AccelerometerSample(time: 0, acceleration: gravityVector(angle: 90, tilt: 30)))
        let angles = try #require(classifier.angles)
        #expect(abs(angles.inPlane - 90) < 1e-9)
        #expect(abs(angles.tilt - 30) < 1e-9)
        #expect(abs(angles.roll - -60) < 1e-9)   // landscapeLeft: the left edge is down
        let flat = OrientationAngles(of: Vector3(0, 0, 9.8))
        #expect(abs(flat.pitch - 90) < 1e-9 && abs(flat.tilt - 90) < 1e-9)
    }
}

@Suite struct LowPassFilterTests {
    @Test func followsAStepWithItsTimeConstant() {
        var filter = LowPassFilter(timeConstant: 0.1, resetGap: 1)
        _ = filter.filter(Vector3(0, 0, 0) + Vector3(1, 0, 0), at: 0)
        var value = Vector3(1, 0, 0)
        for step in 1...10 { value = filter.filter(Vector3(0, 1, 0), at: Double(step) * 0.01).value }
        // After one time constant, about 1 - 1/e of the way (discrete steps: 1 - (10/11)^10 = 0.61).
        #expect(abs(value.y - 0.6145) < 0.001)
    }

    @Test("restarts on a gap, on time going backwards and on a zero vector", arguments: [(2.5, Vector3(0, 1, 0)), (0.5, Vector3(0, 1, 0)), (1.01, Vector3.zero)])
    func restarts(time: Double, sample: Vector3) {
        var filter = LowPassFilter(timeConstant: 0.1, resetGap: 1)
        _ = filter.filter(Vector3(1, 0, 0), at: 1)
        let result = filter.filter(sample, at: time)
        #expect(result.restarted)
        #expect(result.value == sample)
    }
}

extension Vector3 {
    static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
}


/// Readings no accelerometer can give (1e308 m/s² from a garbage raw value) are failed reads,
/// not samples: the filter never sees them.
@Suite struct ImplausibleReadingTests {
    /// 0.1 s of 1e308, then a turn: decided within the normal time (the filter's lag to the
    /// hysteresis border, then the settle time, each rounded up to a poll), not after the minute
    /// 1e308 took to decay in the filter.
    @Test func aHugeReadingDoesNotDelayTheNextTurn() {
        let settings = ClassifierSettings()
        let rate = 25.0
        var classifier = Classifier(settings: settings)
        let samples = Array(repeating: gravityVector(angle: 0), count: 25)
            + Array(repeating: Vector3(1e308, -gravity, 0), count: 3)
            + Array(repeating: gravityVector(angle: 90), count: 50)
        var changes: [OrientationChange] = []
        var anglesSeen: [OrientationAngles] = []
        for (index, acceleration) in samples.enumerated() {
            if let change = classifier.classify(AccelerometerSample(time: Double(index) / rate, acceleration: acceleration)) {
                changes.append(change)
            }
            if let angles = classifier.angles { anglesSeen.append(angles) }
        }
        #expect(changes.map(\.orientation) == [.portrait, .landscapeLeft])
        let turnedAt = 28 / rate
        // The filtered angle reaches the border 45° + hysteresis when the new direction's share
        // a satisfies a / (1 - a) = tan(border), that is after τ·ln(1 / (1 - a)).
        let border = (45 + settings.hysteresisDegrees) * .pi / 180
        let share = tan(border) / (1 + tan(border))
        let lag = settings.filterTimeConstantMs / 1000 * log(1 / (1 - share))
        let expected = lag + settings.settleMs / 1000 + 2 / rate
        let delay = (changes.first { $0.orientation == .landscapeLeft }?.time ?? .infinity) - turnedAt
        #expect(delay <= expected, "published \(delay) s after the turn, expected at most \(expected) s")
        #expect(anglesSeen.allSatisfy { [$0.inPlane, $0.tilt, $0.pitch, $0.roll].allSatisfy(\.isFinite) })
    }

    @Test("what no accelerometer measures is a failed read", arguments: [
        Vector3(1e308, 0, 0), Vector3(0, -.infinity, 0), Vector3(0, 0, .nan), Vector3(0, 101 * gravity, 0),
    ])
    func anImplausibleReadingIsAFailedRead(reading: Vector3) throws {
        var classifier = Classifier()
        _ = classifier.classify(AccelerometerSample(time: 0, acceleration: gravityVector(angle: 90)))
        #expect(classifier.classify(AccelerometerSample(time: 0.04, acceleration: reading)) == nil)
        #expect(classifier.angles == nil)
        #expect(classifier.orientation == .landscapeLeft)
        // Held like any failed read, until the stale time: then unknown.
        let stale = classifier.settings.staleAfterMs / 1000
        #expect(classifier.classify(AccelerometerSample(time: stale - 0.04, acceleration: reading)) == nil)
        let lost = classifier.classify(AccelerometerSample(time: stale + 0.04, acceleration: reading))
        #expect(lost?.orientation == .unknown)
        // A good reading decides again, from a filter the garbage never touched.
        _ = classifier.classify(AccelerometerSample(time: stale + 0.08, acceleration: gravityVector(angle: 90)))
        #expect(classifier.orientation == .landscapeLeft)
        let angles = try #require(classifier.angles)
        #expect(abs(angles.inPlane - 90) < 1e-9)
    }
}
