import AccelerometerIO
import OrientationCore

/// Reads config files one after the other (the main file, then its drop-ins) into settings, as
/// systemd reads a unit and its drop-ins: a later assignment overrides an earlier one, a repeated
/// list key adds to the list, an empty assignment sets a key back to its default. Every problem
/// is collected with its file and line; the caller applies nothing if there is any.
struct ConfigurationReader {
    /// The settings before any file: `key=` sets a key back to its value here.
    let base: DaemonSettings
    private(set) var settings: DaemonSettings
    private(set) var problems: [ConfigurationProblem] = []
    /// The items of each list key given so far, over all files; a key not given keeps `base`'s.
    private var lists: [String: [String]] = [:]

    /// A file of garbage is reported by its first few problems, not one per line.
    static let problemsReportedPerFile = 20
    /// Longer than any path or URI a key takes; a longer value is a mistake, and is not echoed whole.
    static let maximumValueCharacters = 1024

    init(settings: DaemonSettings) {
        base = settings
        self.settings = settings
    }

    /// Reads one file's bytes (named `file` in problems).
    mutating func read(_ bytes: [UInt8], file: String) {
        // A byte-order mark, as some editors write; systemd skips it too.
        let bytes = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        var lines: [Substring] = []
        for (index, raw) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let line = raw.last == UInt8(ascii: "\r") ? raw.dropLast() : raw
            if line.contains(0) {
                problems.append(ConfigurationProblem(origin: file, line: index + 1, reason: "holds a NUL byte; is this the config file?"))
                return
            }
            guard let text = String(validating: line, as: UTF8.self) else {
                problems.append(ConfigurationProblem(origin: file, line: index + 1, reason: "not UTF-8 text; is this the config file?"))
                return
            }
            lines.append(Substring(text))
        }
        if let yaml = LegacyYAMLConfiguration.refusal(lines) {
            problems.append(ConfigurationProblem(origin: file, line: yaml.line, reason: yaml.reason))
            return
        }
        var reading = FileReading(file: file)
        for (index, line) in lines.enumerated() {
            read(line, number: index + 1, in: &reading)
        }
        problems += reading.problems
        if reading.unreported > 0 {
            problems.append(ConfigurationProblem(origin: file, line: nil, reason: "\(reading.unreported) more problems not shown; fix the ones above first"))
        }
    }

    /// Where the lines read so far have put the reader, and what they found wrong.
    private struct FileReading {
        let file: String
        var place = Place.outside
        var problems: [ConfigurationProblem] = []
        var unreported = 0

        mutating func report(_ line: Int, _ reason: String) {
            guard problems.count < ConfigurationReader.problemsReportedPerFile else {
                unreported += 1
                return
            }
            problems.append(ConfigurationProblem(origin: file, line: line, reason: reason))
        }
    }

    private enum Place {
        /// Before the first section header.
        case outside
        case section(SettingKey.Section)
        /// In `[Device "ID"]`.
        case device(String)
        /// In a section that was refused: its keys are not reported again.
        case refused
    }

    private mutating func read(_ line: Substring, number: Int, in file: inout FileReading) {
        if let control = line.unicodeScalars.first(where: isControl) {
            file.report(number, "holds a control character (\(printableExcerpt(String(control)))); the config file is plain text")
            return
        }
        switch ConfigurationLine(line) {
        case .nothing:
            break
        case .malformed(let reason):
            file.report(number, reason)
        case .section(let name, let argument):
            file.place = enter(name, argument, line: number, in: &file)
        case .assignment(let key, let value):
            assign(key, value, line: number, in: &file)
        }
    }

    private mutating func enter(_ name: String, _ argument: String?, line: Int, in file: inout FileReading) -> Place {
        if let section = SettingKey.Section.allCases.first(where: { $0.title == name }) {
            guard argument == nil else {
                file.report(line, "[\(name)] takes no name in quotes; only [\(DeviceSection.name) \"ID\"] does")
                return .refused
            }
            return .section(section)
        }
        guard name == DeviceSection.name else {
            file.report(line, unknownSection(name))
            return .refused
        }
        guard let id = argument, !id.isEmpty else {
            file.report(line, "[\(DeviceSection.name)] names its accelerometer by id in quotes, as 'orientctl status' lists it: [\(DeviceSection.name) \"ip:192.0.2.7/accel_3d\"]")
            return .refused
        }
        if settings.devices[id] == nil { settings.devices[id] = DeviceSettings() }
        return .device(id)
    }

    private mutating func assign(_ name: String, _ value: String, line: Int, in file: inout FileReading) {
        switch file.place {
        case .refused:
            return
        case .outside:
            if let key = SettingKey.named(name) {
                file.report(line, "'\(name)' comes before any section; put it under [\(key.section.title)]")
            } else {
                file.report(line, "key=value before any section header; start with [Daemon] or [Classifier]")
            }
        case .device(let id):
            if let problem = Self.tooLong(name, value) ?? DeviceSection.assign(name, value, id: id, to: &settings.devices[id, default: DeviceSettings()]) {
                file.report(line, problem)
            }
        case .section(let section):
            guard let key = SettingKey.all.first(where: { $0.name == name && $0.section == section }) else {
                file.report(line, unknownKey(name, in: section))
                return
            }
            if let problem = Self.tooLong(name, value) ?? apply(key, value).map({ "\(key.name): \($0)" }) {
                file.report(line, problem)
            }
        }
    }

    /// Why `value` is refused before it is looked at (and echoed), or nil.
    private static func tooLong(_ name: String, _ value: String) -> String? {
        guard value.count > maximumValueCharacters else { return nil }
        return "\(printableExcerpt(name)): a value of \(value.count) characters; none is longer than \(maximumValueCharacters)"
    }

    /// Stores one assignment; returns why it was refused, or nil.
    private mutating func apply(_ key: SettingKey, _ value: String) -> String? {
        if value.isEmpty {
            if key.takesList { lists[key.name] = [] }
            return key.apply(key.value(in: base).text, to: &settings)
        }
        guard key.takesList else { return key.apply(value, to: &settings) }
        let items = (lists[key.name] ?? []) + [value]
        if let problem = key.apply(items.joined(separator: ","), to: &settings) { return problem }
        lists[key.name] = items
        return nil
    }

    private func unknownSection(_ name: String) -> String {
        let shown = printableExcerpt(name)
        let known = SettingKey.Section.allCases.map(\.title) + [DeviceSection.name]
        let header = { (name: String) in name == DeviceSection.name ? "[\(name) \"ID\"]" : "[\(name)]" }
        if let guess = closest(to: name, among: known) {
            return "unknown section [\(shown)]; did you mean \(header(guess))?"
        }
        return "unknown section [\(shown)]; known sections: \(known.map(header).joined(separator: ", "))"
    }

    private func unknownKey(_ name: String, in section: SettingKey.Section) -> String {
        if let elsewhere = SettingKey.all.first(where: { $0.name == name }) {
            return "'\(name)' belongs under [\(elsewhere.section.title)], not [\(section.title)]"
        }
        if DeviceSection.keys.contains(name) {
            return "'\(name)' belongs under [\(DeviceSection.name) \"ID\"], naming the accelerometer"
        }
        let shown = printableExcerpt(name)
        let candidates = SettingKey.all.filter { $0.section == section }.map(\.name)
        if let guess = closest(to: name, among: candidates) {
            return "unknown key '\(shown)' in [\(section.title)]; did you mean '\(guess)'?"
        }
        return "unknown key '\(shown)' in [\(section.title)]; known keys: \(candidates.joined(separator: ", "))"
    }
}

/// C0 and C1 controls and DEL; a tab is a blank.
private func isControl(_ scalar: Unicode.Scalar) -> Bool {
    (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
}
