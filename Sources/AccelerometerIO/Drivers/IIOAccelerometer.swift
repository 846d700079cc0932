import Glibc
import Logging
import OrientationCore

/// An accelerometer read through libiio: by polling its `raw` attributes, or, where it has scan
/// elements, through a kernel buffer.
public final class IIOAccelerometer: AccelerometerSource, BufferedCapture {
    public let info: SensorInfo
    public let canCapture: Bool
    public let canPoll: Bool
    private let context: IIOContext
    private let device: IIODevice
    private var buffer: IIOBuffer?
    /// Set when the driver gives no scale: the scale its first reading gives.
    private var unscaled: ScaleFromReadings?
    /// Whether the part has a z axis; without, z is completed (`TwoAxisReading`).
    private let hasZ: Bool
    /// The device's own data-ready trigger, set before capture where no trigger is set.
    private let triggerToSet: String?
    /// Its sampling frequency file and what it says the device runs at, once raised; nil without one.
    let samplingFrequency: (file: String, hertz: Double)?
    /// The triggers its driver registered: what clocks its buffer, and whether an interrupt line is wired.
    let triggers: DeviceTriggers

    /// Opens the context at `uri` and every accelerometer in it, the display one first; throws
    /// when there is no display accelerometer, or when it reports a calibration that cannot be
    /// used (`CalibrationRefusal`). Another accelerometer with such a calibration is left out
    /// (logged), so a broken base sensor does not take the screen's rotation down with it. The
    /// accelerometers share the context: keep them on the thread that opened them.
    /// `configured`: what the config file says of accelerometers, by id, or by the URI for the
    /// display accelerometer's mount matrix.
    /// `rate`: the reads a second orientd wants, which a buffered device is asked to sample at.
    public static func openAll(uri: String, configured: [String: DeviceSettings] = [:], rate: Double = SamplingFrequency.minimum,
                               logger: Logger) throws -> [IIOAccelerometer] {
        let context = try IIOContext(uri: uri)
        if let warning = context.refusalWarning { logger.warning("\(warning)") }
        let found = try AccelerometerDiscovery.displayFirst(in: context, configured: configured)
        var opened: [IIOAccelerometer] = []
        for (index, item) in found.enumerated() {
            let byID = configured[item.id].flatMap { $0.mountMatrix.map { (matrix: $0, key: item.id) } }
            let byURI = index == 0 ? configured[uri].flatMap { $0.mountMatrix.map { (matrix: $0, key: uri) } } : nil
            let accelerometer: IIOAccelerometer
            do {
                accelerometer = try IIOAccelerometer(context: context, found: item.found, id: item.id, configuredMatrix: byID ?? byURI,
                                                     rate: rate, logger: logger)
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
         configuredMatrix: (matrix: MountMatrix, key: String)?, rate: Double, logger: Logger) throws(CalibrationRefusal) {
        let uri = context.uri
        let device = found.device
        self.context = context
        self.device = device
        let triggers = DeviceTriggers(deviceName: device.name ?? device.id, deviceID: device.id, triggers: context.triggerNames)
        self.triggers = triggers
        let currentTrigger = context.currentTrigger(of: device)
        // A buffer that takes a trigger (it has the trigger file) runs only with one set, or one
        // of its own to set: without, its driver registered none (no interrupt line is wired), and
        // it is polled from the start, not after a second of an empty buffer.
        let bufferClocked = currentTrigger.map { !$0.isEmpty || triggers.dataReady != nil } ?? true
        let bufferCapable = context.isBufferCapable(device)
        canCapture = bufferCapable && bufferClocked
        triggerToSet = currentTrigger == "" ? triggers.dataReady : nil
        canPoll = (try? context.channelAttribute("raw", of: "accel_x", on: device)) != nil

        let configured = configuredMatrix.map { MountMatrixCandidate.configured($0.matrix, key: $0.key) }
        let matrix = MountMatrixSelection(choosingFrom: (configured.map { [$0] } ?? []) + Self.mountMatrixCandidates(for: device, in: context))
        matrix.warnAboutRejected(logger)
        hasZ = context.hasInputChannel("accel_z", on: device)
        let channels = hasZ ? AccelerometerDiscovery.axes : AccelerometerDiscovery.neededAxes
        var axes = try channels.map { channel throws(CalibrationRefusal) in
            try Self.calibration(of: channel, on: device, in: context)
        }
        if !hasZ { axes.append((AxisCalibration(), axes[0].hasScale)) }
        let calibration = AccelerometerCalibration(x: axes[0].calibration, y: axes[1].calibration, z: axes[2].calibration)
        // No scale file on any axis (Samsung's ssp sensor hub): counts of unknown size.
        unscaled = axes.allSatisfy { !$0.hasScale } ? ScaleFromReadings() : nil
        info = SensorInfo(
            id: id, uri: uri, device: device.description, location: found.location,
            mountMatrix: matrix.matrix, mountMatrixSource: matrix.source, calibration: calibration,
            sysname: context.isLocal ? device.id : nil,
            hwdbMatch: context.isLocal ? UdevProperties.hwdbMatch(sysname: device.id) : nil,
            syspath: context.isLocal ? UdevProperties.syspath(subsystem: "iio", sysname: device.id) : nil,
            scaleNote: unscaled == nil ? nil : Self.noScaleNote(device))
        // A buffer runs at the device's pace: ask for orientd's (a HID hub reports every 100 ms
        // of its own). A polled device needs only to update as often as iio-sensor-proxy asks.
        samplingFrequency = Self.raiseSamplingFrequency(of: device, in: context, minimum: canCapture ? max(rate, SamplingFrequency.minimum) : SamplingFrequency.minimum,
                                                        logger: logger)
        if bufferCapable, !bufferClocked {
            logger.info("\(device) has a buffer but no trigger to clock it (its driver registered none: no interrupt line is wired), so orientd polls its raw attributes")
        }
    }

    public func readCalibrated() throws(SensorReadError) -> Vector3 {
        let raw = Vector3(try readRaw("accel_x"), try readRaw("accel_y"), hasZ ? try readRaw("accel_z") : 0)
        return acceleration(fromRaw: raw)
    }

    /// (raw + offset) × scale: the driver's scale, or where it gives none, the readings' own;
    /// a part without z has it completed.
    private func acceleration(fromRaw raw: Vector3) -> Vector3 {
        let calibrated = info.calibration.acceleration(fromRaw: raw)
        let scaled = unscaled?.acceleration(fromCounts: calibrated) ?? calibrated
        return hasZ ? scaled : TwoAxisReading.completed(x: scaled.x, y: scaled.y, mounting: info.mountMatrix)
    }

    static func noScaleNote(_ device: IIODevice) -> String {
        "the driver of \(device) gives no scale (no in_accel_x_scale, in_accel_scale, in_scale or scale file): "
            + "orientd takes 1 g from the readings themselves; orientations are right, accelerations are in units of that 1 g"
    }

    public func startCapture() throws {
        if let triggerToSet, context.currentTrigger(of: device) == "" {
            try context.setTrigger(triggerToSet, on: device)
        }
        buffer = try context.openBuffer(on: device)
    }

    public func takeCaptured(budget: Double) throws -> [(acceleration: Vector3, timestamp: Int64?)] {
        guard let buffer else { return [] }
        return try buffer.take(budget: budget).map { scan in
            (acceleration(fromRaw: scan.raw), scan.timestamp)
        }
    }

    public func stopCapture() { buffer = nil }

    /// Polls readable when a scan waits in the capturing buffer; nil when not capturing (or over iiod).
    var captureDescriptor: Int32? { buffer?.descriptor }

    func writeAttributeFile(_ file: String, value: String) throws(IIOError) {
        try context.writeAttributeFile(file, value: value, on: device)
    }

    func attributeFile(_ file: String) throws(IIOError) -> String? {
        try context.attributeFile(file, on: device)
    }

    /// A watch of the still device by its hub's change sensitivity (`HubChangeWatch`), where it
    /// is captured through a local buffer and has the file; nil otherwise.
    func changeWatch(motionThreshold: Double) -> HubChangeWatch? {
        // Only whether the file is there: reading it asks the hub, which the first reading waits behind.
        guard canCapture, info.sysname != nil, context.hasAttributeFile(HubChangeWatch.file, on: device) else { return nil }
        // In thousandths: the kernel keeps no finer (the field's exponent), and the log stays readable.
        let stillValue = max(1, (HubChangeWatch.sensitivity(forMotion: motionThreshold, scale: info.calibration.x.scale) * 1000).rounded()) / 1000
        let still = formatDecimal(stillValue)
        // The report rate slows to 10 Hz while still, where the hub reports faster (its rate file,
        // the one raised at open).
        let reportRate = samplingFrequency.flatMap { moving in
            moving.hertz > SamplingFrequency.minimum
                ? (file: moving.file, still: formatDecimal(SamplingFrequency.minimum), moving: formatDecimal(moving.hertz)) : nil
        }
        let description = StillDeviceWatch(method: .hubReports, thresholdFile: HubChangeWatch.file, thresholdValue: still, motionThreshold: motionThreshold,
                                           reportsPerSecond: reportRate == nil ? samplingFrequency?.hertz : SamplingFrequency.minimum)
        return HubChangeWatch(accelerometer: self, stillSensitivity: still, stillValue: stillValue, reportRate: reportRate,
                              description: description)
    }

    private func readRaw(_ channel: String) throws(SensorReadError) -> Double {
        let number: AttributeNumber?
        do {
            number = try context.channelNumber("raw", of: channel, on: device)
        } catch where error.code == EFBIG {
            // Garbage, not an I/O error: held like any other, without closing the sensor.
            throw .notANumber(attribute: rawAttribute(channel), text: "(more than \(IIOContext.longestValue) bytes)")
        } catch {
            throw .unreadable(attribute: rawAttribute(channel), reason: IIOError.text(for: error.code))
        }
        switch number {
        case .number(let value)?: return value
        case .text(let text)?: throw .notANumber(attribute: rawAttribute(channel), text: printableExcerpt(text.trimmingBlanks()))
        case nil: throw .unreadable(attribute: rawAttribute(channel), reason: "no such attribute")
        }
    }

    private func rawAttribute(_ channel: String) -> String { "in_\(channel)_raw of \(device.id)" }

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

    /// The files an attribute of `channel` may be in, as the kernel names it by how the driver
    /// shares it (IIO ABI), the axis's own first: separate (in_accel_x_scale), by type
    /// (in_accel_scale), by direction (in_scale), by all (scale: ChromeOS EC's cros-ec-accel).
    static func sharedFiles(_ attribute: String, of channel: String) -> [String] {
        let type = channel.split(separator: "_").first.map(String.init) ?? channel
        return ["in_\(channel)_\(attribute)", "in_\(type)_\(attribute)", "in_\(attribute)", attribute]
    }

    /// Scale and offset of one axis, each from the first of its `sharedFiles` there is, and
    /// whether any scale file was found. A missing offset is the IIO default, 0; a missing scale
    /// is 1, counts taken as they are (`ScaleFromReadings` when no axis has one). One that is
    /// present but unreadable or unusable refuses the sensor (`AxisCalibration.scale(fromAttribute:)`):
    /// a guessed scale would make orientd publish wrong or frozen orientations.
    private static func calibration(of channel: String, on device: IIODevice, in context: IIOContext)
        throws(CalibrationRefusal) -> (calibration: AxisCalibration, hasScale: Bool) {
        /// The first of the attribute's files there is, and its text.
        func read(_ attribute: String, needed: String) throws(CalibrationRefusal) -> (file: String, text: String)? {
            for file in sharedFiles(attribute, of: channel) {
                do {
                    if let text = try context.attributeFile(file, on: device) { return (file, text) }
                } catch {
                    throw CalibrationRefusal(device: device, attribute: file, problem: "cannot be read (\(error))", needed: needed)
                }
            }
            return nil
        }
        func value(_ found: (file: String, text: String)?, needed: String,
                   _ parse: (String?) throws(CalibrationValueError) -> Double) throws(CalibrationRefusal) -> Double {
            do {
                return try parse(found?.text)
            } catch {
                throw CalibrationRefusal(device: device, attribute: found?.file ?? "", problem: "is '\(error.text)', \(error.reason)", needed: needed)
            }
        }
        let scaleNeeded = "a positive number of m/s² per count", offsetNeeded = "a number of counts to add to the raw value"
        let scale = try read("scale", needed: scaleNeeded)
        let offset = try read("offset", needed: offsetNeeded)
        return (AxisCalibration(scale: try value(scale, needed: scaleNeeded, AxisCalibration.scale(fromAttribute:)),
                                offset: try value(offset, needed: offsetNeeded, AxisCalibration.offset(fromAttribute:))),
                scale != nil)
    }

    /// Raises a sampling frequency below `minimum`, to the slowest listed rate that reaches it: the
    /// device's own (`sampling_frequency`), or its accelerometer's (`in_accel_sampling_frequency`:
    /// a HID sensor hub's report interval, which paces its buffer). Returns the file and the
    /// frequency it runs at.
    private static func raiseSamplingFrequency(of device: IIODevice, in context: IIOContext, minimum: Double,
                                               logger: Logger) -> (file: String, hertz: Double)? {
        for file in ["sampling_frequency", "in_accel_sampling_frequency"] {
            guard let text = try? context.attributeFile(file, on: device), let current = parseDecimal(text) else { continue }
            let available = (try? context.attributeFile(file + "_available", on: device))
                .map(SamplingFrequency.parseAvailable) ?? []
            guard let raised = SamplingFrequency.raised(current: current, available: available, minimum: minimum) else { return (file, current) }
            let value = formatDecimal(raised)
            do {
                try context.writeAttributeFile(file, value: value, on: device)
                logger.info("raised \(file) of \(device.id) from \(formatDecimal(current)) to \(value) Hz")
                return (file, raised)
            } catch {
                if error.awaitsUdev {
                    logger.info("\(device) is not orientd's to set up until udev has: \(file) stays at \(formatDecimal(current)) Hz until udev's event reopens it")
                } else {
                    logger.warning("\(error); the sensor may update slower than orientd reads it")
                }
                return (file, current)
            }
        }
        return nil
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
