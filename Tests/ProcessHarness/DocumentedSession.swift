import Foundation

/// One example session of docs/protocol.md: the lines of a block fenced as "```session" (the
/// daemon's examples) or "```session ambient" (the ambient sensors'), which the tests replay.
/// Numbered from 1 among the blocks of its fence, in the document's order.
public struct DocumentedSession: CustomStringConvertible, Sendable {
    public let number: Int
    public let lines: [String]
    /// What the fence adds to "session" ("ambient"), to tell the kinds apart in test names.
    private let kind: String

    /// "example 3: → {…}", named by its first request.
    public var description: String {
        (kind.isEmpty ? "" : kind + " ") + "example \(number): \(lines.first { $0.hasPrefix("→") } ?? "")"
    }

    /// The sessions fenced as "```\(fence)" in docs/protocol.md; none when it cannot be read.
    public static func inProtocolDocument(fencedAs fence: String) -> [DocumentedSession] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/protocol.md").standardized.path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        let kind = fence.split(separator: " ").dropFirst().joined(separator: " ")
        var sessions: [DocumentedSession] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line == "```" + fence {
                current = []
            } else if line == "```", let lines = current {
                sessions.append(DocumentedSession(number: sessions.count + 1, lines: lines, kind: kind))
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return sessions
    }
}
