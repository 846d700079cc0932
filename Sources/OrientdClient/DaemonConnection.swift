import Glibc

/// A blocking line-oriented connection to orientd's Unix socket.
final class DaemonConnection {
    let socketPath: String
    let descriptor: Int32
    private var received: [UInt8] = []

    init(socketPath: String) throws(OrientdClientError) {
        self.socketPath = socketPath
        do {
            descriptor = try UnixStreamSocket.connect(to: socketPath)
        } catch {
            throw .unreachable(socketPath: socketPath, reason: error.reason)
        }
    }

    deinit { close(descriptor) }

    /// Gives up on a read that waits longer than `seconds` (nil: wait for ever).
    func setReadTimeout(_ seconds: Double?) {
        UnixStreamSocket.limit(descriptor, SO_RCVTIMEO, to: seconds)
    }

    func send(_ bytes: [UInt8]) throws(OrientdClientError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .connectionLost(socketPath: socketPath, reason: Self.errnoText())
            }
            offset += written
        }
    }

    /// The next line without its newline; nil when the daemon closed the connection.
    func readLine() throws(OrientdClientError) -> [UInt8]? {
        while true {
            if let newline = received.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(received[..<newline])
                received.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return nil }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    throw .connectionLost(socketPath: socketPath, reason: "orientd did not answer in time")
                }
                throw .connectionLost(socketPath: socketPath, reason: Self.errnoText())
            }
            received.append(contentsOf: chunk[..<count])
        }
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
