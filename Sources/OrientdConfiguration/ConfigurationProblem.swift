/// One thing wrong with the configuration, said the way compilers do: "FILE:LINE: reason", or
/// "--flag: reason" for a command-line flag.
public struct ConfigurationProblem: Error, Equatable, CustomStringConvertible, Sendable {
    /// The config file, or the flag ("--rate") the problem came from.
    public let origin: String
    /// The line in the file, when the problem has one.
    public let line: Int?
    public let reason: String

    public init(origin: String, line: Int?, reason: String) {
        self.origin = origin
        self.line = line
        self.reason = reason
    }

    public var description: String {
        if let line { return "\(origin):\(line): \(reason)" }
        return "\(origin): \(reason)"
    }
}

/// Every problem found, so a user fixes a config file in one pass rather than one error per start.
public struct ConfigurationProblems: Error, CustomStringConvertible, Sendable {
    public let problems: [ConfigurationProblem]

    public init(problems: [ConfigurationProblem]) { self.problems = problems }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
