import EmulatedSensor
import Glibc
import OrientationCore

/// The emulated accelerometer both daemons read: 1 g = 1024 counts, so scenario traces keep
/// their detail when written as whole counts, as a real driver reports them. With motion events,
/// it is a bmc150 with its any-motion interrupt (bmc150-accel-core.c's `events/` files and an
/// event descriptor, `EmulatedMotionEvents`); else an `accel_3d` with no event.
final class BenchSensor {
    static let countsPerG = 1024.0
    static let gravity = 9.80665
    let emulated: EmulatedAccelerometer
    /// The event descriptor, with motion events.
    let events: EmulatedMotionEvents?
    private var shown: Vector3

    init(motionEvents: Bool = false) throws {
        let upright = EmulatedAccelerometer.rawCounts(for: .portrait) * (Self.countsPerG / EmulatedAccelerometer.countsPerG)
        shown = upright * (Self.gravity / Self.countsPerG)
        var attributes = [
            "name": "accel_3d",
            "in_accel_x_raw": EmulatedAccelerometer.format(upright.x),
            "in_accel_y_raw": EmulatedAccelerometer.format(upright.y),
            "in_accel_z_raw": EmulatedAccelerometer.format(upright.z),
            "in_accel_scale": String(Self.gravity / Self.countsPerG),
        ]
        if motionEvents {
            attributes["name"] = "bmc150_accel"
            for axis in ["x", "y", "z"] { attributes["events/in_accel_\(axis)_roc_either_en"] = "0" }
            attributes["events/in_accel_x_roc_either_value"] = "1"
            attributes["events/in_accel_x_roc_either_period"] = "1"
        }
        // iio-sensor-proxy finds sensors by the property its own udev rule sets.
        // The triggers its driver registers where the interrupt line is wired.
        let triggers = motionEvents ? EmulatedAccelerometer.triggerDevices(["bmc150_accel-dev0", "bmc150_accel-any-motion-dev0"]) : ""
        emulated = try EmulatedAccelerometer(attributes: attributes,
                                             properties: ["ACCEL_LOCATION": "display", "IIO_SENSOR_PROXY_TYPE": "iio-poll-accel"],
                                             otherDevices: triggers)
        events = motionEvents ? try emulated.emulateMotionEvents() : nil
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

    /// Turns the device as a hand does: gravity turns through the screen's plane from the upright
    /// orientation it shows to `orientation` (90°, or 180° for upside down) at an even pace over
    /// `seconds`, written every `step` seconds (all three axes each time: about 1 g throughout).
    /// Returns the time of the last write: the end of the motion.
    func sweep(to orientation: Orientation, over seconds: Double, step: Double = 0.01) -> Double {
        let from = atan2(shown.x, shown.y)
        let target = EmulatedAccelerometer.rawCounts(for: orientation)
        var to = atan2(target.x, target.y)
        // The short way round.
        while to - from > .pi { to -= 2 * .pi }
        while to - from < -.pi { to += 2 * .pi }
        let begin = now()
        var end = begin
        let steps = max(1, Int((seconds / step).rounded()))
        for index in 1...steps {
            sleep(seconds: begin + Double(index) * step - now())
            let angle = from + (to - from) * Double(index) / Double(steps)
            show(Vector3(Self.gravity * sin(angle), Self.gravity * cos(angle), 0))
            end = now()
        }
        return end
    }

    /// Lays the device down, screen up (tilted 2° towards where it stood), over a quarter of a
    /// second, and leaves it there for `seconds`.
    func lieFlat(for seconds: Double) {
        let standing = shown
        let begin = now()
        for index in 1...25 {
            sleep(seconds: begin + Double(index) * 0.01 - now())
            let tilt = 88.0 * Double(index) / 25 * .pi / 180
            show(Vector3(standing.x * cos(tilt), standing.y * cos(tilt), Self.gravity * sin(tilt)))
        }
        sleep(seconds: begin + seconds - now())
    }

    /// Picks the device up from flat as a hand does: the screen turns from 88° to 20° back,
    /// towards upright in `orientation`, at an even pace over `seconds` (a write every 10 ms).
    /// Returns the time of the last write: the end of the motion.
    func tiltUp(into orientation: Orientation, over seconds: Double, step: Double = 0.01) -> Double {
        let upright = EmulatedAccelerometer.rawCounts(for: orientation) * (Self.gravity / EmulatedAccelerometer.countsPerG)
        let begin = now()
        var end = begin
        let steps = max(1, Int((seconds / step).rounded()))
        for index in 1...steps {
            sleep(seconds: begin + Double(index) * step - now())
            let tilt = (88 - 68 * Double(index) / Double(steps)) * .pi / 180
            show(Vector3(upright.x * cos(tilt), upright.y * cos(tilt), Self.gravity * sin(tilt)))
            end = now()
        }
        return end
    }

    /// Shows each sample at `begin` plus its time (clock seconds, `now()`), as a device moving
    /// through them would.
    func play(_ samples: [AccelerometerSample], from begin: Double) {
        for sample in samples {
            sleep(seconds: begin + sample.time - now())
            show(sample.acceleration)
        }
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
