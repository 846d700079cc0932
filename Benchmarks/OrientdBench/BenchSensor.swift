import EmulatedSensor
import OrientationCore

/// The emulated accelerometer both daemons read: 1 g = 1024 counts, so scenario traces keep
/// their detail when written as whole counts, as a real driver reports them.
struct BenchSensor {
    static let countsPerG = 1024.0
    static let gravity = 9.80665
    let emulated: EmulatedAccelerometer

    init() throws {
        let upright = EmulatedAccelerometer.rawCounts(for: .portrait) * (Self.countsPerG / EmulatedAccelerometer.countsPerG)
        emulated = try EmulatedAccelerometer(
            attributes: [
                "name": "accel_3d",
                "in_accel_x_raw": EmulatedAccelerometer.format(upright.x),
                "in_accel_y_raw": EmulatedAccelerometer.format(upright.y),
                "in_accel_z_raw": EmulatedAccelerometer.format(upright.z),
                "in_accel_scale": String(Self.gravity / Self.countsPerG),
            ],
            // iio-sensor-proxy finds sensors by the property its own udev rule sets.
            properties: ["ACCEL_LOCATION": "display", "IIO_SENSOR_PROXY_TYPE": "iio-poll-accel"])
    }

    var environment: [String: String] { emulated.environment }

    /// Holds the device still with 1 g along `orientation`'s axis.
    func turn(to orientation: Orientation) {
        show(EmulatedAccelerometer.rawCounts(for: orientation) * (Self.gravity / EmulatedAccelerometer.countsPerG))
    }

    /// Makes the sensor read `acceleration` (m/s², after the mount matrix, which is identity here).
    func show(_ acceleration: Vector3) {
        let counts = acceleration * (Self.countsPerG / Self.gravity)
        emulated.setRaw(Vector3(counts.x.rounded(), counts.y.rounded(), counts.z.rounded()))
    }
}
