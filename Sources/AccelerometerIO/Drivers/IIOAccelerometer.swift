import Glibc
import Logging
import OrientationCore

/// An accelerometer read through libiio: by polling its `raw` attributes, or, where it has scan
/// elements, through a kernel buffer.
public final class IIOAccelerometer: AccelerometerSource, BufferedCapture {
    public let info: SensorInfo
    public let canCapture: Bool
    private let context: IIOContext
    private let device: IIODevice
    private var buffer: IIOBuffer?

    /// Opens the context at `uri` and every accelerometer in it, the display one first; throws
    /// when there is no display accelerometer, or when it reports a calibration that cannot be
    /// used (`CalibrationRefusal`). Another accelerometer with such a calibration is left out
    /// (logged), so a broken base sensor does not take the screen's rotation down with it. The
    /// accelerometers share the context: keep them on the thread that opened them.
    /// `configured`: what the config file says of accelerometers, by id, or by the URI for the
    /// display accelerometer's mount matrix.
    public static func openAll(uri: String, configured: [String: DeviceSettings] = [:], logger: Logger) throws -> [IIOAccelerometer] {
        let context = try IIOContext(uri: uri)
        if let warning = context.refusalWarning { logger.warning("\(warning)") }
        let found = try AccelerometerDiscovery.displayFirst(in: context, configured: configured)
        var opened: [IIOAccelerometer] = []
        for (index, item) in found.enumerated() {
            let byID = configured[item.id].flatMap { $0.mountMatrix.map { (matrix: $0, key: item.id) } }
            let byURI = index == 0 ? configured[uri].flatMap { $0.mountMatrix.map { (matrix: $0, key: uri) } } : nil
            let accelerometer: IIOAccelerometer
            do {
                accelerometer = try IIOAccelerometer(context: context, found: item.found, id: item.id, configuredMatrix: byID ?? byURI, logger: logger)
            } catch {
                if index == 0 { throw error }
                logger.warning("\(error); reading the other accelerometers without it")
                continue
            }
            opened.append(accelerometer)
        }
        return opened
    }

    /// Reads the accelerometer's calibration and mount matrix, and makes sure it samples fast
    /// enough. Every decision is logged; a calibration that cannot be used refuses the sensor.
    init(context: IIOContext, found: AccelerometerDiscovery.Found, id: String,
         configuredMatrix: (matrix: MountMatrix, key: String)?, logger: Logger) throws(CalibrationRefusal) {
        let uri = context.uri
        let device = found.device
        self.context = context
        self.device = device
        canCapture = context.isBufferCapable(device)

        let configured = configuredMatrix.map { MountMatrixCandidate.configured($0.matrix, key: $0.key) }
        let matrix = MountMatrixSelection(choosingFrom: (configured.map { [$0] } ?? []) + Self.mountMatrixCandidates(for: device, in: context))
        matrix.warnAboutRejected(logger)
        let calibration = AccelerometerCalibration(
            x: try Self.calibration(of: "accel_x", on: device, in: context),
            y: try Self.calibration(of: "accel_y", on: device, in: context),
            z: try Self.calibration(of: "accel_z", on: device, in: context))
        info = SensorInfo(
            id: id, uri: uri, device: device.description, location: found.location,
            mountMatrix: matrix.matrix, mountMatrixSource: matrix.source, calibration: calibration,
            sysname: context.isLocal ? device.id : nil,
            hwdbMatch: context.isLocal ? UdevProperties.hwdbMatch(sysname: device.id) : nil,
            syspath: context.isLocal ? UdevProperties.syspath(subsystem: "iio", sysname: device.id) : nil)
        Self.raiseSamplingFrequency(of: device, in: context, logger: logger)
    }

    public func readCalibrated() throws(SensorReadError) -> Vector3 {
        let raw = Vector3(try readRaw("accel_x"), try readRaw("accel_y"), try readRaw("accel_z"))
        return info.calibration.acceleration(fromRaw: raw)
    }

    public func startCapture() throws {
        buffer = try context.openBuffer(on: device)
    }

    public func takeCaptured(budget: Double) throws -> [(acceleration: Vector3, timestamp: Int64?)] {
        guard let buffer else { return [] }
        return try buffer.take(budget: budget).map { scan in
            (info.calibration.acceleration(fromRaw: scan.raw), scan.timestamp)
        }
    }

    public func stopCapture() { buffer = nil }

    private func readRaw(_ channel: String) throws(SensorReadError) -> Double {
        let attribute = "in_\(channel)_raw of \(device.id)"
        let text: String?
        do {
            text = try context.channelAttribute("raw", of: channel, on: device)
        } catch where error.code == EFBIG {
            // Garbage, not an I/O error: held like any other, without closing the sensor.
            throw .notANumber(attribute: attribute, text: "(more than \(IIOContext.longestValue) bytes)")
        } catch {
            throw .unreadable(attribute: attribute, reason: IIOError.text(for: error.code))
        }
        guard let text else { throw .unreadable(attribute: attribute, reason: "no such attribute") }
        guard let value = parseDecimal(text) else {
            throw .notANumber(attribute: attribute, text: printableExcerpt(text.trimmingBlanks()))
        }
        return value
    }

    /// Mount matrix sources in order of precedence (docs/conventions.md): udev's hwdb property,
    /// then the three sysfs spellings.
    private static func mountMatrixCandidates(for device: IIODevice, in context: IIOContext) -> [MountMatrixCandidate] {
        var candidates: [MountMatrixCandidate] = []
        if context.isLocal {
            candidates.append(MountMatrixCandidate(
                source: "udev property ACCEL_MOUNT_MATRIX of \(device.id)",
                text: UdevProperties.value("ACCEL_MOUNT_MATRIX", subsystem: "iio", sysname: device.id)))
        }
        for file in ["mount_matrix", "in_accel_mount_matrix", "in_mount_matrix"] {
            candidates.append(MountMatrixCandidate(
                source: "sysfs \(file) of \(device.id)", text: try? context.attributeFile(file, on: device)))
        }
        return candidates
    }

    /// Scale and offset of one axis; libiio already prefers in_accel_x_scale over in_accel_scale.
    /// A missing attribute is the IIO default (scale 1, offset 0); one that is present but
    /// unreadable or unusable refuses the sensor (`AxisCalibration.scale(fromAttribute:)`):
    /// a guessed scale would make orientd publish wrong or frozen orientations.
    private static func calibration(of channel: String, on device: IIODevice, in context: IIOContext) throws(CalibrationRefusal) -> AxisCalibration {
        func value(_ attribute: String, needed: String,
                   _ parse: (String?) throws(CalibrationValueError) -> Double) throws(CalibrationRefusal) -> Double {
            let text: String?
            do {
                text = try context.channelAttribute(attribute, of: channel, on: device)
            } catch {
                throw CalibrationRefusal(device: device, attribute: fileName(attribute), problem: "cannot be read (\(error))", needed: needed)
            }
            do {
                return try parse(text)
            } catch {
                throw CalibrationRefusal(device: device, attribute: fileName(attribute), problem: "is '\(error.text)', \(error.reason)", needed: needed)
            }
        }
        /// The sysfs file libiio read: the axis's own, or the one the axes share.
        func fileName(_ attribute: String) -> String {
            let own = "in_\(channel)_\(attribute)"
            let shared = "in_\(channel.split(separator: "_").first ?? "accel")_\(attribute)"
            do {
                if try context.attributeFile(own, on: device) == nil { return shared }
            } catch {
                // It is there, though unreadable.
            }
            return own
        }
        return AxisCalibration(
            scale: try value("scale", needed: "a positive number of m/s² per count", AxisCalibration.scale(fromAttribute:)),
            offset: try value("offset", needed: "a number of counts to add to the raw value", AxisCalibration.offset(fromAttribute:)))
    }

    /// Raises a sampling frequency below 10 Hz, to the slowest listed rate that reaches it.
    private static func raiseSamplingFrequency(of device: IIODevice, in context: IIOContext, logger: Logger) {
        guard let text = try? context.attributeFile("sampling_frequency", on: device),
              let current = parseDecimal(text)
        else { return }
        let available = (try? context.attributeFile("sampling_frequency_available", on: device))
            .map(SamplingFrequency.parseAvailable) ?? []
        guard let raised = SamplingFrequency.raised(current: current, available: available) else { return }
        let value = formatDecimal(raised)
        do {
            try context.writeDeviceAttribute("sampling_frequency", value: value, on: device)
            logger.info("raised sampling_frequency of \(device.id) from \(formatDecimal(current)) to \(value) Hz")
        } catch {
            logger.warning("\(error); the sensor may update slower than orientd polls")
        }
    }
}

/// An accelerometer refused at opening because its calibration cannot be used: one line that names
/// the attribute, its value and what to do.
public struct CalibrationRefusal: Error, CustomStringConvertible {
    public let description: String

    init(device: IIODevice, attribute: String, problem: String, needed: String) {
        description = "refusing the accelerometer \(device): its \(attribute) \(problem); orientd needs \(needed) "
            + "there and will not guess one: the kernel driver (or the iiod board) reporting it must be fixed"
    }
}

extension MountMatrixSelection {
    /// One warning for each malformed candidate passed over, naming its source and text.
    func warnAboutRejected(_ logger: Logger) {
        for rejected in rejected {
            logger.warning("ignoring malformed mount matrix from \(rejected.source): '\(printableExcerpt(rejected.text.trimmingBlanks(), limit: 80))' (\(rejected.error)); trying the next source")
        }
    }
}

extension MountMatrixCandidate {
    /// The matrix a config file's `[Device "KEY"]` section gives.
    static func configured(_ matrix: MountMatrix, key: String) -> MountMatrixCandidate {
        MountMatrixCandidate(source: "config file [Device \"\(key)\"] mount-matrix", text: matrix.description)
    }
}
