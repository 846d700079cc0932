@testable import AccelerometerIO
import OrientationCore
import Testing

/// What readings mean for the hub, without a hub, a sensor or a clock.
@Suite struct ReadingPipelineTests {
    static let g = 9.80665
    static let display = SensorInfo(id: "local:/accel_3d", uri: "local:", device: "accel_3d", location: .display,
                                    mountMatrix: .identity, mountMatrixSource: "test", calibration: AccelerometerCalibration(x: AxisCalibration(), y: AxisCalibration(), z: AxisCalibration()), sysname: "iio:device0")
    static let base = SensorInfo(id: "local:/accel_3d-base", uri: "local:", device: "accel_3d", location: .base,
                                 mountMatrix: .identity, mountMatrixSource: "test", calibration: AccelerometerCalibration(x: AxisCalibration(), y: AxisCalibration(), z: AxisCalibration()), sysname: "iio:device1")

    private func sample(_ x: Double, _ y: Double, _ z: Double, at time: Double) -> Reading {
        .sample(AccelerometerSample(time: time, acceleration: Vector3(x, y, z)), device: Self.display.id)
    }

    private func changes(_ actions: [ReadingPipeline.Action]) -> [Orientation] {
        actions.compactMap { if case .orientationChanged(let change) = $0 { change.orientation } else { nil } }
    }

    @Test func theFirstReadingDecidesAndEveryDisplayReadingEndsWithSensorRead() {
        var pipeline = ReadingPipeline()
        let opened = pipeline.handle(.opened([Self.display]), wantsAngles: false)
        #expect(opened.first == .sensorPaused)
        #expect(opened.contains(.sensorOpened([Self.display])))
        let actions = pipeline.handle(sample(0, -Self.g, 0, at: 0), wantsAngles: false)
        #expect(changes(actions) == [.portrait])
        #expect(actions.last == .sensorRead)
    }

    private func tilts(_ actions: [ReadingPipeline.Action]) -> [DeviceTilt] {
        actions.compactMap { if case .tiltChanged(let tilt) = $0 { tilt } else { nil } }
    }

    /// The tilt step is announced when it changes, without waiting for the orientation's
    /// decision, and becomes unknown when the sensor is lost.
    @Test func tiltChangesAreAnnouncedAndForgottenWithTheSensor() {
        var pipeline = ReadingPipeline()
        _ = pipeline.handle(.opened([Self.display]), wantsAngles: false)
        #expect(tilts(pipeline.handle(sample(0, -Self.g, 0, at: 0), wantsAngles: false)) == [.vertical])
        #expect(tilts(pipeline.handle(sample(0, -Self.g, 0, at: 0.04), wantsAngles: false)) == [])
        // Leaned back 60°, held: the low-pass filter reaches it within a second.
        var seen: [DeviceTilt] = []
        for step in 1...50 {
            seen += tilts(pipeline.handle(sample(0, -Self.g * 0.5, Self.g * 0.866, at: 0.04 + Double(step) * 0.04), wantsAngles: false))
        }
        #expect(seen == [.tiltedUp])
        #expect(tilts(pipeline.handle(.lost(reason: "gone"), wantsAngles: false)) == [.unknown])
    }

    /// A display accelerometer read at ×0.3 is reported once, when its 1 g at rest is learnt;
    /// one at the right scale never.
    @Test(arguments: [(0.3, true), (1.0, false)])
    func aWrongScaleIsReportedOnce(scale: Double, reported: Bool) {
        var pipeline = ReadingPipeline()
        _ = pipeline.handle(.opened([Self.display]), wantsAngles: false)
        var reports: [Double] = []
        for step in 0..<50 {
            for action in pipeline.handle(sample(0, -Self.g * scale, 0, at: Double(step) * 0.04), wantsAngles: false) {
                if case .scaleWrong(let atRest) = action { reports.append(atRest) }
            }
        }
        #expect(reports.count == (reported ? 1 : 0), "\(reports)")
        #expect(reports.allSatisfy { abs($0 - Self.g * scale) < 0.01 })
    }

    @Test func anglesOnlyWhenSomeoneWantsThem() {
        var pipeline = ReadingPipeline()
        _ = pipeline.handle(.opened([Self.display]), wantsAngles: false)
        let without = pipeline.handle(sample(0, -Self.g, 0, at: 0), wantsAngles: false)
        #expect(!without.contains { if case .angles = $0 { true } else { false } })
        let with = pipeline.handle(sample(0, -Self.g, 0, at: 0.04), wantsAngles: true)
        #expect(with.contains { if case .angles = $0 { true } else { false } })
    }

    /// The angles carry the sample before the mount matrix along with the one after it.
    @Test func anglesCarryTheRawReading() throws {
        var pipeline = ReadingPipeline()
        _ = pipeline.handle(.opened([Self.display]), wantsAngles: true)
        let matrix = try MountMatrix(parsing: "0, -1, 0; -1, 0, 0; 0, 0, 1")
        let reading = Reading.sample(AccelerometerSample(time: 0, raw: Vector3(Self.g, 0, 0), mountMatrix: matrix), device: Self.display.id)
        let angles = pipeline.handle(reading, wantsAngles: true).compactMap { action -> (Vector3, Vector3?)? in
            if case .angles(_, let acceleration, let raw, _) = action { (acceleration, raw) } else { nil }
        }
        #expect(angles.count == 1)
        #expect(angles.first?.0 == Vector3(0, -Self.g, 0))
        #expect(angles.first?.1 == Vector3(Self.g, 0, 0))
    }

    @Test func failingReadsAreReportedOnceHeldThenRecovered() {
        var pipeline = ReadingPipeline()
        _ = pipeline.handle(.opened([Self.display]), wantsAngles: false)
        _ = pipeline.handle(sample(0, -Self.g, 0, at: 0), wantsAngles: false)
        let error = SensorReadError.notANumber(attribute: "in_accel_x_raw", text: "abc")
        let first = pipeline.handle(.failure(error, time: 0.04, device: Self.display.id), wantsAngles: false)
        #expect(first == [.readingsFailing(error: "\(error)", holding: .portrait), .sensorRead])
        let second = pipeline.handle(.failure(error, time: 0.08, device: Self.display.id), wantsAngles: false)
        #expect(second == [.sensorRead], "one log line, the orientation held")
        let back = pipeline.handle(sample(0, -Self.g, 0, at: 0.54), wantsAngles: false)
        #expect(back.first == .readingsRecovered(failures: 2, after: 0.5))
    }

    @Test func losingTheSensorForgetsTheOrientationSoTheNextOneIsAnnounced() {
        var pipeline = ReadingPipeline()
        _ = pipeline.handle(.opened([Self.display]), wantsAngles: false)
        _ = pipeline.handle(sample(0, -Self.g, 0, at: 0), wantsAngles: false)
        let lost = pipeline.handle(.lost(reason: "iio:device0 was removed"), wantsAngles: false)
        #expect(lost.first == .sensorLost(reason: "iio:device0 was removed"))
        _ = pipeline.handle(.opened([Self.display]), wantsAngles: false)
        #expect(changes(pipeline.handle(sample(0, -Self.g, 0, at: 5), wantsAngles: false)) == [.portrait])
    }

    @Test func theBaseFeedsTheHingeAndNeverTheOrientation() {
        var pipeline = ReadingPipeline()
        let opened = pipeline.handle(.opened([Self.display, Self.base]), wantsAngles: false)
        #expect(opened.contains(.hinge(TabletModeDetector.State(problem: "waiting for readings"))))
        let base = pipeline.handle(.sample(AccelerometerSample(time: 0, acceleration: Vector3(-Self.g, 0, 0)), device: Self.base.id), wantsAngles: true)
        #expect(changes(base).isEmpty)
        #expect(!base.contains(.sensorRead), "only the display's readings make the hub fresh")
        let unknown = pipeline.handle(.sample(AccelerometerSample(time: 0, acceleration: Vector3(0, Self.g, 0)), device: "ip:192.0.2.1/other"), wantsAngles: true)
        #expect(unknown.isEmpty)
    }

    @Test func newSettingsKeepTheOrientationDecidedAndTakeEffect() {
        var pipeline = ReadingPipeline()
        _ = pipeline.handle(.opened([Self.display]), wantsAngles: false)
        _ = pipeline.handle(sample(0, -Self.g, 0, at: 0), wantsAngles: false)
        var settings = ClassifierSettings()
        settings.settleMs = 2000
        pipeline.adopt(settings)
        #expect(pipeline.orientation == .portrait)
        // Turned: with the default 40 ms this would be decided within a second; not with 2 s.
        var decided: [Orientation] = []
        for step in 1...25 { decided += changes(pipeline.handle(sample(-Self.g, 0, 0, at: Double(step) * 0.04), wantsAngles: false)) }
        #expect(decided.isEmpty, "the new settle time holds the turn back")
        for step in 26...80 { decided += changes(pipeline.handle(sample(-Self.g, 0, 0, at: Double(step) * 0.04), wantsAngles: false)) }
        #expect(decided == [.landscapeLeft])
    }

    /// After the sensor slept, the first reading decides at once: a get that woke it is answered
    /// with where the device is now.
    @Test func theFirstReadingAfterAPauseDecidesAtOnce() {
        var pipeline = ReadingPipeline()
        _ = pipeline.handle(.opened([Self.display]), wantsAngles: false)
        _ = pipeline.handle(sample(0, -Self.g, 0, at: 0), wantsAngles: false)
        #expect(pipeline.handle(.paused(time: 0.5), wantsAngles: false) == [.sensorPaused])
        let woken = pipeline.handle(sample(-Self.g, 0, 0, at: 0.6), wantsAngles: false)
        #expect(changes(woken) == [.landscapeLeft])
        #expect(woken.last == .sensorRead, "after the change, so a waiting get hears of it")
    }
}
