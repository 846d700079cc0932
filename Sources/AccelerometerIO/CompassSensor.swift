import OrientationCore

/// A compass: a magnetometer's tilt-compensated heading, read from sysfs and scaled to degrees.
struct CompassSensor {
    let files: any DeviceFiles
    let calibration: CompassCalibration

    /// The device's heading channel and its calibration; nil when the device has no heading
    /// channel, or is an accelerometer. Throws when its calibration cannot be used.
    init?(_ files: any DeviceFiles) throws(AmbientRefusal) {
        guard !files.isAccelerometer, files.exists(CompassChannel.file) else { return nil }
        /// The first of `candidates` that exists, parsed (`absent` when none does); refuses the
        /// compass if it is unusable.
        func value(_ candidates: [String], absent: Double, _ parse: (String?) throws(CalibrationValueError) -> Double) throws(AmbientRefusal) -> Double {
            guard let file = candidates.first(where: files.exists) else { return absent }
            let problem: String
            do {
                return try parse(try files.read(file))
            } catch let error as IIOError {
                problem = "cannot be read (\(error))"
            } catch let error as CalibrationValueError {
                problem = "is '\(error.text)', \(error.reason)"
            } catch {
                problem = "\(error)"
            }
            throw AmbientRefusal(description: "refusing the compass \(files.device): its \(file) \(problem); "
                + "orientd will not guess a heading: the kernel driver reporting it must be fixed")
        }
        calibration = CompassCalibration(scale: try value(CompassChannel.scaleFiles, absent: 1, CompassCalibration.scale(fromText:)),
                                         offset: try value(CompassChannel.offsetFiles, absent: 0, CompassCalibration.offset(fromText:)))
        self.files = files
    }

    var found: AmbientLoop.Found {
        AmbientLoop.Found(device: files.device.description, sysname: files.sysname, interval: CompassChannel.interval)
    }

    /// The heading in degrees, or why there is none.
    func read() -> AmbientLoop.Reading {
        switch files.readNumber(CompassChannel.file) {
        case .value(let raw):
            let heading = calibration.heading(fromRaw: raw)
            if let problem = CompassCalibration.problem(withHeading: heading) {
                return .failed(reason: "the compass \(files.device): \(CompassChannel.file) reads \(formatDecimal(raw)): \(problem)", gone: false)
            }
            return .value(heading)
        case let failed:
            return failed
        }
    }
}
