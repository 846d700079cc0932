import EmulatedSensor
import Foundation
import OrientationCore
import Testing

/// iio-sensor-proxy's test vectors (docs/conventions.md, "Reference vectors") through the whole daemon: emulated device → libiio local: → orientd → socket.
/// Each vector gets a fresh daemon, as each is a fixed reading with no history.
extension IntegrationTests {
    @Suite struct ReferenceVectorDaemonTests {
        static let matrix = "0, -1, 0; -1, 0, 0; 0, 0, 1"

        struct Vector: CustomTestStringConvertible, Sendable {
            let device: String
            let raw: (Int, Int, Int)
            let scale: String
            let expected: Orientation
            var testDescription: String { "\(device) \(raw) → \(expected)" }
        }

        static let plain = [
            Vector(device: "plain", raw: (0, -256, 0), scale: String(9.80665 / 256), expected: .portrait),
            Vector(device: "plain", raw: (-256, 0, 0), scale: String(9.80665 / 256), expected: .landscapeLeft),
            Vector(device: "plain", raw: (256, 0, 0), scale: String(9.80665 / 256), expected: .landscapeRight),
            Vector(device: "plain", raw: (0, 256, 0), scale: String(9.80665 / 256), expected: .portraitUpsideDown),
        ]

        static let mounted = [
            Vector(device: "Onda v975", raw: (523, 13, 5), scale: "0.019163", expected: .portrait),
            Vector(device: "Onda v975", raw: (8, 521, -67), scale: "0.019163", expected: .landscapeLeft),
            Vector(device: "Winbook TW100", raw: (24, 0, -21), scale: "0.306457", expected: .portrait),
            Vector(device: "Winbook TW100", raw: (15, -25, -14), scale: "0.306457", expected: .landscapeRight),
        ]

        /// Where the matrix is given: as systemd's hwdb would (udev property) or by the driver (sysfs).
        enum MatrixSource: String, CaseIterable, Sendable {
            case udevProperty, sysfsMountMatrix, sysfsAccelMountMatrix
        }

        static func sensor(for vector: Vector, matrix source: MatrixSource?) throws -> EmulatedAccelerometer {
            var attributes = [
                "name": "accel_3d",
                "in_accel_x_raw": String(vector.raw.0), "in_accel_y_raw": String(vector.raw.1), "in_accel_z_raw": String(vector.raw.2),
                "in_accel_scale": vector.scale,
            ]
            var properties: [String: String] = [:]
            switch source {
            case .udevProperty: properties["ACCEL_MOUNT_MATRIX"] = matrix
            case .sysfsMountMatrix: attributes["mount_matrix"] = matrix
            case .sysfsAccelMountMatrix: attributes["in_accel_mount_matrix"] = matrix
            case nil: break
            }
            return try EmulatedAccelerometer(attributes: attributes, properties: properties)
        }

        @Test("reference vectors, plain", arguments: plain)
        func plainVectors(vector: Vector) throws {
            let daemon = try Daemon(sensor: try Self.sensor(for: vector, matrix: nil))
            #expect(try daemon.currentOrientation() == vector.expected.rawValue, "\(daemon.log)")
        }

        @Test("reference vectors with a mount matrix", arguments: mounted, MatrixSource.allCases)
        func mountedVectors(vector: Vector, source: MatrixSource) throws {
            let daemon = try Daemon(sensor: try Self.sensor(for: vector, matrix: source))
            #expect(try daemon.currentOrientation() == vector.expected.rawValue, "\(daemon.log)")
            #expect(daemon.log.contains("mount matrix 0, -1, 0; -1, 0, 0; 0, 0, 1 from"))
        }

        /// The peer's suite: raw '-25.6' with scale '10' (decimals), and scale '0.000010' read while
        /// the daemon runs under fr_FR.UTF-8, where the decimal separator is a comma.
        @Test func decimalValuesUnderACommaLocale() throws {
            let decimal = try EmulatedAccelerometer(attributes: [
                "name": "accel_3d", "in_accel_x_raw": "-25.6", "in_accel_y_raw": "0", "in_accel_z_raw": "0", "in_accel_scale": "10",
            ])
            let french = ["LC_ALL": "fr_FR.UTF-8", "LANG": "fr_FR.UTF-8"]
            #expect(try Daemon(sensor: decimal, environment: french).currentOrientation() == "landscapeLeft")

            let tiny = try EmulatedAccelerometer(attributes: [
                "name": "accel_3d", "in_accel_x_raw": "0", "in_accel_y_raw": "-980665", "in_accel_z_raw": "0",
                "in_accel_scale": "0.000010",
            ])
            let daemon = try Daemon(sensor: tiny, environment: french)
            #expect(try daemon.currentOrientation() == "portrait")
            #expect(!daemon.log.contains("not a number"), "\(daemon.log)")
        }

        /// Per-axis scale and offset win over the shared ones: with the shared values this reading is
        /// portrait (25°), with x's own scale and offset it is landscapeLeft (77°).
        @Test func perAxisScaleAndOffsetComeFirst() throws {
            let sensor = try EmulatedAccelerometer(attributes: [
                "name": "accel_3d", "in_accel_x_raw": "-28", "in_accel_y_raw": "-60", "in_accel_z_raw": "0",
                "in_accel_scale": String(9.80665 / 256), "in_accel_offset": "0",
                "in_accel_x_scale": String(2 * 9.80665 / 256), "in_accel_x_offset": "-100",
            ])
            #expect(try Daemon(sensor: sensor).currentOrientation() == "landscapeLeft")
        }
    }
}
