import Glibc
import OrientationCore
import OrientdProtocol

/// A connection to orientd speaking protocol v1 (docs/protocol.md). Results and events come as
/// the protocol's types (`call(_:_:as:)`, `nextServerEvent()`); `call(_:_:)` and `nextEvent()`
/// give the JSON as sent, for members this version does not know.
///
///     let client = try OrientdClient()
///     print(try client.currentOrientation())
///     _ = try client.subscribe()
///     while let event = try client.nextServerEvent() {
///         if case .deviceOrientationDidChange(let change) = event { print(change.orientation) }
///     }
public final class OrientdClient {
    /// The hello event the daemon greeted this connection with.
    public let hello: HelloEvent
    private let connection: DaemonConnection
    private var nextID: Int64 = 1
    /// Events that arrived while waiting for a reply, read but not yet handed out.
    private var queuedEvents: [ReceivedEvent] = []

    /// Connects to `socketPath` (nil: $ORIENTD_SOCKET, else /run/orientd.sock) and reads the hello.
    public init(socketPath: String? = nil, timeout: Double? = 5) throws(OrientdClientError) {
        connection = try DaemonConnection(socketPath: Wire.socketPath(explicit: socketPath))
        connection.setReadTimeout(timeout)
        guard let line = try connection.readLine() else {
            throw .connectionLost(socketPath: connection.socketPath, reason: "orientd closed the connection before greeting")
        }
        switch try? ServerMessage(line: line) {
        case .event(.hello(let hello))?:
            self.hello = hello
        case .reply(_, .failure(let refusal))?:
            // Sent instead of the hello when orientd is full (too-many-clients).
            throw .serverError(code: refusal.code, message: refusal.message)
        default:
            throw .protocolViolation("expected a hello event, got: \(String(decoding: line, as: UTF8.self))")
        }
    }

    public var socketPath: String { connection.socketPath }

    /// Sends a request and returns its `result` object as sent; events that arrive meanwhile are queued.
    public func call(_ method: String, _ parameters: [String: JSONValue] = [:]) throws(OrientdClientError) -> JSONValue {
        let id: RequestID? = .integer(nextID)
        var request = parameters
        request["id"] = .integer(nextID)
        nextID += 1
        request["method"] = .string(method)
        try connection.send(Wire.line(JSONValue.object(request)))
        while true {
            guard let (message, json) = try nextMessage() else {
                throw .connectionLost(socketPath: connection.socketPath, reason: "orientd closed the connection")
            }
            switch message {
            case .event(let event):
                queuedEvents.append(ReceivedEvent(event: event, json: json))
            case .reply(id, .success(let result)):
                return result
            case .reply(id, .failure(let error)):
                throw .serverError(code: error.code, message: error.message)
            case .reply:
                continue
            }
        }
    }

    /// Sends a request and reads its result as `type`, the method's result type.
    public func call<Answer: MethodResult>(_ method: Method, _ parameters: [String: JSONValue] = [:],
                                           as type: Answer.Type) throws(OrientdClientError) -> Answer {
        let result = try call(method.rawValue, parameters)
        do {
            return try Answer(result: result)
        } catch {
            throw .protocolViolation("the \(method.rawValue) result \(error)")
        }
    }

    public func currentOrientation() throws(OrientdClientError) -> Orientation {
        try call(.get, as: OrientationResult.self).orientation
    }

    /// Asks for change events; returns the orientation they start from.
    public func subscribe() throws(OrientdClientError) -> Orientation {
        try call(.subscribe, as: SubscribeResult.self).orientation
    }

    /// Subscribes with `parameters` (to the accelerometer `device` names, if any: an id or a
    /// context's URI, see docs/protocol.md); returns the state the events start from.
    public func subscribe(_ parameters: SubscribeParameters, device: String? = nil) throws(OrientdClientError) -> SubscribeResult {
        try call(.subscribe, parameters.request(device: device), as: SubscribeResult.self)
    }

    public func status() throws(OrientdClientError) -> StatusResult {
        try call(.status, as: StatusResult.self)
    }

    /// A way to end a read blocked on another thread (it returns as if the daemon had closed).
    /// Use it only while this client is alive.
    public var interrupter: @Sendable () -> Void {
        let descriptor = connection.descriptor
        return { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    /// Waits for the next event, typed, with the JSON it came as (nil: the daemon closed the connection).
    public func nextReceivedEvent() throws(OrientdClientError) -> ReceivedEvent? {
        if !queuedEvents.isEmpty { return queuedEvents.removeFirst() }
        while let (message, json) = try nextMessage() {
            // A reply no request waits for any more is of no use.
            if case .event(let event) = message { return ReceivedEvent(event: event, json: json) }
        }
        return nil
    }

    /// Waits for the next event (nil: the daemon closed the connection). Events this version
    /// does not know come as `.unknown`: ignore them.
    public func nextServerEvent() throws(OrientdClientError) -> ServerEvent? {
        try nextReceivedEvent()?.event
    }

    /// Waits for the next event, as the JSON object sent (nil: the daemon closed the connection).
    public func nextEvent() throws(OrientdClientError) -> JSONValue? {
        try nextReceivedEvent()?.json
    }

    /// How long a read may wait before it fails (nil: for ever, as monitoring needs).
    public func setReadTimeout(_ seconds: Double?) { connection.setReadTimeout(seconds) }

    /// The next line read as a message, and its JSON (nil: the daemon closed the connection).
    private func nextMessage() throws(OrientdClientError) -> (ServerMessage, JSONValue)? {
        guard let line = try connection.readLine() else { return nil }
        guard let json = Wire.decode(line) else {
            throw .protocolViolation(ServerMessageError.notJSON(line: String(decoding: line, as: UTF8.self)).description)
        }
        do {
            return (try ServerMessage(json), json)
        } catch {
            throw .protocolViolation(error.description)
        }
    }
}

/// An event as it arrived: read as its type, and the JSON object it came as (with any member
/// this version does not know), for printing it as sent.
public struct ReceivedEvent: Equatable, Sendable {
    public var event: ServerEvent
    public var json: JSONValue

    public init(event: ServerEvent, json: JSONValue) {
        self.event = event
        self.json = json
    }
}

public enum OrientdClientError: Error, CustomStringConvertible {
    /// The socket could not be connected to: `isNotRunning` tells whether nothing listens there.
    case unreachable(socketPath: String, reason: String)
    case connectionLost(socketPath: String, reason: String)
    /// orientd refused the request: its error code and what it said.
    case serverError(code: ProtocolError.Code, message: String)
    case protocolViolation(String)

    /// Nothing listens at the socket (no such file, or the connection refused): orientd is not
    /// running, or listens elsewhere. False for any other failure (permissions, a path too long).
    public var isNotRunning: Bool {
        guard case .unreachable(_, let reason) = self else { return false }
        return [ENOENT, ECONNREFUSED].contains { reason == String(cString: strerror($0)) }
    }

    public var description: String {
        switch self {
        case .unreachable(let path, let reason) where isNotRunning:
            "cannot reach orientd at \(path): \(reason). Is the daemon running? Start it with "
                + "'systemctl start orientd'\(Self.startingItAt(path)); use --socket or "
                + "\(Wire.socketEnvironmentVariable) if it listens elsewhere."
        case .unreachable(let path, let reason) where reason == UnixStreamSocket.notASocket:
            "cannot reach orientd at \(path): \(reason). Check the path (--socket or "
                + "\(Wire.socketEnvironmentVariable)); if orientd's socket belongs there, move the file away: orientd does not replace it."
        case .unreachable(let path, let reason):
            "cannot reach orientd at \(path): \(reason). Check that you may open the socket and "
                + "the directories above it ('ls -ld \(path)'); use --socket or "
                + "\(Wire.socketEnvironmentVariable) if it listens elsewhere."
        case .connectionLost(let path, let reason): "lost the connection to orientd at \(path): \(reason)"
        case .serverError(let code, let message): "orientd answered \(code.rawValue): \(message)"
        case .protocolViolation(let what): "orientd sent something unexpected: \(what)"
        }
    }

    /// " or 'orientd --socket PATH'", with the path made absolute as orientd wants it; nothing
    /// when its directory does not exist (orientd would refuse to make a socket there).
    private static func startingItAt(_ path: String) -> String {
        var absolute = path
        if !path.hasPrefix("/") {
            var directory = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            guard getcwd(&directory, directory.count) != nil else { return "" }
            absolute = String(decoding: directory.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/" + path
        }
        let parent = absolute.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        var status = stat()
        guard stat(parent.isEmpty ? "/" : parent, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return "" }
        return " or 'orientd --socket \(absolute)'"
    }
}
