import Logging
import OrientationCore

/// What the sensor thread needs from an accelerometer: an `IIOAccelerometer` (polled, or through
/// a kernel buffer with `BufferedCapture`) or an `InputAccelerometer` (evdev); a recorded trace is
/// replayed by `TracePlayer`, a sample feed of its own. A source is used only on the thread that
/// opened it.
public protocol AccelerometerSource: AnyObject {
    var info: SensorInfo { get }
    /// Reads one acceleration in the sensor's own axes (scale and offset applied, not the mount
    /// matrix: the poller applies `info.mountMatrix`, keeping both), in m/s².
    func readCalibrated() throws(SensorReadError) -> Vector3
    /// Nobody needs readings for now: let go of what reading holds (the next read takes it again).
    func goIdle()
}

extension AccelerometerSource {
    public func goIdle() {}
}

/// Every accelerometer of a context, the display one first: the IIO ones (`IIOAccelerometer`),
/// or on this machine, when it has no IIO accelerometer, its first input one (`InputAccelerometer`).
public enum Accelerometers {
    public static func openAll(uri: String, configured: [String: DeviceSettings] = [:], rate: Double = SamplingFrequency.minimum,
                               logger: Logger) throws -> [any AccelerometerSource] {
        do {
            return try IIOAccelerometer.openAll(uri: uri, configured: configured, rate: rate, logger: logger)
        } catch let error where uri == "local:" && !(error is CalibrationRefusal) {
            guard let input = InputAccelerometer.openFirst(configured: configured, logger: logger) else { throw error }
            return [input]
        }
    }
}

/// A source that can also capture through a kernel buffer: scans at the device's own rate, each
/// with the kernel's timestamp where the device has one, instead of one read per poll.
public protocol BufferedCapture: AnyObject {
    /// Whether the device has scan elements for the three axes.
    var canCapture: Bool { get }
    /// Whether it can be polled too (it has raw files; Samsung's ssp hub only fills a buffer).
    var canPoll: Bool { get }
    func startCapture() throws
    /// The accelerations captured since the last call (calibrated, in the sensor's own axes), oldest
    /// first, each with its kernel timestamp in nanoseconds (nil when the device has none). A
    /// remote buffer may be refilled for up to `budget` seconds.
    func takeCaptured(budget: Double) throws -> [(acceleration: Vector3, timestamp: Int64?)]
    /// Releases the buffer: the kernel stops capturing.
    func stopCapture()
}

/// What is known about the open sensor, for logs and for `status`.
public struct SensorInfo: Equatable, Sendable {
    /// Stable across reboots and renumbering: the context's URI and the driver's name, as
    /// "local:/accel_3d"; see `AccelerometerDiscovery.ids`.
    public var id: String
    public var uri: String
    public var device: String
    public var location: SensorLocation
    public var mountMatrix: MountMatrix
    public var mountMatrixSource: String
    public var calibration: AccelerometerCalibration
    /// The kernel's name for a local device ("iio:device0"), by which udev reports its removal;
    /// nil for a remote sensor or a trace.
    public var sysname: String? = nil
    /// The key udev looks a local device up by in systemd's hwdb (`UdevProperties.hwdbMatch`):
    /// what an `ACCEL_MOUNT_MATRIX` entry for it must match. Nil when unknown (remote, a trace).
    public var hwdbMatch: String? = nil
    /// A local device's /sys path, for `udevadm trigger`; nil when unknown.
    public var syspath: String? = nil
    /// Why the readings' scale is not the driver's (it gives none); nil when it is.
    public var scaleNote: String? = nil
}

/// Why a reading could not be taken.
public enum SensorReadError: Error, Equatable, CustomStringConvertible {
    /// The attribute holds something that is not a number ("abc", "").
    case notANumber(attribute: String, text: String)
    /// The attribute could not be read at all (the device vanished, an I/O error).
    case unreadable(attribute: String, reason: String)
    /// The sensor is closed after failing and could not be opened again yet.
    case unavailable(reason: String)
    /// A reading no accelerometer can give (`PlausibleAcceleration`): garbage or a wrong scale.
    case implausible(device: String, reason: String)

    public var description: String {
        switch self {
        case .notANumber(let attribute, let text): "\(attribute) holds '\(text)', not a number"
        case .unreadable(let attribute, let reason): "cannot read \(attribute): \(reason)"
        case .unavailable(let reason): "the sensor is unavailable: \(reason)"
        case .implausible(let device, let reason): "\(device): \(reason)"
        }
    }
}
