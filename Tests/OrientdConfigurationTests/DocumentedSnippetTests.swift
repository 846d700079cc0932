import Foundation
@testable import OrientdConfiguration
import Testing

/// Every config snippet a user may copy parses: the ```ini blocks of README.md and docs/, the
/// inline `key=value` (or `key: value`) mentions of a setting there, and the "set key=value"
/// advice in orientd's own messages.
@Suite struct DocumentedSnippetTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path

    static var documents: [String] {
        let docs = ((try? FileManager.default.contentsOfDirectory(atPath: root + "/docs")) ?? [])
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        return ["README.md"] + docs.sorted()
    }

    static func text(of path: String) -> String {
        (try? String(contentsOfFile: root + "/" + path, encoding: .utf8)) ?? ""
    }

    /// Swift sources of the daemon and its tools, where messages give advice.
    static var sources: [String] {
        let enumerator = FileManager.default.enumerator(atPath: root + "/Sources")
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".swift") { found.append("Sources/" + path) }
        }
        return found.sorted()
    }

    @Test("every ini block in the docs parses", arguments: documents)
    func iniBlocksParse(document: String) throws {
        let blocks = Self.text(of: document).components(separatedBy: "```ini\n").dropFirst()
            .map { $0.components(separatedBy: "```")[0] }
        // A systemd drop-in is written in the same syntax; it is not orientd's.
        for block in blocks where !["[Service]", "[Unit]", "[Install]"].contains(where: block.hasPrefix) {
            #expect(problems(block).isEmpty, "\(document): \(problems(block)) in\n\(block)")
        }
    }

    /// Mentions the docs give as what is refused (a quoted path, the old YAML form).
    static let documentedRefusals = [#"socket="/run/x.sock""#, "rate: 25"]

    @Test("every inline setting in the docs parses in its section, but the refusals they show", arguments: documents)
    func inlineSettingsParse(document: String) {
        for (key, line) in Self.inlineSettings(in: Self.text(of: document), pattern: #"`([a-z][a-z0-9-]*) *[=:] *([^`\s]*)`"#) {
            if Self.documentedRefusals.contains(line) {
                #expect(!problems("[\(key.section.title)]\n\(line)\n").isEmpty, "\(document) shows `\(line)` as refused")
                continue
            }
            let snippet = "[\(key.section.title)]\n\(line)\n"
            #expect(problems(snippet).isEmpty, "\(document): `\(line)` does not parse: \(problems(snippet))")
        }
    }

    @Test("every setting orientd's messages tell a user to set parses")
    func adviceInMessagesParses() {
        var checked = 0
        for source in Self.sources {
            for (key, line) in Self.inlineSettings(in: Self.text(of: source), pattern: #"set ([a-z][a-z0-9-]*) *[=:] *([A-Za-z0-9./-]+)"#) {
                checked += 1
                let snippet = "[\(key.section.title)]\n\(line)\n"
                #expect(problems(snippet).isEmpty, "\(source): 'set \(line)' does not parse: \(problems(snippet))")
            }
        }
        #expect(checked >= 1)
    }

    @Test("a YAML-style setting is what the checks catch")
    func yamlStyleIsRefused() {
        #expect(!problems("[Daemon]\nsensor-proxy-polkit: false\n").isEmpty)
    }

    /// The mentions of a known setting key in `text` matching `pattern` (key and value groups),
    /// each with the line as written (`key=value` or `key: value`).
    static func inlineSettings(in text: String, pattern: String) -> [(SettingKey, String)] {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).compactMap { match in
            guard let name = Range(match.range(at: 1), in: text), let value = Range(match.range(at: 2), in: text),
                  let key = SettingKey.named(String(text[name])) else { return nil }
            return (key, String(text[name.lowerBound..<value.upperBound]))
        }
    }
}
