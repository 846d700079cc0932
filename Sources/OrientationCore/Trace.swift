/// orientd's trace format: plain text, one sample per line, `TIME X Y Z`, with time in seconds
/// and the acceleration in m/s² after calibration and mount matrix. Lines starting with `#` and
/// blank lines are ignored; lines may end in LF or CRLF. `orientd --replay` plays traces; the scenario corpus is made of them.
public enum Trace {
    public static let header = "# orientd trace v1: time_s x y z (m/s², after the mount matrix)"

    public static func format(_ samples: [AccelerometerSample]) -> String {
        var text = header + "\n"
        for sample in samples { text += line(sample) }
        return text
    }

    /// One sample as a line of a trace, newline included.
    public static func line(_ sample: AccelerometerSample) -> String {
        let a = sample.acceleration
        return "\(number(sample.time)) \(number(a.x)) \(number(a.y)) \(number(a.z))\n"
    }

    /// Parses a trace; a malformed line is an error naming its line number.
    public static func parse(_ text: String) throws(TraceError) -> [AccelerometerSample] {
        var samples: [AccelerometerSample] = []
        // LF or CRLF: "\r\n" (a trace saved on Windows) is one Character, never equal to "\n".
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            let content = line.trimmingBlanks()
            if content.isEmpty || content.hasPrefix("#") { continue }
            let fields = content.split(whereSeparator: { $0 == " " || $0 == "\t" })
            let numbers = fields.compactMap { parseDecimal($0) }
            guard fields.count == 4, numbers.count == 4 else {
                throw TraceError(line: index + 1, text: String(content), reason: "expected 4 numbers: time x y z")
            }
            if let last = samples.last, numbers[0] < last.time {
                throw TraceError(line: index + 1, text: String(content), reason: "time goes backwards")
            }
            samples.append(AccelerometerSample(time: numbers[0], acceleration: Vector3(numbers[1], numbers[2], numbers[3])))
        }
        return samples
    }

    private static func number(_ value: Double) -> String {
        let rounded = (value * 10_000).rounded() / 10_000
        return rounded == 0 ? "0" : String(rounded)
    }
}

public struct TraceError: Error, Equatable, CustomStringConvertible {
    public let line: Int
    public let text: String
    public let reason: String

    public init(line: Int, text: String, reason: String) {
        self.line = line
        self.text = text
        self.reason = reason
    }

    public var description: String { "line \(line): \(reason): '\(text)'" }
}
