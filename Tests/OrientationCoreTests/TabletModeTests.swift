import Foundation
import OrientationCore
import ScenarioCorpus
import Testing

@Suite struct TabletModeTests {
    static let g = 9.80665

    static func halves(hinge: Double, baseTilt: Double = 0) -> (display: Vector3, base: Vector3) {
        let pose = ConvertiblePose("", hinge: hinge, baseTilt: baseTilt)
        return (pose.display, pose.base)
    }

    static func angle(_ reading: HingeAngle.Reading) -> Double? {
        if case .angle(let value) = reading { return value }
        return nil
    }

    @Test(arguments: [
        // Literal readings of the five named positions, base on the table.
        ("closed", Vector3(0, 0, -g), 0.0),
        ("laptop, screen upright", Vector3(0, -g, 0), 90.0),
        ("laptop, screen leaning back 20°", Vector3(0, -g * cos(20 * .pi / 180), g * sin(20 * .pi / 180)), 110.0),
        ("flat", Vector3(0, 0, g), 180.0),
        ("lid folded 90° below the table's edge", Vector3(0, g, 0), 270.0),
    ])
    func namedPositions(name: String, display: Vector3, expected: Double) throws {
        let reading = try #require(Self.angle(HingeAngle.reading(display: display, base: Vector3(0, 0, Self.g))), "\(name)")
        #expect(abs(reading - expected) < 0.001 || abs(reading - expected - 360) < 0.001, "\(name): \(reading)")
    }

    /// Tent (300°) and tablet (360°) stand on their edges or lie face down: the base is tilted,
    /// and the angle is the same whatever the tilt, as long as the hinge stays horizontal.
    @Test(arguments: [0.0, 30.0, 110.0, 300.0, 359.0], [0.0, -60.0, 45.0, 150.0])
    func angleDoesNotDependOnHowTheMachineStands(hinge: Double, baseTilt: Double) throws {
        let (display, base) = Self.halves(hinge: hinge, baseTilt: baseTilt)
        let reading = try #require(Self.angle(HingeAngle.reading(display: display, base: base)))
        #expect(abs(reading - hinge) < 0.001)
    }

    @Test func undefinedWithTheHingeAxisNearVertical() {
        // Standing on its side: gravity along the hinge in both halves.
        let side = Vector3(Self.g, 0.5, 0.5)
        guard case .undefined(let reason) = HingeAngle.reading(display: side, base: side) else {
            Issue.record("an angle for a machine standing on its side")
            return
        }
        #expect(reason.contains("vertical"))
        // The hinge axis tilted 55° from vertical: still measurable.
        let tilted = Vector3(Self.g * cos(55 * .pi / 180), 0, Self.g * sin(55 * .pi / 180))
        #expect(Self.angle(HingeAngle.reading(display: tilted, base: tilted)) != nil)
    }

    /// Opens the lid from closed through laptop, flat and tent to tablet and back at 20 Hz,
    /// 2° a sample; returns every published state with the hinge angle it happened at.
    static func sweep(_ angles: [Double], baseTilt: (Double) -> Double = { _ in 0 },
                      detector: inout TabletModeDetector, from start: Double = 0) -> [(at: Double, state: TabletModeDetector.State)] {
        var published: [(Double, TabletModeDetector.State)] = []
        var time = start
        for hinge in angles {
            let (display, base) = halves(hinge: hinge, baseTilt: baseTilt(hinge))
            if let state = detector.display(AccelerometerSample(time: time, acceleration: display)) { published.append((hinge, state)) }
            if let state = detector.base(AccelerometerSample(time: time + 0.001, acceleration: base)) { published.append((hinge, state)) }
            time += 0.05
        }
        return published
    }

    @Test func opensIntoATabletAndBackWithHysteresis() throws {
        var detector = TabletModeDetector()
        let opening = Array(stride(from: 0.0, through: 360, by: 2))
        // Tent and tablet stand on the machine's edges: tilt the base as the lid goes past flat.
        let tilt = { (hinge: Double) in hinge > 180 ? -(hinge - 180) / 2 : 0 }
        let up = Self.sweep(opening, baseTilt: tilt, detector: &detector)
        let entered = try #require(up.first { $0.state.tabletMode == true })
        #expect(entered.at >= 200 && entered.at < 206, "entered tablet mode at \(entered.at)°")
        // Near closed with no motion to go by, neither the angle nor tablet mode is known.
        #expect(up.first?.state.angle == nil && up.first?.state.tabletMode == nil)
        #expect(up.first { $0.state.tabletMode != nil }?.state.tabletMode == false)
        // Angles follow the hinge (the low-pass filter lags a little) and end at 360, not 0.
        for (hinge, state) in up { if let angle = state.angle { #expect(abs(angle - hinge) < 12, "\(angle) at \(hinge)") } }
        // Still at 360° for half a second, the filter catches up.
        let settled = Self.sweep(Array(repeating: 360, count: 10), baseTilt: tilt, detector: &detector, from: 100)
        #expect((settled.last?.state ?? detector.state).angle.map { $0 >= 355 } == true)
        #expect(detector.state.tabletMode == true)

        let closing = Array(stride(from: 360.0, through: 90, by: -2))
        let down = Self.sweep(closing, baseTilt: tilt, detector: &detector, from: 200)
        let left = try #require(down.first { $0.state.tabletMode == false })
        #expect(left.at <= 160 && left.at > 150, "left tablet mode at \(left.at)°")
        // Published angles step by at least 5°: no flood of tiny changes.
        let angles = down.compactMap(\.state.angle)
        #expect(zip(angles, angles.dropFirst()).allSatisfy { abs($0 - $1) >= 5 })
    }

    @Test func anUndefinedAngleHoldsTabletMode() throws {
        var detector = TabletModeDetector()
        _ = Self.sweep(Array(stride(from: 300.0, through: 340, by: 2)), detector: &detector)
        #expect(detector.state.tabletMode == true)
        let side = Vector3(Self.g, 0.3, 0.3)
        var states: [TabletModeDetector.State] = []
        for step in 0..<10 {
            let time = 10 + Double(step) * 0.05
            if let s = detector.display(AccelerometerSample(time: time, acceleration: side)) { states.append(s) }
            if let s = detector.base(AccelerometerSample(time: time, acceleration: side)) { states.append(s) }
        }
        let undefined = try #require(states.last)
        #expect(undefined.angle == nil)
        #expect(undefined.problem?.contains("vertical") == true)
        #expect(undefined.tabletMode == true)
        // One change announced, not one per sample.
        #expect(states.count == 1)
    }

    /// Closed and folded back read alike: with no motion to go by, orientd says so and decides
    /// nothing; once the lid opens past the seam, it knows, and follows it back down to 0°.
    @Test func nearTheSeamWithoutHistoryNothingIsGuessed() throws {
        var detector = TabletModeDetector()
        let still = Self.sweep(Array(repeating: 355, count: 10), detector: &detector)
        #expect(still.count == 1)
        #expect(still.first?.state == TabletModeDetector.State(problem: "closed or folded back into a tablet: the two read alike until the lid moves"))
        _ = Self.sweep(Array(stride(from: 355.0, through: 300, by: -2)), detector: &detector, from: 10)
        #expect(detector.state.tabletMode == true)
        _ = Self.sweep(Array(stride(from: 300.0, through: 360, by: 2)) + Array(repeating: 360, count: 10), detector: &detector, from: 20)
        #expect(detector.state.angle.map { $0 >= 355 } == true, "\(detector.state)")
    }

    /// The base cannot be read: the angle is unknown with the reason, tablet mode is kept.
    @Test func anUnreadableHalfMakesTheAngleUnknown() {
        var detector = TabletModeDetector()
        _ = Self.sweep(Array(stride(from: 150.0, through: 250, by: 2)), detector: &detector)
        let state = detector.unreadable(because: "cannot read the base accelerometer: gone")
        #expect(state == TabletModeDetector.State(tabletMode: true, problem: "cannot read the base accelerometer: gone"))
        #expect(detector.unreadable(because: "cannot read the base accelerometer: gone") == nil)
    }

    @Test func shakingOrAStaleHalfGivesNoAngle() {
        var detector = TabletModeDetector()
        let (display, base) = Self.halves(hinge: 120)
        #expect(detector.display(AccelerometerSample(time: 0, acceleration: display * 2)) == nil)
        #expect(detector.base(AccelerometerSample(time: 0, acceleration: base * 2)) == nil)
        // The base's sample is two seconds older than the display's: not a pair.
        var stale = TabletModeDetector()
        _ = stale.base(AccelerometerSample(time: 0, acceleration: base))
        #expect(stale.display(AccelerometerSample(time: 2, acceleration: display)) == nil)
        #expect(stale.base(AccelerometerSample(time: 2.01, acceleration: base))?.angle == 120)
    }
}
