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
            return try files.calibrationValue(file, of: "the compass", guessing: "a heading", parse)
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
        files.readValue(CompassChannel.file, of: "the compass") { raw in
            let heading = calibration.heading(fromRaw: raw)
            return (heading, CompassCalibration.problem(withHeading: heading).map { "\(CompassChannel.file) reads \(formatDecimal(raw)): \($0)" })
        }
    }
}
