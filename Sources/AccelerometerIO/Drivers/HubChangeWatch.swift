import Glibc
import OrientationCore

/// A HID sensor hub's accelerometer watched while still by its change sensitivity: the hub is
/// told (`in_accel_hysteresis`, the HID Change Sensitivity property) to report only a change
/// larger than a hand's motion, so a still device sends nothing, and the poller sleeps on the
/// buffer's descriptor, which polls readable the moment a report arrives. Its report interval
/// goes to 100 ms while still (10 Hz, `SamplingFrequency.minimum`): the hub samples its
/// accelerometer to judge changes that often, not at orientd's rate, and a turn is reported
/// within 100 ms. On motion the rate and the sensitivity the hub had go back, and every report
/// flows again for the classifier.
///
/// hid-sensor-attributes.c converts what is written to the field's own unit and exponent, so the
/// value is in the unit the hub reports acceleration in: g (the usual, and the HID default) or
/// m/s², which the IIO scale tells apart (9.80665 × 10ⁿ against 1 × 10ⁿ).
final class HubChangeWatch: StillWatch {
    static let file = "in_accel_hysteresis"
    private let accelerometer: IIOAccelerometer
    /// What is written while still, and what the hub had, written back on motion (read at the
    /// first arming, not at open, where the first reading would wait behind the hub's answer).
    let stillSensitivity: String
    private let stillValue: Double
    private var movingSensitivity: String?
    /// The report rate file, what is written there while still, and orientd's rate written back.
    private let reportRate: (file: String, still: String, moving: String)?
    private var armed = false
    let traits = SensorLoop.WatchTraits.hubReports
    let signal = "its hub's change reports"
    /// How the still device is watched, for `status` and the log.
    let description: StillDeviceWatch

    init(accelerometer: IIOAccelerometer, stillSensitivity: String, stillValue: Double,
         reportRate: (file: String, still: String, moving: String)?, description: StillDeviceWatch) {
        self.accelerometer = accelerometer
        self.stillSensitivity = stillSensitivity
        self.stillValue = stillValue
        self.reportRate = reportRate
        self.description = description
    }

    deinit { close() }

    /// The change sensitivity that stands for a motion of `acceleration` m/s² on a hub whose
    /// x axis has IIO scale `scale` (m/s² per count).
    static func sensitivity(forMotion acceleration: Double, scale: Double) -> Double {
        guard scale > 0, scale.isFinite else { return acceleration / 9.80665 }
        let mantissa = scale / pow(10, floor(log10(scale)))
        let unit = abs(mantissa - 9.80665) < 0.05 ? 9.80665 : 1
        return acceleration / unit
    }

    var descriptor: Int32 { accelerometer.captureDescriptor ?? -1 }

    func arm() throws(MotionWatchError) {
        guard descriptor >= 0 else { throw .noDescriptor(reason: "its buffer is not capturing") }
        if movingSensitivity == nil {
            let text: String?
            do {
                text = try accelerometer.attributeFile(Self.file).map { String($0.trimmingBlanks()) }
            } catch {
                throw .cannotSetSensitivity(file: Self.file, reason: "\(error)")
            }
            guard let text, let value = parseDecimal(text) else {
                throw .cannotSetSensitivity(file: Self.file, reason: "it reads '\(text ?? "nothing")', not a number")
            }
            // The still value was left by an orientd that died armed: the hub's own is 0.
            movingSensitivity = abs(value - stillValue) < 0.0005 ? "0" : text
        }
        try write(stillSensitivity)
        armed = true
        if let reportRate { try write(reportRate.still, to: reportRate.file) }
    }

    /// A report came: the device moved (a report that queued before the arming wakes it once
    /// too, and the read that follows finds it still). Every change is reported again.
    func takeEvents() throws(MotionWatchError) -> Int {
        guard armed else { return 0 }
        try interrupted()
        return 1
    }

    func interrupted() throws(MotionWatchError) {
        guard armed, let movingSensitivity else { return }
        armed = false
        // The rate first: the reports of the motion come at orientd's pace. The sensitivity goes
        // back even if the rate cannot (nothing retries once disarmed).
        var rateFailure: MotionWatchError?
        if let reportRate {
            do { try write(reportRate.moving, to: reportRate.file) } catch { rateFailure = error }
        }
        try write(movingSensitivity)
        if let rateFailure { throw rateFailure }
    }

    func close() {
        try? interrupted()
    }

    private func write(_ value: String) throws(MotionWatchError) {
        do {
            try accelerometer.writeAttributeFile(Self.file, value: value)
        } catch {
            throw .cannotSetSensitivity(file: Self.file, reason: "\(error)")
        }
    }

    private func write(_ rate: String, to file: String) throws(MotionWatchError) {
        do {
            try accelerometer.writeAttributeFile(file, value: rate)
        } catch {
            throw .cannotSetReportRate(file: file, reason: "\(error)")
        }
    }
}
