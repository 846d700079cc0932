import EmulatedSensor
import OrientationCore

/// The emulated accelerometer both daemons read: 1 g = 1024 counts, so scenario traces keep
/// their detail when written as whole counts, as a real driver reports them.
final class BenchSensor {
    static let countsPerG = 1024.0
    static let gravity = 9.80665
    let emulated: EmulatedAccelerometer
    private var shown: Vector3

    init() throws {
        let upright = EmulatedAccelerometer.rawCounts(for: .portrait) * (Self.countsPerG / EmulatedAccelerometer.countsPerG)
        shown = upright * (Self.gravity / Self.countsPerG)
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

    /// Turns the device quickly to `orientation` and holds it still there. The axes are separate
    /// files, written one at a time, so a daemon may read between two writes: the turn passes
    /// through the halfway direction so that every mixture it can read is a plausible vector
    /// (about 1 g, as during a real fast turn), never (0, 0, 0) or 1.4 g, which would look like
    /// free fall or a knock.
    func turn(to orientation: Orientation) {
        let target = EmulatedAccelerometer.rawCounts(for: orientation) * (Self.gravity / EmulatedAccelerometer.countsPerG)
        let halfway = Vector3(shown.x + target.x, shown.y + target.y, shown.z + target.z)
        if halfway.magnitude > 0.5 * Self.gravity {
            show(halfway * (Self.gravity / halfway.magnitude), oneAxisAtATime: true)
        }
        show(target, oneAxisAtATime: true)
    }

    /// Makes the sensor read `acceleration` (m/s², after the mount matrix, which is identity here).
    func show(_ acceleration: Vector3, oneAxisAtATime: Bool = false) {
        let counts = acceleration * (Self.countsPerG / Self.gravity)
        let rounded = Vector3(counts.x.rounded(), counts.y.rounded(), counts.z.rounded())
        if oneAxisAtATime {
            // Shrink the axes that fall before growing the ones that rise, to keep about 1 g.
            let current = shown * (Self.countsPerG / Self.gravity)
            let axes: [(file: String, old: Double, new: Double)] = [
                ("in_accel_x_raw", current.x, rounded.x), ("in_accel_y_raw", current.y, rounded.y),
                ("in_accel_z_raw", current.z, rounded.z),
            ]
            for axis in axes.sorted(by: { abs($0.new) - abs($0.old) < abs($1.new) - abs($1.old) }) where axis.new != axis.old.rounded() {
                emulated.set(axis.file, EmulatedAccelerometer.format(axis.new))
            }
        } else {
            emulated.setRaw(rounded)
        }
        shown = acceleration
    }
}
