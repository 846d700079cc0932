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
    /// Reference §1: the six unit vectors (in g) after the mount matrix.
    @Test("§1 unit vectors", arguments: [
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

    /// Reference §2, plain: 1 g = 256 counts, no matrix.
    @Test("§2 plain vectors", arguments: [
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

    /// Reference §2 with the mount matrix "0, -1, 0; -1, 0, 0; 0, 0, 1".
    @Test("§2 vectors with a mount matrix", arguments: [
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

@Suite struct DebounceTests {
    @Test func firstReadingIsPublishedAtOnce() {
        var classifier = Classifier()
        let change = classifier.classify(AccelerometerSample(time: 5, acceleration: gravityVector(angle: 0)))
        #expect(change == OrientationChange(orientation: .portrait, previous: .unknown, time: 5))
    }

    @Test func aTurnIsPublishedOnceAfterTheSettleTime() {
        var classifier = Classifier()
        let turn = Array(repeating: gravityVector(angle: 0), count: 10) + Array(repeating: gravityVector(angle: 90), count: 10)
        let changes = replay(turn, into: &classifier)
        #expect(changes.map(\.orientation) == [.portrait, .landscapeLeft])
        // The turn arrives at sample 10 (0.4 s); it must hold for settleTime (0.1 s) before it is published.
        let published = changes[1].time
        #expect(published >= 0.4 + classifier.settings.settleTime - 1e-9)
        #expect(published <= 0.4 + classifier.settings.settleTime + 1 / 25 + 1e-9)
    }

    @Test func aSingleOutlierIsNotPublished() {
        var classifier = Classifier()
        var samples = Array(repeating: gravityVector(angle: 0), count: 20)
        samples[10] = gravityVector(angle: 180)
        samples[11] = gravityVector(angle: 90)
        #expect(replay(samples, into: &classifier).map(\.orientation) == [.portrait])
    }

    @Test func jitterAtTheBorderDoesNotFlap() {
        // ±5° around the 45° border with 0.05 g noise on every axis, for 20 s at 25 Hz.
        var generator = SeededGenerator(seed: 42)
        var classifier = Classifier()
        let samples = (0..<500).map { index -> Vector3 in
            let angle = 45 + 5 * sin(Double(index) * 0.7)
            let noise = Vector3(
                Double.random(in: -0.05...0.05, using: &generator), Double.random(in: -0.05...0.05, using: &generator),
                Double.random(in: -0.05...0.05, using: &generator)) * gravity
            let clean = gravityVector(angle: angle)
            return Vector3(clean.x + noise.x, clean.y + noise.y, clean.z + noise.z)
        }
        let changes = replay(samples, into: &classifier)
        #expect(changes.count == 1, "published \(changes.map(\.orientation))")
    }

    @Test func hysteresisAroundTheCurrentOrientation() {
        var classifier = Classifier()
        let slowTurn = stride(from: 0.0, through: 90, by: 0.4).map { gravityVector(angle: $0) }
        let back = stride(from: 90.0, through: 0, by: -0.4).map { gravityVector(angle: $0) }
        let changes = replay(slowTurn + back, into: &classifier)
        #expect(changes.map(\.orientation) == [.portrait, .landscapeLeft, .portrait])
        // The angle of the sample at `time`: 0.4° per sample up to 90°, then back down.
        let upSamples = Double(slowTurn.count)
        func angle(at time: Double) -> Double {
            let index = (time * 25).rounded()
            return index < upSamples ? index * 0.4 : 90 - (index - upSamples) * 0.4
        }
        // Left portrait beyond 67.5° (plus at most the settle time's 3 samples), came back below 22.5°.
        #expect(angle(at: changes[1].time) > 67.5 && angle(at: changes[1].time) <= 67.5 + 1.6)
        #expect(angle(at: changes[2].time) < 22.5 && angle(at: changes[2].time) >= 22.5 - 1.6)
    }

    @Test func faceUpAndFaceDownAreDecidedByTheSignOfZ() {
        var classifier = Classifier()
        let samples = Array(repeating: gravityVector(angle: 0), count: 5)
            + Array(repeating: gravityVector(angle: 0, tilt: 85), count: 10)
            + Array(repeating: gravityVector(angle: 0, tilt: -85), count: 10)
        #expect(replay(samples, into: &classifier).map(\.orientation) == [.portrait, .faceUp, .faceDown])
    }

    @Test func lyingFlatHasHysteresisToo() {
        var classifier = Classifier()
        // Enter flat at 75°, stay flat while above 65°, leave below it.
        let samples = Array(repeating: gravityVector(angle: 0, tilt: 80), count: 5)
            + Array(repeating: gravityVector(angle: 0, tilt: 70), count: 25)
            + Array(repeating: gravityVector(angle: 0, tilt: 60), count: 10)
        let changes = replay(samples, into: &classifier)
        #expect(changes.map(\.orientation) == [.faceUp, .portrait])
        // 70° kept it flat for a whole second; it stood up only once the tilt was 60°.
        #expect(changes[1].time >= 30.0 / 25)
        // And 70° is not flat for a device that is standing.
        var standing = Classifier()
        let rising = Array(repeating: gravityVector(angle: 0), count: 5) + Array(repeating: gravityVector(angle: 0, tilt: 70), count: 25)
        #expect(replay(rising, into: &standing).map(\.orientation) == [.portrait])
    }

    @Test func briefFreeFallHoldsTheOrientation() {
        var classifier = Classifier()
        let samples = Array(repeating: gravityVector(angle: 0), count: 5) + Array(repeating: Vector3(0.1, 0.2, 0), count: 20)
        #expect(replay(samples, into: &classifier).map(\.orientation) == [.portrait])
    }

    @Test func aSensorStuckAtZeroBecomesUnknown() {
        var classifier = Classifier()
        // 1 s of good readings, then 3 s of (0, 0, 0) at 25 Hz.
        let samples = Array(repeating: gravityVector(angle: 90), count: 25) + Array(repeating: Vector3.zero, count: 75)
        let changes = replay(samples, into: &classifier)
        #expect(changes.map(\.orientation) == [.landscapeLeft, .unknown])
        #expect(abs(changes[1].time - (0.96 + classifier.settings.staleAfter)) < 0.05)
    }

    @Test func missingReadingsHoldTheOrientationThenGoUnknown() {
        var classifier = Classifier()
        _ = classifier.classify(AccelerometerSample(time: 0, acceleration: gravityVector(angle: 90)))
        #expect(classifier.noteMissingReading(at: 1.0) == nil)
        #expect(classifier.orientation == .landscapeLeft)
        let lost = classifier.noteMissingReading(at: 2.0)
        #expect(lost == OrientationChange(orientation: .unknown, previous: .landscapeLeft, time: 2.0))
        // A good reading afterwards is published at once.
        let back = classifier.classify(AccelerometerSample(time: 2.04, acceleration: gravityVector(angle: 90)))
        #expect(back?.orientation == .landscapeLeft)
    }

    @Test func timeGoingBackwardsRestartsTheSettleTime() {
        var classifier = Classifier()
        _ = classifier.classify(AccelerometerSample(time: 10, acceleration: gravityVector(angle: 0)))
        #expect(classifier.classify(AccelerometerSample(time: 10.04, acceleration: gravityVector(angle: 90))) == nil)
        #expect(classifier.classify(AccelerometerSample(time: 3, acceleration: gravityVector(angle: 90))) == nil)
        #expect(classifier.classify(AccelerometerSample(time: 3.12, acceleration: gravityVector(angle: 90)))?.orientation == .landscapeLeft)
    }
}

/// SplitMix64: reproducible noise for the tests.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
