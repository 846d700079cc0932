import Glibc
import OrientationCore
import Testing

/// The tilt steps as iio-sensor-proxy 3.6+ decides them: vertical within 20°, tilted from 21°,
/// flat from 70°, the sign of z (screen to the sky) telling up from down.
@Suite struct DeviceTiltTests {
    static let g = 9.80665

    /// A device upright in portrait leaned back by `degrees` (negative: forward), at 1 g.
    static func leaned(_ degrees: Double) -> Vector3 {
        let radians = degrees * .pi / 180
        return Vector3(0, -cos(radians) * g, sin(radians) * g)
    }

    @Test("each step at the angles that bound it, and the issue's −45°, +60°, +75°", arguments: [
        (0.0, DeviceTilt.vertical), (20, .vertical), (-20, .vertical), (20.4, .vertical),
        (20.6, .tiltedUp), (21, .tiltedUp), (-21, .tiltedDown), (-45, .tiltedDown), (45, .tiltedUp),
        (60, .tiltedUp), (69, .tiltedUp), (-69, .tiltedDown), (69.6, .faceUp),
        (70, .faceUp), (75, .faceUp), (-70, .faceDown), (-75, .faceDown), (90, .faceUp), (-90, .faceDown),
    ])
    func stepOfATilt(degrees: Double, expected: DeviceTilt) {
        #expect(DeviceTilt(tiltDegrees: degrees) == expected)
        #expect(DeviceTilt(of: Self.leaned(degrees)) == expected)
    }

    /// The magnitude does not matter: a mis-scaled driver reads the same steps.
    @Test func aWrongScaleGivesTheSameStep() {
        let leaned = Self.leaned(60)
        #expect(DeviceTilt(of: Vector3(leaned.x * 0.01, leaned.y * 0.01, leaned.z * 0.01)) == .tiltedUp)
        #expect(DeviceTilt(of: Vector3(leaned.x * 40, leaned.y * 40, leaned.z * 40)) == .tiltedUp)
        #expect(DeviceTilt(of: Vector3(0, 0, 0)) == .unknown)
    }

    @Test func iioSensorProxysNames() {
        #expect(DeviceTilt.allCases.map(\.sensorProxyName) == ["undefined", "vertical", "tilted-up", "tilted-down", "face-up", "face-down"])
    }
}
