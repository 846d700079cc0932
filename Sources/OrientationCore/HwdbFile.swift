/// The text of a local hwdb file (`/etc/udev/hwdb.d/61-sensor-local.hwdb`) with one entry put in.
/// hwdb records are separated by blank lines; a record is its match lines, then its property
/// lines, each starting with a space; `#` starts a comment line. When several records match, the
/// later one's property wins, so the entry goes at the end. Nothing of the file is lost: every
/// other record, comment and disabled entry stays as it is; only a record of this match alone
/// (an older calibration) moves to the end with the new matrix, keeping its other properties.
public enum HwdbFile {
    public static func putting(_ entry: HwdbEntry, into text: String) -> String {
        // Character.isNewline: a file written on Windows ends its lines with "\r\n", one Character.
        var records = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
            .split(whereSeparator: { $0.trimmingBlanks().isEmpty }).map(Array.init)
        var kept: [String] = []
        if let older = records.lastIndex(where: { $0.filter(isMatchLine) == [entry.match] }) {
            kept = records[older].filter { !isMatchLine($0) && !isProperty($0, HwdbEntry.property) }
            records.remove(at: older)
        }
        records.append([entry.match] + kept + [" " + entry.propertyLine])
        return records.map { $0.joined(separator: "\n") }.joined(separator: "\n\n") + "\n"
    }

    private static func isMatchLine(_ line: String) -> Bool {
        guard let first = line.first else { return false }
        return first != " " && first != "#"
    }

    private static func isProperty(_ line: String, _ name: String) -> Bool {
        line.first == " " && line.trimmingBlanks().hasPrefix(name + "=")
    }
}
