import Foundation
import OrientationCore

/// Every scenario that separates a good classifier from a naive one (docs/conventions.md, "The
/// scenario corpus"), generated
/// with seeded noise at 50 Hz, with the exact changes that must be published and when.
/// Windows allow for the filter's lag, the settle time and the lockouts, no more.
public enum Corpus {
    public static let all: [Scenario] = [
        jitterAtTheBorder, slowTurn, flatWithNoisyAzimuth, ambiguousTiltBand, pickUpFromFlat,
        pickUpIntoLandscape, putDownSwing, shake, bump, walking, rotateThroughFlat, fastFlip,
        overheadUse, freeFall, suspendGap, nonAtomicReads, pickUpByHand, pickUpAtOnce, pickUpTwisting,
        carriedAtTheBorder, turnedWhileWalking, sitDownReading, standUpReading, lieBackReading,
    ]

    public static func named(_ name: String) -> Scenario? { all.first { $0.name == name } }

    /// ±5° at the 45° border with 0.05 g noise, for 20 s.
    static let jitterAtTheBorder: Scenario = {
        var trace = ScenarioBuilder(seed: 1, noise: 0.05)
        trace.hold(angle: 20, tilt: 15, for: 1)
        trace.turn(from: (20, 15), to: (45, 15), over: 1)
        trace.move(for: 20) { f in ScenarioBuilder.gravity(angle: 45 + 5 * sin(f * 20 * 2 * .pi * 1.3), tilt: 15) }
        return Scenario(name: "jitter-at-45", summary: "±5° jitter at the 45° border, 0.05 g noise",
                        samples: trace.samples, expected: [ExpectedChange(.portrait, within: 0...0.1)])
    }()

    /// 10°/s from portrait to landscapeLeft and back: switch near 67.5°, back near 22.5°.
    static let slowTurn: Scenario = {
        var trace = ScenarioBuilder(seed: 2)
        trace.hold(angle: 0, tilt: 20, for: 1)
        trace.turn(from: (0, 20), to: (90, 20), over: 9)
        trace.hold(angle: 90, tilt: 20, for: 2)
        trace.turn(from: (90, 20), to: (0, 20), over: 9)
        trace.hold(angle: 0, tilt: 20, for: 1)
        return Scenario(name: "slow-turn", summary: "10°/s turn to landscape and back", samples: trace.samples, expected: [
            ExpectedChange(.portrait, within: 0...0.1),
            ExpectedChange(.landscapeLeft, within: 7.75...8.05),   // 67.5° at 1 + 6.75 s
            ExpectedChange(.portrait, within: 18.75...19.05),      // 22.5° at 12 + 6.75 s
        ])
    }()

    /// Lying at 85° with the in-plane direction wandering and 0.05 g noise.
    static let flatWithNoisyAzimuth: Scenario = {
        var trace = ScenarioBuilder(seed: 3, noise: 0.05)
        var angle = 0.0
        trace.move(for: 10) { _ in ScenarioBuilder.gravity(angle: angle, tilt: 85) }
        var wandering = ScenarioBuilder(seed: 3, noise: 0.05)
        for _ in 0..<500 {
            angle += wandering.uniform(-15...15)
            wandering.add(ScenarioBuilder.gravity(angle: angle, tilt: 85))
        }
        return Scenario(name: "flat-noisy-azimuth", summary: "flat at 85° tilt, wandering azimuth",
                        samples: wandering.samples, expected: [ExpectedChange(.faceUp, within: 0...0.1)])
    }()

    /// Tilted back into the 70-80° band where neither upright nor flat is reliable.
    static let ambiguousTiltBand: Scenario = {
        var trace = ScenarioBuilder(seed: 4, noise: 0.03)
        trace.hold(angle: 0, tilt: 20, for: 1)
        trace.turn(from: (0, 20), to: (0, 75), over: 2)
        trace.move(for: 10) { f in ScenarioBuilder.gravity(angle: 10 * sin(f * 37), tilt: 75 + 4 * sin(f * 23)) }
        return Scenario(name: "ambiguous-70-80", summary: "tilt wobbling in the 70-80° band",
                        samples: trace.samples, expected: [ExpectedChange(.portrait, within: 0...0.1)])
    }()

    /// Put down flat for 3 s, then picked up the way it was put down: back to portrait at once.
    static let pickUpFromFlat: Scenario = {
        var trace = ScenarioBuilder(seed: 5)
        trace.hold(angle: 0, tilt: 20, for: 1)
        trace.turn(from: (0, 20), to: (0, 88), over: 1.5)       // 80° reached at 1 + 1.32 s
        trace.hold(angle: 0, tilt: 88, for: 3)
        trace.turn(from: (0, 88), to: (0, 20), over: 0.8)       // starts at 5.5 s, below 70° at 5.71 s
        trace.hold(angle: 0, tilt: 20, for: 2)
        return Scenario(name: "pick-up-from-flat", summary: "lying flat, then picked up in portrait", samples: trace.samples, expected: [
            ExpectedChange(.portrait, within: 0...0.1),
            ExpectedChange(.faceUp, within: 2.8...3.1),
            ExpectedChange(.portrait, within: 5.7...6.0),
        ])
    }()

    /// Lying flat, then picked up into landscape: no detour, decided once below landscape's 65°
    /// tilt limit (at about 3.27 s).
    static let pickUpIntoLandscape: Scenario = {
        var trace = ScenarioBuilder(seed: 6)
        trace.hold(angle: 0, tilt: 88, for: 3)
        trace.turn(from: (90, 88), to: (90, 20), over: 0.8)     // flat ends (below 80°) at about 3.1 s
        trace.hold(angle: 90, tilt: 20, for: 2)
        return Scenario(name: "pick-up-into-landscape", summary: "lying flat, then picked up in landscape", samples: trace.samples, expected: [
            ExpectedChange(.faceUp, within: 0...0.1),
            ExpectedChange(.landscapeLeft, within: 3.27...3.5),
        ])
    }()

    /// Put down from landscapeRight, lying flat 4 s, then picked up by hand into portrait: the
    /// tilt from 88° to 20° over 400 ms, below 70° (portrait's limit) at 7.11 s; decided before
    /// the motion ends at 7.4 s.
    static let pickUpByHand: Scenario = {
        var trace = ScenarioBuilder(seed: 17)
        trace.putDownFlat(from: 270)
        trace.turn(from: (0, 88), to: (0, 20), over: 0.4)
        trace.hold(angle: 0, tilt: 20, for: 2)
        return Scenario(name: "pick-up-by-hand", summary: "flat after landscapeRight, picked up by hand into portrait", samples: trace.samples, expected: [
            ExpectedChange(.landscapeRight, within: 0...0.1),
            ExpectedChange(.faceUp, within: 3.2...3.5),
            ExpectedChange(.portrait, within: 7.1...7.3),
        ])
    }()

    /// The same pick-up all at once: from flat to upright in portrait between two samples (at 7 s).
    static let pickUpAtOnce: Scenario = {
        var trace = ScenarioBuilder(seed: 18)
        trace.putDownFlat(from: 270)
        trace.hold(angle: 0, tilt: 20, for: 2)
        return Scenario(name: "pick-up-at-once", summary: "flat after landscapeRight, then upright in portrait at once", samples: trace.samples, expected: [
            ExpectedChange(.landscapeRight, within: 0...0.1),
            ExpectedChange(.faceUp, within: 3.2...3.5),
            ExpectedChange(.portrait, within: 7...7.15),
        ])
    }()

    /// Picked up from flat into portrait with the hand twisting ±40° on the way (as `putDownSwing`
    /// puts it down): never a landscape flash.
    static let pickUpTwisting: Scenario = {
        var trace = ScenarioBuilder(seed: 19)
        trace.putDownFlat(from: 90)
        trace.move(for: 0.6) { f in ScenarioBuilder.gravity(angle: 40 * sin(f * 2 * .pi), tilt: 88 - 68 * f) }
        trace.hold(angle: 0, tilt: 20, for: 2)
        return Scenario(name: "pick-up-twisting", summary: "picked up from flat into portrait with a twist", samples: trace.samples, expected: [
            ExpectedChange(.landscapeLeft, within: 0...0.1),
            ExpectedChange(.faceUp, within: 3.2...3.5),
            ExpectedChange(.portrait, within: 7.16...7.45),
        ])
    }()

    /// Carried loose in a bag, lying between landscapeLeft and upside down (in-plane 130°, tilt
    /// −35°) while its owner walks: each step bounces it ±0.35 g at 2 Hz and sways it ±38° at
    /// 1 Hz, for 20 s (the pattern of a phone in a purse, re-created: the sway crosses both
    /// orientations' hysteresis borders, 157.5° and 112.5°). Only the first decision.
    static let carriedAtTheBorder: Scenario = {
        var trace = ScenarioBuilder(seed: 20, noise: 0.03)
        trace.hold(angle: 130, tilt: -35, for: 1)
        trace.move(for: 20) { f in
            let t = f * 20
            let carried = ScenarioBuilder.gravity(angle: 130 + 38 * sin(t * 2 * .pi), tilt: -35 + 8 * sin(t * 2 * .pi * 0.7))
            return carried * (1 + 0.35 * sin(t * 2 * 2 * .pi))
        }
        return Scenario(name: "carried-at-the-border", summary: "walking, the device between two orientations in a bag",
                        samples: trace.samples, expected: [ExpectedChange(.landscapeLeft, within: 0...0.1)])
    }()

    /// Reading in portrait while sitting down: the body drops (−0.25 g), the chair brakes it
    /// (+0.5 g, with a 0.1 s knock of +1 g up and 0.4 g sideways as it lands), the torso leans and
    /// sways; the hand keeps the pose within 15° of tilt and 8° in the plane. A motion that keeps
    /// the pose: nothing may change.
    static let sitDownReading: Scenario = {
        var trace = ScenarioBuilder(seed: 22)
        trace.hold(angle: 0, tilt: 40, for: 1)
        trace.move(for: 1.6) { f in
            let t = f * 1.6
            let knock = (0.9..<1.0).contains(t) ? 1.0 : 0
            let up = (t < 0.6 ? -0.25 * sin(.pi * t / 0.6) : t < 1.1 ? 0.5 * sin(.pi * (t - 0.6) / 0.5) : 0) + knock
            return ScenarioBuilder.carried(angle: 8 * sin(2 * .pi * f), tilt: 40 + 15 * sin(.pi * f), up: up,
                                           sideways: 0.15 * sin(2 * .pi * f) + 0.4 * knock, forward: 0.2 * sin(2 * .pi * f))
        }
        trace.hold(angle: 0, tilt: 40, for: 2)
        return Scenario(name: "sit-down-reading", summary: "sitting down while reading in portrait", samples: trace.samples,
                        expected: [ExpectedChange(.portrait, within: 0...0.1)])
    }()

    /// Reading in landscape while standing up: the legs push (+0.5 g), the body slows at the top
    /// (−0.25 g), leaning forward then back; the screen comes 10° more upright on the way (8° more
    /// at the middle), and the pose stays within 8° in the plane.
    static let standUpReading: Scenario = {
        var trace = ScenarioBuilder(seed: 23)
        trace.hold(angle: 90, tilt: 50, for: 1)
        trace.move(for: 1.4) { f in
            let t = f * 1.4
            let up = t < 0.5 ? 0.5 * sin(.pi * t / 0.5) : t < 1.1 ? -0.25 * sin(.pi * (t - 0.5) / 0.6) : 0
            return ScenarioBuilder.carried(angle: 90 - 8 * sin(2 * .pi * f), tilt: 50 - 10 * f - 8 * sin(.pi * f), up: up,
                                           sideways: -0.1 * sin(2 * .pi * f), forward: -0.25 * sin(2 * .pi * f))
        }
        trace.hold(angle: 90, tilt: 40, for: 2)
        return Scenario(name: "stand-up-reading", summary: "standing up while reading in landscape", samples: trace.samples,
                        expected: [ExpectedChange(.landscapeLeft, within: 0...0.1)])
    }()

    /// Lying back in bed while reading in portrait: the phone follows the face from 40° back to
    /// 50° face down (overhead) through vertical, over 3 s, with the body's sway. Still portrait
    /// to the reader, and to gravity: nothing may change.
    static let lieBackReading: Scenario = {
        var trace = ScenarioBuilder(seed: 24)
        trace.hold(angle: 0, tilt: 40, for: 1)
        trace.move(for: 3) { f in
            ScenarioBuilder.carried(angle: 10 * sin(2 * .pi * f), tilt: 40 - 90 * f, up: -0.1 * sin(2 * .pi * f),
                                    sideways: 0.1 * sin(3 * .pi * f), forward: 0.15 * sin(2 * .pi * f))
        }
        trace.hold(angle: 0, tilt: -50, for: 2)
        return Scenario(name: "lie-back-reading", summary: "lying back in bed while reading in portrait", samples: trace.samples,
                        expected: [ExpectedChange(.portrait, within: 0...0.1)])
    }()

    /// Walking with the device in portrait (±0.3 g bounce at 2 Hz), turned into landscapeLeft over
    /// 0.5 s at 4 s while still walking: decided within a second of the turn's end.
    static let turnedWhileWalking: Scenario = {
        var trace = ScenarioBuilder(seed: 21)
        func walking(angle: (Double) -> Double, for duration: Double, from start: Double) {
            trace.move(for: duration) { f in
                let t = start + f * duration
                return ScenarioBuilder.gravity(angle: angle(f), tilt: 30) * (1 + 0.3 * sin(t * 2 * 2 * .pi))
            }
        }
        walking(angle: { _ in 0 }, for: 4, from: 0)
        walking(angle: { f in 90 * f }, for: 0.5, from: 4)
        walking(angle: { _ in 90 }, for: 4, from: 4.5)
        return Scenario(name: "turned-while-walking", summary: "turned into landscape while walking", samples: trace.samples, expected: [
            ExpectedChange(.portrait, within: 0...0.1),
            ExpectedChange(.landscapeLeft, within: 4.3...5.5),
        ])
    }()

    /// Swung down onto a table, the hand twisting ±40° on the way: never a landscape flash.
    static let putDownSwing: Scenario = {
        var trace = ScenarioBuilder(seed: 7)
        trace.hold(angle: 0, tilt: 20, for: 1)
        trace.move(for: 0.4) { f in ScenarioBuilder.gravity(angle: 40 * sin(f * 2 * .pi), tilt: 20 + 68 * f) }
        trace.hold(angle: 0, tilt: 88, for: 3)
        return Scenario(name: "put-down-swing", summary: "swung down flat with a twist", samples: trace.samples, expected: [
            ExpectedChange(.portrait, within: 0...0.1),
            ExpectedChange(.faceUp, within: 1.8...2.1),
        ])
    }()

    /// Shaken ±1.5 g sideways at 3 Hz for 5 s.
    static let shake: Scenario = {
        var trace = ScenarioBuilder(seed: 8)
        trace.hold(angle: 0, tilt: 10, for: 1)
        trace.move(for: 5) { f in
            let upright = ScenarioBuilder.gravity(angle: 0, tilt: 10)
            return Vector3(upright.x + 1.5 * ScenarioBuilder.g * sin(f * 5 * 3 * 2 * .pi), upright.y, upright.z)
        }
        trace.hold(angle: 0, tilt: 10, for: 1)
        return Scenario(name: "shake", summary: "±1.5 g shake at 3 Hz", samples: trace.samples,
                        expected: [ExpectedChange(.portrait, within: 0...0.1)])
    }()

    /// A single 50 ms knock of 3 g from the side.
    static let bump: Scenario = {
        var trace = ScenarioBuilder(seed: 9)
        trace.hold(angle: 0, tilt: 10, for: 1)
        trace.move(for: 0.05) { _ in
            let upright = ScenarioBuilder.gravity(angle: 0, tilt: 10)
            return Vector3(upright.x - 3 * ScenarioBuilder.g, upright.y, upright.z)
        }
        trace.hold(angle: 0, tilt: 10, for: 2)
        return Scenario(name: "bump", summary: "one 50 ms 3 g bump", samples: trace.samples,
                        expected: [ExpectedChange(.portrait, within: 0...0.1)])
    }()

    /// Walking with the device at 30° tilt: ±0.3 g bounce at 2 Hz and a little sway.
    static let walking: Scenario = {
        var trace = ScenarioBuilder(seed: 10)
        trace.move(for: 10) { f in
            let t = f * 10
            let upright = ScenarioBuilder.gravity(angle: 0, tilt: 30)
            let bounce = 1 + 0.3 * sin(t * 2 * 2 * .pi)
            return Vector3(upright.x + 0.1 * ScenarioBuilder.g * sin(t * 2 * .pi), upright.y * bounce, upright.z * bounce)
        }
        return Scenario(name: "walking", summary: "walking at 30° tilt", samples: trace.samples,
                        expected: [ExpectedChange(.portrait, within: 0...0.1)])
    }()

    /// Turned from portrait to landscape through flat, briefly lying flat on the way.
    static let rotateThroughFlat: Scenario = {
        var trace = ScenarioBuilder(seed: 11)
        trace.hold(angle: 0, tilt: 20, for: 1)
        trace.turn(from: (0, 20), to: (0, 85), over: 0.6)
        trace.hold(angle: 45, tilt: 85, for: 0.3)
        trace.turn(from: (90, 85), to: (90, 20), over: 0.6)      // from 1.9 s; below 65° at about 2.09 s
        trace.hold(angle: 90, tilt: 20, for: 2)
        return Scenario(name: "rotate-through-flat", summary: "portrait to landscape through flat", samples: trace.samples, expected: [
            ExpectedChange(.portrait, within: 0...0.1),
            ExpectedChange(.landscapeLeft, within: 2.1...2.6),
        ])
    }()

    /// Flipped 180° in the screen's plane in 0.3 s: upside down, never landscape on the way.
    static let fastFlip: Scenario = {
        var trace = ScenarioBuilder(seed: 12)
        trace.hold(angle: 0, tilt: 10, for: 1)
        trace.turn(from: (0, 10), to: (180, 10), over: 0.3)
        trace.hold(angle: 180, tilt: 10, for: 2)
        return Scenario(name: "fast-flip", summary: "180° flip in 0.3 s", samples: trace.samples, expected: [
            ExpectedChange(.portrait, within: 0...0.1),
            ExpectedChange(.portraitUpsideDown, within: 1.3...1.9),
        ])
    }()

    /// Held overhead, screen facing down at 50°, in landscape (reading in bed).
    static let overheadUse: Scenario = {
        var trace = ScenarioBuilder(seed: 13)
        trace.hold(angle: 90, tilt: -50, for: 5)
        return Scenario(name: "overhead", summary: "landscape at -50° tilt", samples: trace.samples,
                        expected: [ExpectedChange(.landscapeLeft, within: 0...0.1)])
    }()

    /// Dropped: 0.4 s of free fall, a landing knock, then still in portrait.
    static let freeFall: Scenario = {
        var trace = ScenarioBuilder(seed: 14)
        trace.hold(angle: 0, tilt: 10, for: 1)
        trace.move(for: 0.4) { _ in Vector3(0.1, -0.2, 0.1) }
        trace.move(for: 0.04) { _ in Vector3(2 * ScenarioBuilder.g, -3 * ScenarioBuilder.g, 0) }
        trace.hold(angle: 0, tilt: 10, for: 2)
        return Scenario(name: "free-fall", summary: "0.4 s free fall and landing", samples: trace.samples,
                        expected: [ExpectedChange(.portrait, within: 0...0.1)])
    }()

    /// Suspended in portrait, resumed 5 s later in landscape.
    static let suspendGap: Scenario = {
        var trace = ScenarioBuilder(seed: 15)
        trace.hold(angle: 0, tilt: 10, for: 1)
        trace.skip(5)
        trace.hold(angle: 90, tilt: 10, for: 2)                  // resumes at 6 s
        return Scenario(name: "suspend-gap", summary: "5 s gap in samples, resumed turned", samples: trace.samples, expected: [
            ExpectedChange(.portrait, within: 0...0.1),
            ExpectedChange(.landscapeLeft, within: 6.0...6.1),
        ])
    }()

    /// Turned to landscape while x, y and z are read 5 ms apart (polled sysfs is not atomic).
    static let nonAtomicReads: Scenario = {
        var trace = ScenarioBuilder(seed: 16, noise: 0.01)
        let turnStart = 1.0, turnTime = 0.25
        func clean(_ t: Double) -> Vector3 {
            let f = min(1, max(0, (t - turnStart) / turnTime))
            return ScenarioBuilder.gravity(angle: 90 * f, tilt: 10)
        }
        for step in 0..<150 {
            let t = Double(step) / 50
            let mixed = Vector3(clean(t).x, clean(t + 0.005).y, clean(t + 0.010).z)
            trace.add(mixed, at: t)
        }
        return Scenario(name: "non-atomic-reads", summary: "x, y, z read 5 ms apart mid-turn", samples: trace.samples, expected: [
            ExpectedChange(.portrait, within: 0...0.1),
            ExpectedChange(.landscapeLeft, within: 1.2...1.45),
        ])
    }()
}
