import Glibc
import OrientationCore

/// The sysfs files of one IIO device, read through libiio, and what udev says of it: all an
/// ambient sensor needs, and all a test has to fake.
protocol DeviceFiles {
    var device: IIODevice { get }
    /// The kernel's name of a local device, for udev; nil for a remote one.
    var sysname: String? { get }
    /// Whether the device has accel_x, accel_y and accel_z: then it is an accelerometer.
    var isAccelerometer: Bool { get }
    /// A file's text; nil when there is no such file.
    func read(_ file: String) throws(IIOError) -> String?
    /// A udev property of the device; nil when absent (or the device is remote).
    func udevProperty(_ name: String) -> String?
}

/// One device of an open libiio context.
struct IIODeviceFiles: DeviceFiles {
    let context: IIOContext
    let device: IIODevice

    var sysname: String? { context.isLocal ? device.id : nil }

    var isAccelerometer: Bool {
        AccelerometerDiscovery.neededAxes.allSatisfy { context.hasInputChannel($0, on: device) }
    }

    func read(_ file: String) throws(IIOError) -> String? { try context.attributeFile(file, on: device) }

    func udevProperty(_ name: String) -> String? {
        sysname.flatMap { UdevProperties.value(name, subsystem: "iio", sysname: $0) }
    }
}

extension DeviceFiles {
    func exists(_ file: String) -> Bool {
        do {
            return try read(file) != nil
        } catch {
            return true // There, though unreadable: its reads will say why.
        }
    }

    /// A number read on every poll, or why there is none; `gone` when the file or the device no
    /// longer exists (removed: ENOENT, ENODEV).
    func readNumber(_ file: String) -> AmbientLoop.Reading {
        let what = "\(file) of \(device)"
        let text: String?
        do {
            text = try read(file)
        } catch where error.code == EFBIG {
            return .failed(reason: "\(what) holds more than \(IIOContext.longestValue) bytes, not a number", gone: false)
        } catch {
            return .failed(reason: "cannot read \(what): \(IIOError.text(for: error.code))", gone: error.code == ENOENT || error.code == ENODEV)
        }
        guard let text else { return .failed(reason: "\(what) no longer exists", gone: true) }
        guard let value = parseDecimal(text) else {
            return .failed(reason: "\(what) holds '\(printableExcerpt(trimmed(text)))', not a number", gone: false)
        }
        return .value(value)
    }

    /// What a sensor reports from the number in `file` on every poll: `convert`'s value (lux,
    /// degrees), or why there is none: the read failed, or `convert` found the value impossible
    /// (said after `sensor`, "the compass", and the device; the sensor is not gone for that).
    func readValue(_ file: String, of sensor: String, _ convert: (Double) -> (value: Double, problem: String?)) -> AmbientLoop.Reading {
        switch readNumber(file) {
        case .value(let number):
            let (value, problem) = convert(number)
            if let problem { return .failed(reason: "\(sensor) \(device): \(problem)", gone: false) }
            return .value(value)
        case let failed:
            return failed
        }
    }

    /// A calibration value from its file's text (nil: no file, so `parse`'s default); refuses
    /// `sensor` ("the compass") when the file cannot be read or holds an unusable value: orientd
    /// will not guess `quantity` ("a heading").
    func calibrationValue(_ file: String?, of sensor: String, guessing quantity: String,
                          _ parse: (String?) throws(CalibrationValueError) -> Double) throws(AmbientRefusal) -> Double {
        let problem: String
        do {
            return try parse(try file.flatMap(read))
        } catch let error as IIOError {
            problem = "cannot be read (\(error))"
        } catch let error as CalibrationValueError {
            problem = "is '\(error.text)', \(error.reason)"
        } catch {
            problem = "\(error)"
        }
        throw AmbientRefusal(description: "refusing \(sensor) \(device): its \(file ?? "") \(problem); "
            + "orientd will not guess \(quantity): the kernel driver reporting it must be fixed")
    }
}

/// The text without the blanks around it (sysfs ends values with a newline).
private func trimmed(_ text: String) -> Substring {
    let start = text.firstIndex { !$0.isWhitespace } ?? text.endIndex
    let end = text.lastIndex { !$0.isWhitespace }.map { text.index(after: $0) } ?? start
    return text[start..<end]
}

/// A sensor refused at discovery, in one log line that names the device, what is wrong and what to do.
struct AmbientRefusal: Error, Equatable {
    let description: String
}

/// What the ambient thread needs of a light sensor, IIO (`LightSensor`) or hwmon (`HwmonLightSensor`).
protocol AmbientLightSource {
    var found: AmbientLoop.Found { get }
    /// How it is read, for the log: "reading FILE ... every N s while needed".
    var howRead: String { get }
    /// The level (in `found.unit`), or why there is none.
    func read() -> AmbientLoop.Reading
}

/// An IIO ambient light sensor: its value file, scaled (with its offset, for a raw value) to lux.
struct LightSensor: AmbientLightSource {
    let files: any DeviceFiles
    let channel: LightChannel
    let calibration: LightCalibration
    let interval: Double

    /// The device's light channel, its calibration and its poll interval; nil when the device has
    /// no light channel, or is an accelerometer. Throws when its calibration cannot be used.
    init?(_ files: any DeviceFiles) throws(AmbientRefusal) {
        guard !files.isAccelerometer, let channel = LightChannel(choosingFrom: files.exists) else { return nil }
        func value(_ file: String?, _ parse: (String?) throws(CalibrationValueError) -> Double) throws(AmbientRefusal) -> Double {
            try files.calibrationValue(file, of: "the light sensor", guessing: "a light level", parse)
        }
        calibration = LightCalibration(scale: try value(channel.scaleFile, LightCalibration.scale(fromText:)),
                                       offset: try value(channel.offsetFile, LightCalibration.offset(fromText:)))
        let integrationTime = channel.integrationTimeFiles.lazy.compactMap { try? files.read($0) }.first
        interval = LightPolling.interval(fromIntegrationTime: integrationTime)
        self.files = files
        self.channel = channel
    }

    var found: AmbientLoop.Found {
        AmbientLoop.Found(device: files.device.description, sysname: files.sysname, interval: interval)
    }

    var howRead: String {
        AmbientSensorPoller.reading(channel.file, offset: calibration.offset, scale: calibration.scale,
                                    unit: "lux", every: interval, while: "needed")
    }

    /// The level in lux, or why there is none.
    func read() -> AmbientLoop.Reading {
        files.readValue(channel.file, of: "the light sensor") { value in
            let lux = calibration.lux(fromValue: value)
            return (lux, LightCalibration.problem(withLevel: lux))
        }
    }
}

/// What the ambient thread needs of a proximity sensor, IIO (`ProximitySensor`) or an input
/// switch (`InputProximitySensor`).
protocol AmbientProximitySource {
    var found: AmbientLoop.Found { get }
    /// How it is read, for the log.
    var howRead: String { get }
    /// The raw value compared with `found.nearLevel`, or why there is none.
    func read() -> AmbientLoop.Reading
}

/// An IIO proximity sensor: its raw value and the near level it is compared with.
struct ProximitySensor: AmbientProximitySource {
    static let channels = ["in_proximity", "in_proximity0"]
    /// Polled this often while needed, as iio-sensor-proxy does.
    static let interval = 0.7

    let files: any DeviceFiles
    let file: String
    let nearLevel: Double

    /// The device's proximity channel and near level (udev's PROXIMITY_NEAR_LEVEL, else the
    /// driver's in_proximity_nearlevel); nil when the device has no proximity channel, or is an
    /// accelerometer. Throws when it has no usable near level.
    init?(_ files: any DeviceFiles) throws(AmbientRefusal) {
        guard !files.isAccelerometer, let channel = Self.channels.first(where: { files.exists($0 + "_raw") }) else { return nil }
        var candidates: [(source: String, text: String?)] = [("udev property PROXIMITY_NEAR_LEVEL", files.udevProperty("PROXIMITY_NEAR_LEVEL"))]
        for file in Set([channel + "_nearlevel", "in_proximity_nearlevel"]).sorted() {
            candidates.append(("sysfs \(file)", try? files.read(file)))
        }
        guard let candidate = candidates.first(where: { $0.text != nil }), let text = candidate.text else {
            throw AmbientRefusal(description: "found proximity sensor \(files.device) but no PROXIMITY_NEAR_LEVEL udev property; "
                + "set it in hwdb (see systemd's 60-sensor.hwdb: the raw value above which an object is near), "
                + "or have the driver provide in_proximity_nearlevel; not using the sensor until then")
        }
        do {
            nearLevel = try ProximityDetector.nearLevel(fromText: text)
        } catch {
            throw AmbientRefusal(description: "refusing the proximity sensor \(files.device): its \(candidate.source) is '\(error.text)', \(error.reason); "
                + "fix it in hwdb (see systemd's 60-sensor.hwdb)")
        }
        self.files = files
        file = channel + "_raw"
    }

    var found: AmbientLoop.Found {
        AmbientLoop.Found(device: files.device.description, sysname: files.sysname, interval: Self.interval, nearLevel: nearLevel)
    }

    var howRead: String { "reading \(file) (near above \(formatDecimal(nearLevel))) every \(formatDecimal(Self.interval)) s while needed" }

    /// The raw value, or why there is none.
    func read() -> AmbientLoop.Reading {
        files.readValue(file, of: "the proximity sensor") { raw in
            (raw, ProximityDetector.problem(withRaw: raw).map { "\(file) \($0)" })
        }
    }
}

/// Finds the first light sensor, the first proximity sensor and the first compass among the
/// devices of a context.
enum AmbientDiscovery {
    struct Result {
        var light: (any AmbientLightSource)?
        var proximity: (any AmbientProximitySource)?
        var compass: CompassSensor?
        /// Why sensors that were seen are not used.
        var refusals: [String] = []

        /// This machine's light and proximity sensors that are not IIO devices, where none was found.
        mutating func addLocalNonIIOSensors() {
            if light == nil { light = HwmonLightSensor.discover() }
            if proximity == nil { proximity = InputProximitySensor.discover() }
        }
    }

    /// The sensors of `context`; on this machine's (`local:`) an hwmon light sensor and an
    /// input proximity switch too, where the context has no IIO one.
    static func discover(in context: IIOContext) -> Result {
        var result = discover(context.devices.map { IIODeviceFiles(context: context, device: $0) })
        if context.isLocal { result.addLocalNonIIOSensors() }
        return result
    }

    static func discover(_ devices: [any DeviceFiles]) -> Result {
        var result = Result()
        for device in devices {
            do {
                if result.light == nil { result.light = try LightSensor(device) }
            } catch {
                result.refusals.append(error.description)
            }
            do {
                if result.proximity == nil { result.proximity = try ProximitySensor(device) }
            } catch {
                result.refusals.append(error.description)
            }
            do {
                if result.compass == nil { result.compass = try CompassSensor(device) }
            } catch {
                result.refusals.append(error.description)
            }
        }
        return result
    }
}
