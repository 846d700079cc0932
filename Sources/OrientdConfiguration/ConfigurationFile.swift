import AccelerometerIO
import OrientationCore
import Yams

/// The config file: YAML, read with Yams. Top-level keys set the daemon; keys under `classifier:`
/// set the judge. Every problem is reported with the file, the line and the reason, and nothing
/// is applied from a file that has any: the daemon refuses to start rather than guess.
public enum ConfigurationFile {
    public static let defaultPath = "/etc/orientd.conf"
    /// Larger than any real config; a bigger file is a mistake (a log or a binary named by --config).
    static let maximumBytes = 64 * 1024

    /// Reads the file at `path` into `settings`. A missing file at the default path is no error
    /// (`required` false): defaults apply.
    /// - Returns: whether a file was read.
    @discardableResult
    public static func apply(path: String, required: Bool, to settings: inout DaemonSettings) throws(ConfigurationProblems) -> Bool {
        let contents: [UInt8]
        do throws(ConfigurationProblem) {
            guard let read = try ConfigurationFileReader.bytes(at: path, maximumBytes: maximumBytes) else {
                guard required else { return false }
                throw ConfigurationProblem(origin: path, line: nil, reason: "no such file")
            }
            contents = read
        } catch {
            throw ConfigurationProblems(problems: [error])
        }
        let text = String(decoding: contents, as: UTF8.self)
        guard text.utf8.elementsEqual(contents) else {  // invalid bytes were replaced
            throw ConfigurationProblems(problems: [ConfigurationProblem(origin: path, line: nil, reason: "not UTF-8 text")])
        }
        try apply(text: text, file: path, to: &settings)
        return true
    }

    /// Reads YAML `text` (named `file` in problems) into `settings`, all or nothing.
    public static func apply(text: String, file: String, to settings: inout DaemonSettings) throws(ConfigurationProblems) {
        var reader = Reader(file: file, settings: settings)
        reader.read(text)
        guard reader.problems.isEmpty else { throw ConfigurationProblems(problems: reader.problems) }
        settings = reader.settings
    }
}

/// Walks the YAML tree, applying each key through `SettingKey` and collecting every problem.
private struct Reader {
    let file: String
    var settings: DaemonSettings
    var problems: [ConfigurationProblem] = []
    /// A file full of aliases is reported by its first few, not thousands of lines.
    static let referencesReported = 5

    mutating func read(_ text: String) {
        // Anchors and aliases are refused before Yams composes the tree: composing expands an
        // alias used as a mapping key, and anchors built of anchors ("billion laughs") make that
        // exponential. Nothing in the config needs them.
        let references = YAMLReferences.find(in: text)
        if !references.isEmpty {
            for reference in references.prefix(Self.referencesReported) {
                report(line: reference.line, reference.reason)
            }
            if references.count > Self.referencesReported {
                report(line: nil, "\(references.count - Self.referencesReported) more anchors or aliases; the config has no use for any")
            }
            return
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            report(syntaxProblem(error))
            return
        } catch {
            report(line: nil, "cannot read it as YAML: \(error)")
            return
        }
        guard let root else { return }  // empty, or only comments: all defaults
        if isNull(root) { return }
        guard let mapping = root.mapping else {
            report(line: root.mark?.line, "expected 'key: value' lines, got \(describe(root))")
            return
        }
        readSection(.daemon, mapping)
    }

    private mutating func readSection(_ section: SettingKey.Section, _ mapping: Node.Mapping) {
        for (keyNode, valueNode) in mapping {
            let line = keyNode.mark?.line
            guard let name = keyNode.scalar?.string else {
                report(line: line, "expected a key name, got \(describe(keyNode))")
                continue
            }
            if section == .daemon, name == SettingKey.Section.classifier.rawValue {
                readClassifier(valueNode, line: line)
                continue
            }
            if section == .daemon, name == "devices" {
                readDevices(valueNode, line: line)
                continue
            }
            guard let key = SettingKey.all.first(where: { $0.name == name && $0.section == section }) else {
                report(line: line, unknownKey(name, in: section))
                continue
            }
            apply(key, valueNode, line: line)
        }
    }

    /// `devices:`, one entry per accelerometer id (or context URI), each with `mount-matrix`
    /// and/or `location`.
    private mutating func readDevices(_ node: Node, line: Int?) {
        if isNull(node) { return }
        guard let mapping = node.mapping else {
            report(line: line, "'devices' holds one entry per accelerometer id, each with mount-matrix and/or location; got \(describe(node))")
            return
        }
        for (keyNode, valueNode) in mapping {
            let line = keyNode.mark?.line
            guard let id = keyNode.scalar?.string, let members = valueNode.mapping else {
                report(line: line, "devices: expected an accelerometer id (as 'orientctl status' lists it) with mount-matrix and/or location under it")
                continue
            }
            var device = DeviceSettings()
            for (memberNode, value) in members {
                let member = memberNode.scalar?.string ?? ""
                let memberLine = memberNode.mark?.line ?? line
                let text = value.scalar.map(\.string) ?? ""
                switch member {
                case "mount-matrix":
                    do {
                        device.mountMatrix = try MountMatrix(parsing: text)
                    } catch {
                        report(line: memberLine, "devices.\(id).mount-matrix: \(error) (expected \"x1, y1, z1; x2, y2, z2; x3, y3, z3\")")
                    }
                case "location":
                    guard let location = SensorLocation(rawValue: text) else {
                        report(line: memberLine, "devices.\(id).location: expected display or base, got '\(text)'")
                        continue
                    }
                    if DeviceSettings.namesContext(id) {
                        report(line: memberLine, "devices.\(id).location: a location belongs to one accelerometer; name it by its id ('\(id)/NAME', see 'orientctl status')")
                    }
                    device.location = location
                default:
                    report(line: memberLine, "devices.\(id): unknown key '\(member)'; known keys: mount-matrix, location")
                }
            }
            settings.devices[id] = device
        }
    }

    private mutating func readClassifier(_ node: Node, line: Int?) {
        if isNull(node) { return }  // "classifier:" with nothing under it
        guard let mapping = node.mapping else {
            report(line: line, "'classifier' holds the judge's keys, one per line, indented under it; got \(describe(node))")
            return
        }
        readSection(.classifier, mapping)
    }

    private mutating func apply(_ key: SettingKey, _ node: Node, line: Int?) {
        let where_ = key.section == .classifier ? "classifier.\(key.name)" : key.name
        // Problems are reported on the key's line: a value may sit on later lines (block scalars).
        if key.takesList, let items = node.sequence {
            let texts = items.compactMap { $0.scalar.map(\.string) }
            guard texts.count == items.count, !texts.isEmpty else {
                report(line: line ?? node.mark?.line, "\(where_): expected a list of \(key.accepts), got \(describe(node))")
                return
            }
            if let problem = key.apply(texts.joined(separator: ","), to: &settings) {
                report(line: line ?? node.mark?.line, "\(where_): \(problem)")
            }
            return
        }
        guard let scalar = node.scalar, !isNull(node) else {
            report(line: line ?? node.mark?.line, "\(where_): expected \(key.accepts), got \(describe(node))")
            return
        }
        if let problem = key.apply(scalar.string, to: &settings) {
            report(line: line ?? scalar.mark?.line, "\(where_): \(problem)")
        }
    }

    private func unknownKey(_ name: String, in section: SettingKey.Section) -> String {
        if let elsewhere = SettingKey.all.first(where: { $0.name == name }) {
            return elsewhere.section == .classifier
                ? "'\(name)' belongs under 'classifier:'"
                : "'\(name)' is a top-level key, not one under 'classifier:'"
        }
        var candidates = SettingKey.all.filter { $0.section == section }.map(\.name)
        if section == .daemon { candidates += [SettingKey.Section.classifier.rawValue, "devices"] }
        let where_ = section == .classifier ? " under 'classifier:'" : ""
        if let guess = closest(to: name, among: candidates) {
            return "unknown key '\(name)'\(where_); did you mean '\(guess)'?"
        }
        return "unknown key '\(name)'\(where_); known keys: \(candidates.joined(separator: ", "))"
    }

    private func syntaxProblem(_ error: YamlError) -> (line: Int?, reason: String) {
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let during = context.map { " (\($0.text), line \($0.mark.line))" } ?? ""
            return (mark.line, "not valid YAML: \(problem)\(during)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            let names = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            return (context.mark.line, "\(names) given more than once; keep one")
        default:
            return (nil, "not valid YAML: \(error)")
        }
    }

    private mutating func report(_ problem: (line: Int?, reason: String)) {
        report(line: problem.line, problem.reason)
    }

    private mutating func report(line: Int?, _ reason: String) {
        problems.append(ConfigurationProblem(origin: file, line: line, reason: reason))
    }
}

/// An empty value ("rate:"), "~" or "null".
private func isNull(_ node: Node) -> Bool { node.null != nil }

private func describe(_ node: Node) -> String {
    switch node {
    case .scalar(let scalar): isNull(node) ? "nothing" : "'\(scalar.string)'"
    case .mapping: "a group of keys"
    case .sequence: "a list"
    case .alias: "an alias"
    }
}

/// The known name nearest to a misspelt one, if it is near enough to be what was meant.
private func closest(to name: String, among candidates: [String]) -> String? {
    let scored = candidates.map { ($0, editDistance(name, $0)) }.min { $0.1 < $1.1 }
    guard let (candidate, distance) = scored, distance <= max(2, name.count / 4) else { return nil }
    return candidate
}

private func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in stride(from: 1, through: b.count, by: 1) {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return a.isEmpty ? b.count : previous[b.count]
}
