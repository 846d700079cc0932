import OrientationCore
import Testing

/// What the judge makes of a turn whose emulated axis files are written one by one with the writer
/// starved in between (the loaded-gets benchmark's lost turns, issue 35): a read between the
/// writes holds two orientations' axes at once. Portrait (0, -1 g, 0) with landscapeLeft's x
/// already written reads (-1 g, -1 g, 0): 1.41 g, which no turning device reads, and the judge
/// takes it for a knock, locking decisions out for `accelerationLockoutMs` (Android's 500 ms).
/// When the mixture lasts several reads, the magnitude's swing also counts as carrying (the slower
/// filter). A turn is then decided half a second or more late, not lost; with turns every 0.5 s
/// that is after the next turn began. A quick hand's real turn (the benchmark's 10° steps) stays near 1 g throughout.
@Suite struct HalfWrittenTurnTests {
    /// Portrait for 2 s, then landscapeLeft, its y axis written `pause` seconds after its x axis;
    /// reads at 25 Hz. Returns when landscapeLeft was published, from the x write.
    static func landscapeDecided(axisPause pause: Double) -> Double? {
        var classifier = Classifier()
        let turn = 2.0
        for index in 0..<100 {
            let time = Double(index) / 25
            let x = time >= turn ? -gravity : 0
            let y = time >= turn + pause ? 0 : -gravity
            if let change = classifier.classify(AccelerometerSample(time: time, acceleration: Vector3(x, y, 0))),
               change.orientation == .landscapeLeft {
                return time - turn
            }
        }
        return nil
    }

    @Test func aTurnWrittenAtOnceIsDecidedWithinAFifthOfASecond() throws {
        let decided = try #require(Self.landscapeDecided(axisPause: 0))
        #expect(decided < 0.2)
    }

    @Test(arguments: [0.04, 0.1, 0.2])
    func aHalfWrittenTurnIsAKnockDecidedAfterTheLockout(pause: Double) throws {
        let decided = try #require(Self.landscapeDecided(axisPause: pause))
        let lockout = ClassifierSettings().accelerationLockoutMs / 1000
        // Several such reads also swing the magnitude enough to count as carried (the slower
        // filter), which adds up to about a third of a second more.
        #expect(decided >= lockout && decided < pause + lockout + 0.4, "decided \(decided) s after the x write")
    }
}
