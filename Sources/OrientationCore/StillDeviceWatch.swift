/// How a still display accelerometer is watched: what `status` reports as `stillWatch`, as data,
/// and `sentence` renders for people (`orientctl status`).
public struct StillDeviceWatch: Codable, Equatable, Sendable {
    public enum Method: String, Codable, Sendable {
        /// The chip's own motion interrupt (an IIO event) wakes orientd: nothing is read until it fires.
        case motionEvent
        /// A HID sensor hub told to report only changes over a sensitivity: nothing is read until it reports.
        case hubReports
        /// Read at the still rate (and the dormant rate once still for long).
        case reading
    }

    public var method: Method
    /// `motionEvent`: the `events/` files enabled while the device is still.
    public var eventFiles: [String]?
    /// The file written to set how much motion counts (an `events/…_value`, `in_accel_hysteresis`),
    /// and what was written; nil where the driver's own threshold stays.
    public var thresholdFile: String?
    public var thresholdValue: String?
    /// m/s² of motion that threshold stands for.
    public var motionThreshold: Double?
    /// `hubReports`: how many reports a second the hub may send (its report interval).
    public var reportsPerSecond: Double?
    /// `motionEvent`, `hubReports`: seconds between the reads taken all the same, in case a
    /// signal was lost.
    public var safetyReadSeconds: Double?
    /// `reading`: reads a second while still; once still for `dormantAfterSeconds`, `dormantReadsPerSecond`.
    public var readsPerSecond: Double?
    public var dormantReadsPerSecond: Double?
    public var dormantAfterSeconds: Double?
    /// `reading`: why nothing watches the device instead (no motion event, a remote sensor, the
    /// watch failed or missed motion).
    public var reason: String?

    public init(method: Method, eventFiles: [String]? = nil, thresholdFile: String? = nil, thresholdValue: String? = nil,
                motionThreshold: Double? = nil, reportsPerSecond: Double? = nil, safetyReadSeconds: Double? = nil,
                readsPerSecond: Double? = nil, dormantReadsPerSecond: Double? = nil, dormantAfterSeconds: Double? = nil,
                reason: String? = nil) {
        self.method = method
        self.eventFiles = eventFiles
        self.thresholdFile = thresholdFile
        self.thresholdValue = thresholdValue
        self.motionThreshold = motionThreshold
        self.reportsPerSecond = reportsPerSecond
        self.safetyReadSeconds = safetyReadSeconds
        self.readsPerSecond = readsPerSecond
        self.dormantReadsPerSecond = dormantReadsPerSecond
        self.dormantAfterSeconds = dormantAfterSeconds
        self.reason = reason
    }

    /// In words: "its motion event wakes orientd (events/in_accel_x_roc_either_en, the driver's
    /// threshold); nothing is read until it fires, but for a safety read every 20 s".
    public var sentence: String {
        let safety = safetyReadSeconds.map { ", but for a safety read every \(formatDecimal($0)) s" } ?? ""
        let about = motionThreshold.map { "about \(formatDecimal($0)) m/s²" }
        switch method {
        case .motionEvent:
            let files = (eventFiles ?? []).map { "events/\($0)" }.joined(separator: ", ")
            let threshold = thresholdFile.map { file in
                "threshold \(thresholdValue ?? "?") in events/\(file)" + (about.map { " (\($0))" } ?? "")
            } ?? "the driver's threshold"
            return "its motion event wakes orientd (\(files), \(threshold)); nothing is read until it fires\(safety)"
        case .hubReports:
            let pace = reportsPerSecond.map { " at \(formatDecimal($0)) Hz" } ?? ""
            let over = thresholdValue.map { value in
                " only changes over \(value) (" + ([thresholdFile, about].compactMap { $0 }.joined(separator: ", ")) + ")"
            } ?? " only changes"
            return "its hub reports\(pace)\(over); nothing is read until it reports\(safety)"
        case .reading:
            var words = "read \(formatDecimal(readsPerSecond ?? 0)) times a second"
            if let dormant = dormantReadsPerSecond, let after = dormantAfterSeconds {
                words += ", \(formatDecimal(dormant)) once still for \(formatDecimal(after)) s"
            }
            return words + (reason.map { " (\($0))" } ?? "")
        }
    }
}
