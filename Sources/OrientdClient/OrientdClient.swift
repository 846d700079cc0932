import Glibc
import OrientationCore
import OrientdProtocol

/// A connection to orientd speaking protocol v1 (docs/protocol.md).
///
///     let client = try OrientdClient()
///     print(try client.currentOrientation())
///     _ = try client.subscribe()
///     while let event = try client.nextEvent() { print(event["orientation"] ?? "") }
public final class OrientdClient {
    /// The hello event the daemon greeted this connection with.
    public let hello: JSONValue
    private let connection: DaemonConnection
    private var nextID: Int64 = 1
    private var queuedEvents: [JSONValue] = []

    /// Connects to `socketPath` (nil: $ORIENTD_SOCKET, else /run/orientd.sock) and reads the hello.
    public init(socketPath: String? = nil, timeout: Double? = 5) throws(OrientdClientError) {
        connection = try DaemonConnection(socketPath: Wire.socketPath(explicit: socketPath))
        connection.setReadTimeout(timeout)
        guard let line = try connection.readLine() else {
            throw .connectionLost(socketPath: connection.socketPath, reason: "orientd closed the connection before greeting")
        }
        if let refusal = Wire.decode(line)?["error"] {
            // Sent instead of the hello when orientd is full (too-many-clients).
            throw .serverError(code: refusal["code"]?.stringValue ?? "", message: refusal["message"]?.stringValue ?? "")
        }
        guard let hello = Wire.decode(line), hello["event"]?.stringValue == "hello" else {
            throw .protocolViolation("expected a hello event, got: \(String(decoding: line, as: UTF8.self))")
        }
        self.hello = hello
    }

    public var socketPath: String { connection.socketPath }

    /// Sends a request and returns its `result` object; events that arrive meanwhile are queued.
    public func call(_ method: String, _ parameters: [String: JSONValue] = [:]) throws(OrientdClientError) -> JSONValue {
        let id = nextID
        nextID += 1
        var request = parameters
        request["id"] = .integer(id)
        request["method"] = .string(method)
        try connection.send(Wire.line(JSONValue.object(request)))
        while true {
            let message = try nextMessage()
            if message["event"] != nil {
                queuedEvents.append(message)
                continue
            }
            guard message["id"] == .integer(id) else { continue }
            if let error = message["error"] {
                throw .serverError(code: error["code"]?.stringValue ?? "", message: error["message"]?.stringValue ?? "")
            }
            guard let result = message["result"] else { throw .protocolViolation("reply without result or error") }
            return result
        }
    }

    public func currentOrientation() throws(OrientdClientError) -> Orientation {
        try orientation(in: call(Method.get.rawValue))
    }

    /// Asks for change events; returns the orientation they start from.
    public func subscribe() throws(OrientdClientError) -> Orientation {
        try orientation(in: call(Method.subscribe.rawValue))
    }

    /// A way to end a read blocked on another thread (it returns as if the daemon had closed).
    /// Use it only while this client is alive.
    public var interrupter: @Sendable () -> Void {
        let descriptor = connection.descriptor
        return { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    /// Waits for the next event (nil: the daemon closed the connection).
    public func nextEvent() throws(OrientdClientError) -> JSONValue? {
        if !queuedEvents.isEmpty { return queuedEvents.removeFirst() }
        while true {
            guard let line = try connection.readLine() else { return nil }
            if let message = Wire.decode(line), message["event"] != nil { return message }
        }
    }

    /// How long a read may wait before it fails (nil: for ever, as monitoring needs).
    public func setReadTimeout(_ seconds: Double?) { connection.setReadTimeout(seconds) }

    private func nextMessage() throws(OrientdClientError) -> JSONValue {
        guard let line = try connection.readLine() else {
            throw .connectionLost(socketPath: connection.socketPath, reason: "orientd closed the connection")
        }
        guard let message = Wire.decode(line) else {
            throw .protocolViolation("not JSON: \(String(decoding: line, as: UTF8.self))")
        }
        return message
    }

    private func orientation(in result: JSONValue) throws(OrientdClientError) -> Orientation {
        guard let name = result["orientation"]?.stringValue, let orientation = Orientation(rawValue: name) else {
            throw .protocolViolation("result has no known orientation")
        }
        return orientation
    }
}

public enum OrientdClientError: Error, CustomStringConvertible {
    case unreachable(socketPath: String, reason: String)
    case connectionLost(socketPath: String, reason: String)
    case serverError(code: String, message: String)
    case protocolViolation(String)

    public var description: String {
        switch self {
        case .unreachable(let path, let reason):
            "cannot reach orientd at \(path): \(reason). Is the daemon running? Start it with "
                + "'systemctl start orientd' or 'orientd --socket \(path)'; use --socket or "
                + "\(Wire.socketEnvironmentVariable) if it listens elsewhere."
        case .connectionLost(let path, let reason): "lost the connection to orientd at \(path): \(reason)"
        case .serverError(let code, let message): "orientd answered \(code): \(message)"
        case .protocolViolation(let what): "orientd sent something unexpected: \(what)"
        }
    }
}
