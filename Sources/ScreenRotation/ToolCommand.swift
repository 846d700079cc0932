/// One run of a command-line tool: its argument vector, the tool's name first. Run as is, with
/// no shell, so output names and device names need no quoting.
public struct ToolCommand: Hashable, Sendable, CustomStringConvertible {
    public let arguments: [String]

    public init(_ arguments: [String]) {
        precondition(!arguments.isEmpty, "a command names its tool")
        self.arguments = arguments
    }

    public init(_ arguments: String...) { self.init(arguments) }

    /// The program, looked up on PATH.
    public var tool: String { arguments[0] }

    /// The command as a shell line, for messages: arguments with spaces or quotes are quoted.
    public var description: String { arguments.map(Self.quoted).joined(separator: " ") }

    private static func quoted(_ argument: String) -> String {
        let plain = !argument.isEmpty && argument.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || scalar.properties.numericType != nil || "-_.,:/=@+%".unicodeScalars.contains(scalar)
        }
        if plain { return argument }
        return "'" + argument.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }
}

/// What a tool did when it ran to the end.
public struct ToolResult: Equatable, Sendable {
    public let status: Int32
    public let standardOutput: String
    public let standardError: String

    public init(status: Int32, standardOutput: String = "", standardError: String = "") {
        self.status = status
        self.standardOutput = standardOutput
        self.standardError = standardError
    }
}

/// How a tool's run went, judged from its exit status and its words.
public enum ToolOutcome: Equatable, Sendable {
    case succeeded
    /// The compositor or X server answered and refused, or the tool failed: the words why.
    case refused(String)
    /// The tool could not reach the compositor or X server at all: the tool's words.
    case compositorGone(String)

    /// The common judgement: any of `goneMarkers` in what the tool wrote (on either stream)
    /// means it could not reach its compositor; else a non-zero exit status means it refused.
    static func judge(_ result: ToolResult, goneMarkers: [String]) -> ToolOutcome {
        let written = result.standardError + "\n" + result.standardOutput
        if goneMarkers.contains(where: { written.contains($0) }) { return .compositorGone(result.words) }
        return result.status == 0 ? .succeeded : .refused(result.words)
    }
}

extension ToolResult {
    /// What the tool said, trimmed: its standard error, else its standard output (hyprctl and
    /// niri write their errors there), else its exit status.
    public var words: String {
        let error = Text.trimmed(standardError), output = Text.trimmed(standardOutput)
        if !error.isEmpty { return error }
        if !output.isEmpty { return output }
        return "exit status \(status)"
    }
}

/// Why a command backend could not list outputs or turn one.
public struct ToolFailure: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    /// True when the compositor could not be reached (or did not answer in time): worth trying
    /// again later. False when it answered and refused, or a tool is missing.
    public let compositorGone: Bool

    public init(_ description: String, compositorGone: Bool) {
        self.description = description
        self.compositorGone = compositorGone
    }
}

/// Line handling for tools' output, without Foundation.
enum Text {
    static func lines(_ text: String) -> [Substring] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.last == "\r" ? $0.dropLast() : $0 }
    }

    static func trimmed<S: StringProtocol>(_ text: S) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
