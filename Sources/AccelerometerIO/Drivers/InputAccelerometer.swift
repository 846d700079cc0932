import Logging
import OrientationCore

/// An accelerometer of the input subsystem (udev `ID_INPUT_ACCELEROMETER=1`, evdev ABS_X, ABS_Y,
/// ABS_Z: lis3lv02d laptops, older phone and tablet drivers), as iio-sensor-proxy's input-accel
/// driver reads it: the kernel's current axis values, the mount matrix from udev's
/// `ACCEL_MOUNT_MATRIX` (or the config file). The device is held open only while it is read
/// (`goIdle` closes it: a polled input driver such as lis3lv02d stops polling its chip then).
///
/// Scale: the evdev ABI gives an accelerometer axis's resolution in units per g; a driver that
/// gives none is taken at iio-sensor-proxy's 256 units per g (its input-accel driver's).
public final class InputAccelerometer: AccelerometerSource {
    public static let countsPerGWithoutResolution = 256.0

    public let info: SensorInfo
    private let devnode: String
    private var device: InputDevice?

    /// The first input accelerometer on this machine, opened; nil when there is none.
    static func openFirst(configured: [String: DeviceSettings], logger: Logger) -> InputAccelerometer? {
        for devnode in InputDevice.devnodes(withProperty: "ID_INPUT_ACCELEROMETER") {
            do {
                let device = try InputDevice(devnode: devnode)
                guard device.isAccelerometer else { continue }
                return InputAccelerometer(device: device, configured: configured, logger: logger)
            } catch {
                logger.warning("\(error); looking for another accelerometer")
            }
        }
        return nil
    }

    private init(device: InputDevice, configured: [String: DeviceSettings], logger: Logger) {
        self.device = device
        devnode = device.devnode
        let sysname = device.sysname
        let name = printableExcerpt(device.name, limit: 60)
        let id = "local:/input/\(name.isEmpty ? sysname : name)"
        let configuredMatrix = configured[id]?.mountMatrix.map { MountMatrixCandidate.configured($0, key: id) }
        let matrix = MountMatrixSelection(choosingFrom: (configuredMatrix.map { [$0] } ?? []) + [
            MountMatrixCandidate(source: "udev property ACCEL_MOUNT_MATRIX of \(sysname)",
                                 text: UdevProperties.value("ACCEL_MOUNT_MATRIX", subsystem: "input", sysname: sysname)),
        ])
        matrix.warnAboutRejected(logger)
        let resolution = device.resolution
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
            if device == nil { device = try InputDevice(devnode: devnode) }
            let (x, y, z) = try device!.readAxes()
            return info.calibration.acceleration(fromRaw: Vector3(Double(x), Double(y), Double(z)))
        } catch {
            device = nil
            throw .unreadable(attribute: "the axes of \(devnode)", reason: "\(error)")
        }
    }

    public func goIdle() { device = nil }
}
