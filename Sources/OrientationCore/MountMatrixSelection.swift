/// One place a mount matrix may come from, with the text found there (nil: nothing there).
public struct MountMatrixCandidate: Sendable {
    public let source: String
    public let text: String?

    public init(source: String, text: String?) {
        self.source = source
        self.text = text
    }
}

/// The matrix in force, where it came from, and the candidates passed over because they were malformed.
public struct MountMatrixSelection: Sendable {
    public let matrix: MountMatrix
    public let source: String
    public let rejected: [(source: String, text: String, error: MountMatrixError)]

    /// Takes the first candidate, in order of precedence, whose text is a valid matrix; identity if none is.
    public init(choosingFrom candidates: [MountMatrixCandidate]) {
        var rejected: [(source: String, text: String, error: MountMatrixError)] = []
        for candidate in candidates {
            guard let text = candidate.text, !text.trimmingBlanks().isEmpty else { continue }
            do {
                let matrix = try MountMatrix(parsing: text)
                self.init(matrix: matrix, source: candidate.source, rejected: rejected)
                return
            } catch {
                rejected.append((candidate.source, text, error))
            }
        }
        self.init(matrix: .identity, source: "identity (no mount matrix found)", rejected: rejected)
    }

    private init(matrix: MountMatrix, source: String, rejected: [(source: String, text: String, error: MountMatrixError)]) {
        self.matrix = matrix
        self.source = source
        self.rejected = rejected
    }
}
