/// A systemd hwdb entry setting `ACCEL_MOUNT_MATRIX` for one accelerometer: the match line udev
/// looks the sensor up by (60-sensor.rules, see docs/calibration.md), then the property, indented
/// by one space, as 60-sensor.hwdb writes them.
public struct HwdbEntry: Equatable, Sendable {
    /// The match line: a glob pattern over udev's key.
    public var match: String
    public var matrix: MountMatrix

    /// `match` is udev's key (or a pattern). A `#` in it, which udev keeps in a key but the hwdb
    /// file format takes as the start of a comment, and a `\`, which escapes in a glob pattern,
    /// become `?`, which matches either.
    public init(match: String, matrix: MountMatrix) {
        self.match = String(match.map { $0 == "#" || $0 == "\\" ? "?" : $0 })
        self.matrix = matrix
    }

    public static let property = "ACCEL_MOUNT_MATRIX"

    /// "ACCEL_MOUNT_MATRIX=0, 1, 0; 1, 0, 0; 0, 0, 1"
    public var propertyLine: String { "\(Self.property)=\(Self.value(of: matrix))" }

    /// The two lines, without a final newline.
    public var text: String { "\(match)\n \(propertyLine)" }

    /// The matrix as hwdb writes it: "a, b, c; d, e, f; g, h, i" (`formatDecimal` never writes "-0").
    public static func value(of matrix: MountMatrix) -> String { matrix.description }

    /// Where ":dmi:" stands in a match.
    private static func dmiMarker(in match: String) -> Range<String.Index>? {
        var index = match.startIndex
        while index < match.endIndex {
            if match[index...].hasPrefix(":dmi:") { return index..<match.index(index, offsetBy: 5) }
            match.formIndex(after: &index)
        }
        return nil
    }

    /// The machine's DMI modalias ("dmi:bvn…") within a match; nil when it has none.
    public static func dmiModalias(in match: String) -> String? {
        guard let start = dmiMarker(in: match) else { return nil }
        return String(match[match.index(after: start.lowerBound)...])
    }

    /// The match to propose upstream: the sensor's modalias with a trailing `*` and only the
    /// vendor (`svn`) and product name (`pn`) of the DMI string, as 60-sensor.hwdb's entries are
    /// written, so that other firmware versions of the same model match too. The exact match
    /// when the DMI string has neither.
    public static func upstreamMatch(for match: String) -> String {
        guard let dmiStart = dmiMarker(in: match) else { return match }
        var sensor = String(match[..<dmiStart.lowerBound])
        let fields = match[dmiStart.upperBound...].split(separator: ":")
        let wanted = fields.filter { $0.hasPrefix("svn") || $0.hasPrefix("pn") }
        guard wanted.contains(where: { $0.hasPrefix("svn") }) else { return match }
        if sensor.hasSuffix(":") { sensor.removeLast() }
        return sensor + "*:dmi:*:" + wanted.joined(separator: ":") + ":*"
    }
}
