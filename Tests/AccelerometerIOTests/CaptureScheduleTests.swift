@testable import AccelerometerIO
import OrientationCore
import Testing

/// How captured scans are placed on the poller's clock.
@Suite struct CaptureScheduleTests {
    static let g = Vector3(0, -9.80665, 0)

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
