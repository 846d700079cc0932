import Glibc
@testable import OrientationCore
import Testing

/// `MountMatrixCalibration` against every axis-aligned mounting there is (24 rotations and their
/// 24 mirror images) and real hwdb matrices, with noise, and the readings it must refuse.
@Suite struct MountMatrixCalibrationTests {
    static let g = MountMatrixCalibration.gravity

    /// The 48 signed permutation matrices: the proper (det +1) ones first.
    static let allMountings: [MountMatrix] = {
        let permutations = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]
        var matrices: [MountMatrix] = []
        for permutation in permutations {
            for signs in 0..<8 {
                let rows = (0..<3).map { row -> Vector3 in
                    var entries = [0.0, 0.0, 0.0]
                    entries[permutation[row]] = signs & (1 << row) == 0 ? 1 : -1
                    return Vector3(entries[0], entries[1], entries[2])
                }
                matrices.append(MountMatrix(rows: rows)!)
            }
        }
        return matrices.filter { $0.determinant > 0 } + matrices.filter { $0.determinant < 0 }
    }()

    /// From systemd's hwdb.d/60-sensor.hwdb (Acer, Asus, Chuwi, Archos, AYANEO models), mirrored ones included.
    static let hwdbMatrices = [
        "0, -1, 0; -1, 0, 0; 0, 0, -1", "0, -1, 0; -1, 0, 0; 0, 0, 1", "0, 1, 0; 1, 0, 0; 0, 0, 1",
        "0, 1, 0; 1, 0, 0; 0, 0, -1", "1, 0, 0; 0, -1, 0; 0, 0, 1", "-1, 0, 0; 0, 1, 0; 0, 0, -1",
        "-1, 0, 0; 0, -1, 0; 0, 0, 1", "0, -1, 0; 1, 0, 0; 0, 0, 1", "0, 1, 0; -1, 0, 0; 0, 0, 1",
        "0, -1, 0; 0, 0, -1; 1, 0, 0", "0, -1, 0; 0, 0, 1; -1, 0, 0",
    ]

    /// What a sensor mounted as `truth` reads when the device-frame reaction to gravity is
    /// `device` (in g): the inverse of a signed permutation is its transpose.
    static func raw(_ device: Vector3, mountedAs truth: MountMatrix) -> Vector3 {
        let r = truth.rows
        return Vector3(r[0].x * device.x + r[1].x * device.y + r[2].x * device.z,
                       r[0].y * device.x + r[1].y * device.y + r[2].y * device.z,
                       r[0].z * device.x + r[1].z * device.y + r[2].z * device.z) * g
    }

    /// A few tenths of m/s² of seeded noise.
    struct Noise {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53) * 0.6 - 0.3
        }
        mutating func vector() -> Vector3 { Vector3(next(), next(), next()) }
    }

    /// The three steps as a person does them: upright leaning back 15° (a laptop lid, a tablet
    /// in the hand), turned left a little tilted, flat; each the mean of noisy samples.
    static func steps(mountedAs truth: MountMatrix, seed: UInt64) -> [CalibrationReading] {
        var noise = Noise(state: seed)
        let lean = 15.0 * .pi / 180
        let poses = [Vector3(0, -cos(lean), sin(lean)), Vector3(-cos(0.1), 0, sin(0.1)), Vector3(0.05, -0.05, 1)]
        return poses.map { pose in
            CalibrationReading(samples: (0..<25).map { _ in raw(pose, mountedAs: truth) + noise.vector() })!
        }
    }

    static func derive(_ steps: [CalibrationReading]) throws(CalibrationProblem) -> MountMatrix {
        try MountMatrixCalibration.derive(upright: steps[0], turnedLeft: steps[1], flat: steps[2])
    }

    @Test func theMountingsAre24ProperAnd24Mirrored() {
        #expect(Self.allMountings.count == 48)
        #expect(Self.allMountings.filter { $0.determinant == 1 }.count == 24)
        #expect(Self.allMountings.filter { $0.determinant == -1 }.count == 24)
    }

    @Test("every axis-aligned mounting is measured back, and then every pose reads right",
          arguments: allMountings.indices)
    func measuresEveryMounting(index: Int) throws {
        let truth = Self.allMountings[index]
        let derived = try Self.derive(Self.steps(mountedAs: truth, seed: UInt64(index + 1)))
        #expect(derived == truth)
        for reading in MountedOrientations.readings(with: derived, mountedAs: truth) {
            #expect(reading.reads == reading.pose, "\(truth): \(reading.pose) reads \(reading.reads)")
        }
    }

    @Test("real hwdb matrices are measured back", arguments: hwdbMatrices)
    func measuresRealMatrices(text: String) throws {
        let truth = try MountMatrix(parsing: text)
        #expect(try Self.derive(Self.steps(mountedAs: truth, seed: 7)) == truth)
        #expect(HwdbEntry.value(of: truth) == text)
    }

    @Test func aMirroringMatrixHasDeterminantMinusOne() throws {
        #expect(try MountMatrix(parsing: "0, 1, 0; 1, 0, 0; 0, 0, 1").determinant == -1)
        #expect(MountMatrix.identity.determinant == 1)
    }

    @Test func predictsWhatTheCurrentMatrixGetsWrong() throws {
        // Mounted a quarter turned and mirrored, read without a matrix: upright reads landscapeRight.
        let truth = try MountMatrix(parsing: "0, -1, 0; -1, 0, 0; 0, 0, 1")
        let readings = MountedOrientations.readings(with: .identity, mountedAs: truth)
        #expect(readings.map(\.pose) == [.portrait, .landscapeLeft, .portraitUpsideDown, .landscapeRight, .faceUp, .faceDown])
        #expect(readings.map(\.reads) == [.landscapeRight, .portraitUpsideDown, .landscapeLeft, .portrait, .faceUp, .faceDown])
    }

    // MARK: refusals

    static let upright = CalibrationReading(mean: Vector3(0, -g, 0), spread: 0.2)
    static let left = CalibrationReading(mean: Vector3(-g, 0, 0), spread: 0.2)
    static let flat = CalibrationReading(mean: Vector3(0, 0, g), spread: 0.2)

    @Test func theSameReadingsAsIdentityGiveIdentity() throws {
        #expect(try MountMatrixCalibration.derive(upright: Self.upright, turnedLeft: Self.left, flat: Self.flat) == .identity)
    }

    @Test func refusesAStepWhereTheDeviceMoved() {
        // Half the step in portrait, half turned left.
        let moving = CalibrationReading(samples: Array(repeating: Vector3(0, -Self.g, 0), count: 10) + Array(repeating: Vector3(-Self.g, 0, 0), count: 10))!
        #expect(moving.spread > 5)
        #expect(throws: CalibrationProblem.moved(.turnedLeft, spread: moving.spread)) {
            try MountMatrixCalibration.derive(upright: Self.upright, turnedLeft: moving, flat: Self.flat)
        }
        #expect(CalibrationProblem.moved(.turnedLeft, spread: 6.93).description.contains("step 2 (turned left): the readings moved by up to 6.9 m/s² during the step: the device moved"))
    }

    @Test func refusesAReadingFarFromOneG() {
        let shaken = CalibrationReading(mean: Vector3(0, -14, 0), spread: 0.2)
        #expect(throws: CalibrationProblem.notOneG(.upright, magnitude: 14)) {
            try MountMatrixCalibration.derive(upright: shaken, turnedLeft: Self.left, flat: Self.flat)
        }
        #expect(CalibrationProblem.notOneG(.upright, magnitude: 14).description.contains("14 m/s², far from 1 g"))
    }

    @Test func refusesADeviceThatLayFlatThroughout() throws {
        let problem = #expect(throws: CalibrationProblem.self) {
            try MountMatrixCalibration.derive(upright: Self.flat, turnedLeft: Self.flat, flat: Self.flat)
        }
        #expect(problem == .neverTurned(largestAngle: 0))
        #expect(problem?.description.contains("the device was not turned between the steps. If it lay flat the whole time, pick it up") == true)
    }

    /// Step 2 against step 1, checked as soon as step 2 is read: a quarter turn passes; none, half
    /// of one or a half turn are refused before step 3.
    @Test func step2IsCheckedAgainstStep1AtOnce() throws {
        try MountMatrixCalibration.checkTurn(from: Self.upright, to: Self.left)
        #expect(throws: CalibrationProblem.neverTurned(largestAngle: 0)) {
            try MountMatrixCalibration.checkTurn(from: Self.upright, to: Self.upright)
        }
        let halfway = CalibrationReading(mean: Vector3(-Self.g * 0.7071, -Self.g * 0.7071, 0), spread: 0.2)
        let problem = #expect(throws: CalibrationProblem.self) { try MountMatrixCalibration.checkTurn(from: Self.upright, to: halfway) }
        guard case .tooClose(.upright, .turnedLeft, let angle)? = problem else {
            Issue.record("expected tooClose, got \(String(describing: problem))")
            return
        }
        #expect(abs(angle - 45) < 0.1)
        let upsideDown = CalibrationReading(mean: Vector3(0, Self.g, 0), spread: 0.2)
        #expect(throws: CalibrationProblem.tooFarApart(.upright, .turnedLeft, angle: 180)) {
            try MountMatrixCalibration.checkTurn(from: Self.upright, to: upsideDown)
        }
    }

    @Test func saysWhichStepLookedFlat() {
        #expect(throws: CalibrationProblem.tooClose(.upright, .flat, angle: 0)) {
            try MountMatrixCalibration.derive(upright: Self.flat, turnedLeft: Self.left, flat: Self.flat)
        }
        #expect(throws: CalibrationProblem.tooClose(.turnedLeft, .flat, angle: 0)) {
            try MountMatrixCalibration.derive(upright: Self.upright, turnedLeft: Self.flat, flat: Self.flat)
        }
        #expect(CalibrationProblem.tooClose(.turnedLeft, .flat, angle: 0).description.hasPrefix("step 2 (turned left) looked flat"))
    }

    @Test func refusesReadingsTooCloseTogether() throws {
        // Turned only 30° instead of 90°.
        let slightly = CalibrationReading(mean: Vector3(-Self.g * sin(.pi / 6), -Self.g * cos(.pi / 6), 0), spread: 0.2)
        let problem = #expect(throws: CalibrationProblem.self) {
            try MountMatrixCalibration.derive(upright: Self.upright, turnedLeft: slightly, flat: Self.flat)
        }
        guard case .tooClose(.upright, .turnedLeft, let angle) = problem else { Issue.record("\(String(describing: problem))"); return }
        #expect(abs(angle - 30) < 0.01)
        #expect(problem!.description.hasPrefix("readings too close together: did you turn it a quarter? step 1 (upright) and step 2 (turned left) read directions only 30° apart"))
    }

    @Test func refusesAHalfTurn() {
        let upsideDown = CalibrationReading(mean: Vector3(0, Self.g, 0), spread: 0.2)
        #expect(throws: CalibrationProblem.tooFarApart(.upright, .turnedLeft, angle: 180)) {
            try MountMatrixCalibration.derive(upright: Self.upright, turnedLeft: upsideDown, flat: Self.flat)
        }
    }

    @Test func refusesASlantedReading() throws {
        let direction = Vector3(-0.55, -1, 0.55)
        let slanted = CalibrationReading(mean: direction * (Self.g / direction.magnitude), spread: 0.2)
        let problem = #expect(throws: CalibrationProblem.self) {
            try MountMatrixCalibration.derive(upright: slanted, turnedLeft: Self.left, flat: Self.flat)
        }
        guard case .slanted(.upright, let degrees) = problem else { Issue.record("\(String(describing: problem))"); return }
        #expect(degrees > 35 && degrees < 40)
        #expect(problem!.description.contains("held at a slant"))
    }

    @Test func refusesTwoStepsAlongOneAxis() {
        let angle = 32.0 * .pi / 180
        let first = CalibrationReading(mean: Vector3(Self.g * sin(angle), -Self.g * cos(angle), 0), spread: 0.2)
        let second = CalibrationReading(mean: Vector3(-Self.g * sin(angle), -Self.g * cos(angle), 0), spread: 0.2)
        #expect(throws: CalibrationProblem.sameAxis(.upright, .turnedLeft, axis: 1)) {
            try MountMatrixCalibration.derive(upright: first, turnedLeft: second, flat: Self.flat)
        }
        #expect(CalibrationProblem.sameAxis(.upright, .turnedLeft, axis: 1).description.contains("both read along the sensor's y axis"))
    }

    @Test func aReadingOfNoSamplesIsNone() {
        #expect(CalibrationReading(samples: []) == nil)
        #expect(CalibrationReading(samples: [Vector3(1, 2, 3), Vector3(3, 2, 1)]) == CalibrationReading(mean: Vector3(2, 2, 2), spread: 2.squareRoot(), sampleCount: 2))
    }
}
