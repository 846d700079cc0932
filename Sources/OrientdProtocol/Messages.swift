import OrientationCore

/// The error object of a reply: a stable machine-readable code and a sentence for people.
public struct ProtocolError: Codable, Equatable, Sendable, Error {
    public enum Code: String, Codable, Sendable {
        case invalidJSON = "invalid-json"
        case invalidRequest = "invalid-request"
        case unknownMethod = "unknown-method"
        case requestTooLong = "request-too-long"
        case tooManyClients = "too-many-clients"
        case invalidParameters = "invalid-params"
        case permissionDenied = "permission-denied"
        case unknownDevice = "unknown-device"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}

/// `{"id": ID, "result": {...}}`.
public struct SuccessReply<Result: Codable & Sendable>: Codable, Sendable {
    public var id: RequestID
    public var result: Result

    public init(id: RequestID, result: Result) {
        self.id = id
        self.result = result
    }
}

/// `{"id": ID, "error": {...}}`; the id is left out when the request's could not be read.
public struct ErrorReply: Codable, Equatable, Sendable {
    public var id: RequestID?
    public var error: ProtocolError

    public init(id: RequestID?, error: ProtocolError) {
        self.id = id
        self.error = error
    }
}
