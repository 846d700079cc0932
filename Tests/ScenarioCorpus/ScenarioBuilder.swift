import Foundation
import OrientationCore

/// Writes a trace step by step at a fixed rate: holds, turns, tilts, with seeded noise.
struct ScenarioBuilder {
    static let g = 9.80665

    let rate: Double
    private(set) var samples: [AccelerometerSample] = []
    private(set) var time = 0.0
    private var random: SeededRandom
    /// Noise added to every axis of every sample, in g.
    var noise: Double

    init(rate: Double = 50, seed: UInt64, noise: Double = 0.02) {
        self.rate = rate
        self.random = SeededRandom(seed: seed)
        self.noise = noise
    }

    /// 1 g pointing at in-plane `angle` (0 portrait, 90 landscapeLeft, ...) with the screen tilted
    /// `tilt` degrees towards the sky.
    static func gravity(angle: Double, tilt: Double) -> Vector3 {
        let inPlane = g * cos(tilt * .pi / 180)
        return Vector3(-inPlane * sin(angle * .pi / 180), -inPlane * cos(angle * .pi / 180), g * sin(tilt * .pi / 180))
    }

    /// The device at in-plane `angle` and `tilt` while the body that holds it accelerates, in g:
    /// `up`, `sideways` (horizontal, along the screen) and `forward` (horizontal, across it). The
    /// accelerometer reads the reaction to gravity plus the acceleration, so `up` scales the vector
    /// and only the horizontal parts turn it.
    static func carried(angle: Double, tilt: Double, up: Double, sideways: Double, forward: Double) -> Vector3 {
        let a = angle * .pi / 180, t = tilt * .pi / 180
        let inPlane = Vector3(-sin(a), -cos(a), 0)
        let alongScreen = Vector3(cos(a), -sin(a), 0)
        let across = Vector3(-sin(t) * inPlane.x, -sin(t) * inPlane.y, cos(t))
        return gravity(angle: angle, tilt: tilt) * (1 + up) + alongScreen * (sideways * g) + across * (forward * g)
    }

    /// Samples for `duration` seconds; `shape` gives the clean vector at a fraction 0...1 of it.
    mutating func move(for duration: Double, _ shape: (Double) -> Vector3) {
        let count = max(1, Int((duration * rate).rounded()))
        for step in 0..<count {
            add(shape(Double(step) / Double(count)))
        }
    }

    mutating func hold(angle: Double, tilt: Double = 0, for duration: Double) {
        move(for: duration) { _ in Self.gravity(angle: angle, tilt: tilt) }
    }

    /// Moves the in-plane angle and the tilt linearly.
    mutating func turn(from start: (angle: Double, tilt: Double), to end: (angle: Double, tilt: Double), over duration: Double) {
        move(for: duration) { f in
            Self.gravity(angle: start.angle + (end.angle - start.angle) * f, tilt: start.tilt + (end.tilt - start.tilt) * f)
        }
    }

    /// Upright in the orientation at in-plane `angle` (tilted 20°) for 1 s, laid down over 2 s
    /// (80° reached at 2.76 s), then lying flat (88°) for 4 s: the start of the pick-up scenarios.
    mutating func putDownFlat(from angle: Double) {
        hold(angle: angle, tilt: 20, for: 1)
        turn(from: (angle, 20), to: (angle, 88), over: 2)
        hold(angle: 0, tilt: 88, for: 4)
    }

    /// Leaves a gap in the samples (suspend/resume).
    mutating func skip(_ duration: Double) {
        time += duration
    }

    mutating func add(_ clean: Vector3, at explicitTime: Double? = nil) {
        let noisy = Vector3(clean.x + jitter(), clean.y + jitter(), clean.z + jitter())
        samples.append(AccelerometerSample(time: explicitTime ?? time, acceleration: noisy))
        if explicitTime == nil { time += 1 / rate }
    }

    mutating func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }

    private mutating func jitter() -> Double {
        noise == 0 ? 0 : Double.random(in: -noise...noise, using: &random) * Self.g
    }
}

/// SplitMix64: the same noise on every run and machine (the benchmark's timings use it too).
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
