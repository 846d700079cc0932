@testable import AccelerometerIO
import Logging
import OrientationCore
import Testing

/// A source whose buffer gives nothing, with or without raw files to poll instead.
private final class SilentBuffer: AccelerometerSource, BufferedCapture {
    let info = SensorInfo(id: "local:/ssp-accelerometer", uri: "local:", device: "iio:device0 (ssp-accelerometer)", location: .display,
                          mountMatrix: .identity, mountMatrixSource: "test",
                          calibration: AccelerometerCalibration(x: AxisCalibration(), y: AxisCalibration(), z: AxisCalibration()))
    let canCapture = true
    let canPoll: Bool
    var stopped = 0
    init(canPoll: Bool) { self.canPoll = canPoll }
    func readCalibrated() throws(SensorReadError) -> Vector3 { throw .unavailable(reason: "no raw files") }
    func startCapture() throws {}
    func takeCaptured(budget: Double) throws -> [(acceleration: Vector3, timestamp: Int64?)] { [] }
    func stopCapture() { stopped += 1 }
}

/// How captured scans are placed on the poller's clock.
@Suite struct CaptureScheduleTests {
    static let g = Vector3(0, -9.80665, 0)

    /// A silent buffer is polled instead after a second, unless there is nothing to poll (an
    /// ssp hub that paused): then its buffer is waited on, never stopped.
    @Test func aSilentBufferIsPolledOnlyWhereThereIsSomethingToPoll() {
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        for canPoll in [true, false] {
            let source = SilentBuffer(canPoll: canPoll)
            var schedule = CaptureSchedule(for: [source])
            let answers = stride(from: 0.0, through: 3, by: 0.25).map {
                schedule.samples(of: source, at: 0, now: $0, budget: 0.01, logger: logger)
            }
            #expect(answers.last! == nil ? canPoll : !canPoll, "canPoll \(canPoll): \(answers.map { $0 == nil ? "poll" : "wait" })")
            #expect(source.stopped == (canPoll ? 1 : 0))
        }
    }

    /// A hub told to report only changes (`HubChangeWatch`) is silent while still: a safety or
    /// requested read reads its raw attributes once, and the silence it was asked for never
    /// turns its buffer to polling.
    @Test func anExpectedSilenceIsReadRawOnceAndKeepsTheBuffer() {
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let source = SilentBuffer(canPoll: true)
        var schedule = CaptureSchedule(for: [source])
        #expect(schedule.samples(of: source, at: 0, now: 0, budget: 0.01, logger: logger) == [])
        schedule.quiet(0, at: 20)
        #expect(schedule.samples(of: source, at: 0, now: 20.5, budget: 0.01, logger: logger) == [], "still its buffer")
        schedule.readRawNext(0)
        #expect(schedule.samples(of: source, at: 0, now: 40, budget: 0.01, logger: logger) == nil, "read raw, once")
        #expect(schedule.samples(of: source, at: 0, now: 40.5, budget: 0.01, logger: logger) == [], "then its buffer again")
        #expect(source.stopped == 0)
    }

    /// A buffer released while a motion event is slept on: the safety read reads the raw
    /// attributes rather than restart the buffer and take it at once, empty; the read after it
    /// starts the capture again.
    @Test func aReleasedBufferIsReadRawOnceWhenAsked() {
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let source = SilentBuffer(canPoll: true)
        var schedule = CaptureSchedule(for: [source])
        #expect(schedule.samples(of: source, at: 0, now: 0, budget: 0.01, logger: logger) == [])
        schedule.release([source])
        #expect(source.stopped == 1)
        schedule.readRawNext(0)
        #expect(schedule.samples(of: source, at: 0, now: 20, budget: 0.01, logger: logger) == nil, "read raw")
        #expect(schedule.samples(of: source, at: 0, now: 20.04, budget: 0.01, logger: logger) == [], "then captured again")
    }

    /// With kernel timestamps, the newest scan is now and the others keep their spacing.
    @Test func kernelTimestampsSpaceTheScans() {
        let captured: [(acceleration: Vector3, timestamp: Int64?)] = [
            (Self.g, 5_000_000_000), (Self.g, 5_010_000_000), (Self.g, 5_030_000_000),
        ]
        let times = CaptureSchedule.timed(captured, takenAt: 100, previousTake: 99.96).map(\.time)
        #expect(zip(times, [99.97, 99.98, 100.0]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(times)")
    }

    /// Without timestamps, the scans are spread evenly since the previous take, the newest now.
    @Test func withoutTimestampsTheScansAreSpreadSinceTheLastTake() {
        let captured: [(acceleration: Vector3, timestamp: Int64?)] = Array(repeating: (Self.g, nil), count: 4)
        let times = CaptureSchedule.timed(captured, takenAt: 100, previousTake: 99.96).map(\.time)
        #expect(zip(times, [99.97, 99.98, 99.99, 100.0]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(times)")
    }

    /// Scans come in the sensor's axes: each sample is turned by the mount matrix and keeps the
    /// raw reading (the angles stream's `raw`, what `orientctl calibrate` measures).
    @Test func scansAreTurnedByTheMountMatrixAndKeepTheirRaw() throws {
        let matrix = try MountMatrix(parsing: "0, 1, 0; 1, 0, 0; 0, 0, 1")
        let captured: [(acceleration: Vector3, timestamp: Int64?)] = [(Vector3(-9.80665, 0.5, 0), nil)]
        let sample = try #require(CaptureSchedule.timed(captured, takenAt: 100, previousTake: 99.96, mountMatrix: matrix).first)
        #expect(sample.acceleration == Vector3(0.5, -9.80665, 0))
        #expect(sample.raw == Vector3(-9.80665, 0.5, 0))
    }
}
