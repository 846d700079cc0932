/// The text of a local hwdb file (`/etc/udev/hwdb.d/61-sensor-local.hwdb`) with one entry put in:
/// every other entry and comment is kept; an older entry for the same match is replaced. hwdb
/// records are separated by blank lines; a record is its match lines, then its property lines,
/// each starting with a space.
public enum HwdbFile {
    public static func putting(_ entry: HwdbEntry, into text: String) -> String {
        var records = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .split(whereSeparator: { $0.trimmingBlanks().isEmpty }).map(Array.init)
        var placed = false
        for index in records.indices {
            let matches = records[index].filter(isMatchLine)
            guard matches.contains(entry.match) else { continue }
            if matches == [entry.match], !placed {
                // This record is the sensor's alone: replace its matrix, keep its other properties.
                var lines = records[index].filter { !isProperty($0, HwdbEntry.property) }
                lines.append(" " + entry.propertyLine)
                records[index] = lines
                placed = true
            } else {
                // Shared with other machines' matches (or a duplicate): leave them their record.
                records[index].removeAll { $0 == entry.match }
            }
        }
        records.removeAll { record in !record.contains(where: isMatchLine) && record.contains(where: isPropertyLine) }
        if !placed { records.append([entry.match, " " + entry.propertyLine]) }
        return records.map { $0.joined(separator: "\n") }.joined(separator: "\n\n") + "\n"
    }

    private static func isMatchLine(_ line: String) -> Bool {
        guard let first = line.first else { return false }
        return first != " " && first != "\t" && first != "#"
    }

    private static func isPropertyLine(_ line: String) -> Bool { line.first == " " || line.first == "\t" }

    private static func isProperty(_ line: String, _ name: String) -> Bool {
        isPropertyLine(line) && line.trimmingBlanks().hasPrefix(name + "=")
    }
}
