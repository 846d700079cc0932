import OrientationCore

/// A request's id, echoed in its reply: a JSON integer or string, chosen by the client.
public enum RequestID: Codable, Hashable, Sendable, CustomStringConvertible {
    case integer(Int64)
    case string(String)

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }

    public var description: String {
        switch self {
        case .integer(let value): String(value)
        case .string(let value): "\"\(value)\""
        }
    }
}

/// The methods of protocol v1.
public enum Method: String, Sendable, CaseIterable {
    case get
    case subscribe
    case unsubscribe
    case status
    case ping
    case lock
    case unlock

    /// The members a request of this method may carry beside `id` and `method`.
    public var parameters: [String] {
        switch self {
        case .get: ["device"]
        case .subscribe: ["events", "orientations", "supportedInterfaceOrientations", "angleRate", "device"]
        case .unsubscribe, .status, .ping, .lock, .unlock: []
        }
    }
}

/// A request line as the client sent it: `{"id": ID, "method": NAME, ...}`. The other members are
/// the method's parameters; a member the method does not take is refused (`unknownMember`), so a
/// misspelt one is never taken for its default.
public struct Request: Equatable, Sendable {
    public var id: RequestID
    public var method: String
    public var parameters: [String: JSONValue]

    public init(id: RequestID, method: String, parameters: [String: JSONValue] = [:]) {
        self.id = id
        self.method = method
        self.parameters = parameters
    }

    /// Reads a request line (without its newline). A failure carries the id when one could be read,
    /// so the error reply can name it.
    public static func parse<Bytes: Collection<UInt8>>(_ line: Bytes) -> Result<Request, RequestFailure> {
        guard let value = Wire.decode(line) else {
            return .failure(RequestFailure(id: nil, error: .init(.invalidJSON, "the request is not valid JSON")))
        }
        guard case .object(let members) = value else {
            return .failure(RequestFailure(id: nil, error: .init(.invalidRequest, "a request must be a JSON object")))
        }
        let id: RequestID
        switch members["id"] {
        case .integer(let number): id = .integer(number)
        case .string(let text): id = .string(text)
        default:
            return .failure(RequestFailure(id: nil, error: .init(.invalidRequest, "\"id\" must be an integer or a string")))
        }
        guard let method = members["method"]?.stringValue else {
            return .failure(RequestFailure(id: id, error: .init(.invalidRequest, "\"method\" must be a string")))
        }
        var parameters = members
        parameters["id"] = nil
        parameters["method"] = nil
        return .success(Request(id: id, method: method, parameters: parameters))
    }
}

extension Request {
    /// The refusal of the first member (in name order) that `method` does not take, naming the
    /// nearest one it does; nil when every member is one of its parameters.
    public func unknownMember(for method: Method) -> ProtocolError? {
        guard let member = parameters.keys.sorted().first(where: { !method.parameters.contains($0) }) else { return nil }
        let name = printableExcerpt(member, limit: 40)
        let takes = method.parameters.isEmpty ? "\(method.rawValue) takes no members beside id and method"
            : "\(method.rawValue) takes: \(method.parameters.joined(separator: ", "))"
        let guess = closest(to: member, among: method.parameters).map { "did you mean \"\($0)\"? " } ?? ""
        return ProtocolError(.invalidParameters, "unknown member \"\(name)\"; \(guess)\(takes)")
    }
}

/// A request that could not be read, and what to answer.
public struct RequestFailure: Error, Equatable, Sendable {
    public var id: RequestID?
    public var error: ProtocolError
}
