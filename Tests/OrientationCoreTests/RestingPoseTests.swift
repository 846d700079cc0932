import OrientationCore
import Testing

import Foundation

/// A device at rest between a tilt limit and flat shows its pose (`ClassifierSettings.restMs`);
/// one in motion there does not. The patterns are those of phones on a waist or in a pocket as
/// their owners sit, lie down and roll over, re-drawn here as smooth motions with a body's small
/// sway, not taken from any recording.
@Suite struct RestingPoseTests {
    /// Samples at 25 Hz: `seconds` of the device at (angle, tilt) given by `pose(t)`, t from 0.
    static func motion(seconds: Double, _ pose: (Double) -> (angle: Double, tilt: Double)) -> [Vector3] {
        (0..<Int(seconds * 25)).map { index in
            let (angle, tilt) = pose(Double(index) / 25)
            return gravityVector(angle: angle, tilt: tilt)
        }
    }

    /// A body's sway at rest: breathing (a quarter hertz) and a little tremor, about a degree.
    static func sway(_ t: Double) -> Double { 1.0 * sin(2 * .pi * 0.25 * t) + 0.4 * sin(2 * .pi * 3.1 * t) }

    /// Upright sideways on a belt (landscapeLeft), then over two seconds into `angle`/`tilt`, then
    /// at rest there for `restSeconds`. Returns the changes and when the motion ended.
    static func liesDown(toAngle angle: Double, tilt: Double, restSeconds: Double,
                         settings: ClassifierSettings = ClassifierSettings()) -> (changes: [OrientationChange], motionEnd: Double) {
        var classifier = Classifier(settings: settings)
        let upright = motion(seconds: 3) { t in (90 + sway(t), sway(t)) }
        // The hips tip back first, then the body settles on its side: the phone is past the
        // tilt limit before it turns in the plane.
        let lyingDown = motion(seconds: 2) { t in
            let tipped = (1 - cos(.pi * min(t, 1))) / 2, turned = (1 - cos(.pi * max(t - 1, 0))) / 2
            return (90 + (angle - 90) * turned + 8 * sin(2 * .pi * t), tilt * tipped)
        }
        let resting = motion(seconds: restSeconds) { t in (angle + 2 * sway(t), tilt + sway(t)) }
        return (replay(upright + lyingDown + resting, into: &classifier), 5)
    }

    @Test func aPocketThatLiesDownBeyondTheTiltLimitReachesItsPoseOnceAtRest() throws {
        // Portrait at 75° of tilt: past portrait's 70° limit, short of flat (80°).
        let (changes, motionEnd) = Self.liesDown(toAngle: 10, tilt: 75, restSeconds: 5)
        #expect(changes.map(\.orientation) == [.landscapeLeft, .portrait])
        let decided = try #require(changes.last).time - motionEnd
        #expect(decided > 0.5 && decided < 1.6, "decided \(decided) s after the motion ended: about rest-ms after it")
    }

    @Test func withRestOffTheTiltLimitsAlwaysApply() {
        var settings = ClassifierSettings()
        settings.restMs = 0
        let (changes, _) = Self.liesDown(toAngle: 10, tilt: 75, restSeconds: 5, settings: settings)
        #expect(changes.map(\.orientation) == [.landscapeLeft])
    }

    @Test func aPersonLyingStillSeesNoChangeForAMinute() {
        var classifier = Classifier()
        let lying = Self.motion(seconds: 60) { t in (20 + 3 * Self.sway(t), 74 + 2 * Self.sway(t)) }
        let changes = replay(Self.motion(seconds: 2) { _ in (20, 40) } + lying, into: &classifier)
        #expect(changes.map(\.orientation) == [.portrait])
    }

    @Test func aHandWobblingNearFlatDecidesNothingNew() {
        // Held nearly flat and rocked from side to side: never at rest, so the limits hold.
        var classifier = Classifier()
        let held = Self.motion(seconds: 2) { _ in (0, 30) }
        let wobbling = Self.motion(seconds: 30) { t in (60 * sin(2 * .pi * 0.7 * t), 75 + 3 * sin(2 * .pi * 1.3 * t)) }
        let changes = replay(held + wobbling, into: &classifier)
        #expect(changes.map(\.orientation) == [.portrait])
    }

    /// The stated rule for a person who rolls over: the phone's new pose is shown once it has been
    /// at rest for rest-ms, as for any device put down in a new pose; while the person lies still
    /// nothing changes.
    @Test func aPersonWhoRollsOverSeesTheNewPoseOnceStill() throws {
        var classifier = Classifier()
        let lying = Self.motion(seconds: 10) { t in (5 + 2 * Self.sway(t), 35 + Self.sway(t)) }
        let rolling = Self.motion(seconds: 2) { t in
            (5 - 105 * (1 - cos(.pi * max(t - 1, 0))) / 2, 35 + 43 * (1 - cos(.pi * min(t, 1))) / 2)
        }
        let lyingAgain = Self.motion(seconds: 10) { t in (260 + 2 * Self.sway(t), 78 + Self.sway(t)) }
        let changes = replay(lying + rolling + lyingAgain, into: &classifier)
        #expect(changes.map(\.orientation) == [.portrait, .landscapeRight])
        let decided = try #require(changes.last).time - 12
        #expect(decided > 0.5 && decided < 1.6)
    }
}

@Suite struct RestingAtTheFlatBorderTests {
    @Test func aDeviceRestingAtTheFlatBorderDoesNotFlap() {
        // On a cushion at 80° ± 1.5°: it goes faceUp once and stays there.
        var classifier = Classifier()
        let upright = RestingPoseTests.motion(seconds: 2) { _ in (0, 30) }
        let cushion = RestingPoseTests.motion(seconds: 60) { t in (0, 80 + 1.5 * RestingPoseTests.sway(t)) }
        let changes = replay(upright + cushion, into: &classifier)
        #expect(changes.map(\.orientation) == [.portrait, .faceUp])
    }

    @Test func aDeviceAtRestLeavesFaceUpShortOfFlat() {
        var classifier = Classifier()
        let flat = RestingPoseTests.motion(seconds: 3) { _ in (0, 88) }
        let tipped = RestingPoseTests.motion(seconds: 3) { t in (0, 88 - 10 * min(t, 1)) }
        let propped = RestingPoseTests.motion(seconds: 5) { t in (0, 72 + RestingPoseTests.sway(t)) }
        #expect(replay(flat + tipped, into: &classifier).map(\.orientation) == [.faceUp])
        #expect(replay(propped, into: &classifier, start: 6).map(\.orientation) == [.portrait])
    }
}
