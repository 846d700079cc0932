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

/// `{"event": "hello", ...}`: the first line the server sends on every connection. It carries no
/// orientation: the sensor may be asleep, and only a request wakes it.
public struct HelloEvent: Codable, Equatable, Sendable {
    public var event = "hello"
    public var `protocol`: Int
    public var server: String

    public init(protocol: Int = Wire.protocolVersion, server: String) {
        self.protocol = `protocol`
        self.server = server
    }
}

/// `{"event": "deviceOrientationDidChange", ...}`: sent to subscribers on every change.
public struct DeviceOrientationDidChangeEvent: Codable, Equatable, Sendable {
    public var event = "deviceOrientationDidChange"
    public var orientation: Orientation
    /// The orientation this client was last told of.
    public var previous: Orientation
    /// When the daemon decided the change, in seconds since the Unix epoch.
    public var timestamp: Double
    /// Counts the daemon's orientation changes since it started; a gap means changes were coalesced.
    public var sequence: Int

    public init(orientation: Orientation, previous: Orientation, timestamp: Double, sequence: Int) {
        self.orientation = orientation
        self.previous = previous
        self.timestamp = timestamp
        self.sequence = sequence
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
