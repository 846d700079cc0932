import Logging
import OrientationCore

/// An accelerometer of the input subsystem (udev `ID_INPUT_ACCELEROMETER=1`, evdev ABS_X, ABS_Y,
/// ABS_Z: lis3lv02d laptops, older phone and tablet drivers), as iio-sensor-proxy's input-accel
/// driver reads it: each reading opens the device, takes the kernel's current axis values (three
/// EVIOCGABS) and closes it, so nothing is held between reads (a polled input driver such as
/// lis3lv02d polls its chip only while it is open); the mount matrix from udev's
/// `ACCEL_MOUNT_MATRIX` (or the config file).
///
/// Scale: the evdev ABI gives an accelerometer axis's resolution in units per g; a driver that
/// gives none is taken at iio-sensor-proxy's 256 units per g (its input-accel driver's).
public final class InputAccelerometer: AccelerometerSource {
    public static let countsPerGWithoutResolution = 256.0

    public let info: SensorInfo
    private let devnode: String

    /// The first input accelerometer on this machine that answers, read once; nil when there is
    /// none. A device whose capabilities say it lacks an axis is passed over.
    static func openFirst(configured: [String: DeviceSettings], logger: Logger) -> InputAccelerometer? {
        for devnode in InputDevice.devnodes(withProperty: "ID_INPUT_ACCELEROMETER") {
            let sysname = InputDevice.sysname(of: devnode)
            guard InputDevice.has([0, 1, 2], "abs", sysname: sysname) != false else { continue }
            do {
                let resolution = try InputDevice.axes(at: devnode).resolution
                return InputAccelerometer(devnode: devnode, resolution: resolution, configured: configured, logger: logger)
            } catch {
                logger.warning("\(error); looking for another accelerometer")
            }
        }
        return nil
    }

    private init(devnode: String, resolution: Int32, configured: [String: DeviceSettings], logger: Logger) {
        self.devnode = devnode
        let sysname = InputDevice.sysname(of: devnode)
        let name = InputDevice.name(of: sysname)
        let id = "local:/input/\(name.isEmpty ? sysname : name)"
        let configuredMatrix = configured[id]?.mountMatrix.map { MountMatrixCandidate.configured($0, key: id) }
        let matrix = MountMatrixSelection(choosingFrom: (configuredMatrix.map { [$0] } ?? []) + [
            MountMatrixCandidate(source: "udev property ACCEL_MOUNT_MATRIX of \(sysname)",
                                 text: UdevProperties.value("ACCEL_MOUNT_MATRIX", subsystem: "input", sysname: sysname)),
        ])
        matrix.warnAboutRejected(logger)
        let countsPerG = resolution > 0 ? Double(resolution) : Self.countsPerGWithoutResolution
        let axis = AxisCalibration(scale: 9.80665 / countsPerG)
        let location = configured[id]?.location
            ?? SensorLocation(udevLocation: UdevProperties.value("ACCEL_LOCATION", subsystem: "input", sysname: sysname), sysfsLabel: nil)
            ?? .display
        info = SensorInfo(
            id: id, uri: "local:", device: name.isEmpty ? sysname : "\(sysname) (\(name))", location: location,
            mountMatrix: matrix.matrix, mountMatrixSource: matrix.source,
            calibration: AccelerometerCalibration(x: axis, y: axis, z: axis),
            sysname: sysname, hwdbMatch: nil, syspath: UdevProperties.syspath(subsystem: "input", sysname: sysname))
        logger.info("\(info.device) is an input accelerometer: \(resolution > 0 ? "\(resolution) units per g (its resolution)" : "no resolution given, taken as \(Int(Self.countsPerGWithoutResolution)) units per g as iio-sensor-proxy does")")
    }

    public func readCalibrated() throws(SensorReadError) -> Vector3 {
        do {
            let ((x, y, z), _) = try InputDevice.axes(at: devnode)
            return info.calibration.acceleration(fromRaw: Vector3(Double(x), Double(y), Double(z)))
        } catch {
            throw .unreadable(attribute: "the axes of \(devnode)", reason: "\(error)")
        }
    }
}
