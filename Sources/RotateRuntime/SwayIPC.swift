import Glibc
import OrientdClient
import OrientdProtocol

/// One connection to sway's IPC socket (`$SWAYSOCK`). A message is the magic `i3-ipc`, the
/// payload's length and the message type (each a 32-bit integer in the machine's byte order),
/// then the payload, JSON in both directions (sway-ipc(7)).
package final class SwayIPC {
    package enum MessageType: UInt32 {
        case runCommand = 0
        case subscribe = 2
        case getOutputs = 3
    }

    /// Event types have the high bit set; sway's `workspace` event is 0, `output` 1, `shutdown` 6.
    package static let workspaceEvent: UInt32 = 0x8000_0000
    package static let outputEvent: UInt32 = 0x8000_0001
    package static let shutdownEvent: UInt32 = 0x8000_0006

    private static let magic = Array("i3-ipc".utf8)
    /// A reply larger than this is not from sway.
    private static let largestPayload: UInt32 = 16 << 20

    package let socketPath: String
    private let descriptor: Int32

    /// Connects; `timeout` bounds the connection and each read and write, so a sway that hangs
    /// (stopped, or busy) cannot hang orientctl. A connection kept for events lifts the bound on
    /// reads afterwards (`waitForEvents`).
    package init(socketPath: String, timeout: Double = 5) throws(BackendFailure) {
        self.socketPath = socketPath
        do {
            descriptor = try UnixStreamSocket.connect(to: socketPath, timeout: timeout)
        } catch {
            throw BackendFailure(description: "sway is not answering at \(socketPath): \(error.reason)", compositorGone: true, code: error.code)
        }
    }

    deinit { close(descriptor) }

    /// From now on a read waits as long as sway sends nothing: for a connection that only listens.
    package func waitForEvents() {
        UnixStreamSocket.limit(descriptor, SO_RCVTIMEO, to: nil)
    }

    /// Sends a message and returns sway's reply, skipping events that arrive first.
    package func request(_ type: MessageType, _ payload: String = "") throws(BackendFailure) -> JSONValue {
        try send(type, payload)
        while true {
            let (replyType, reply) = try receive()
            guard replyType & 0x8000_0000 == 0 else { continue }
            guard let json = Wire.decode(reply) else {
                throw BackendFailure(description: "sway sent a reply that is not JSON", compositorGone: false)
            }
            return json
        }
    }

    package func send(_ type: MessageType, _ payload: String) throws(BackendFailure) {
        var message = Self.magic
        let body = Array(payload.utf8)
        withUnsafeBytes(of: UInt32(body.count)) { message.append(contentsOf: $0) }
        withUnsafeBytes(of: type.rawValue) { message.append(contentsOf: $0) }
        message += body
        var sent = 0
        while sent < message.count {
            let count = message[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw Self.failure("lost sway's socket \(socketPath)", gone: true) }
            sent += count
        }
    }

    /// The next message from sway: a reply or an event.
    package func receive() throws(BackendFailure) -> (type: UInt32, payload: [UInt8]) {
        let header = try read(count: Self.magic.count + 8)
        guard Array(header.prefix(Self.magic.count)) == Self.magic else {
            throw BackendFailure(description: "\(socketPath) does not speak sway's IPC protocol", compositorGone: false)
        }
        let length = header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: Self.magic.count, as: UInt32.self) }
        let type = header.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: Self.magic.count + 4, as: UInt32.self) }
        guard length <= Self.largestPayload else {
            throw BackendFailure(description: "sway announced a message of \(length) bytes", compositorGone: false)
        }
        return (type, try read(count: Int(length)))
    }

    private func read(count: Int) throws(BackendFailure) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes[filled...].withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if got < 0 && errno == EINTR { continue }
            if got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                throw BackendFailure(description: "sway did not answer within its time at \(socketPath)", compositorGone: false)
            }
            guard got > 0 else {
                throw BackendFailure(description: "sway closed its socket \(socketPath)", compositorGone: true)
            }
            filled += got
        }
        return bytes
    }

    private static func failure(_ what: String, gone: Bool) -> BackendFailure {
        let code = errno
        return BackendFailure(description: "\(what): \(String(cString: strerror(code)))", compositorGone: gone, code: code)
    }
}
