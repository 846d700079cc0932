import Foundation
import Glibc

/// A blocking line-oriented connection to orientd's Unix socket.
final class DaemonConnection {
    let socketPath: String
    let descriptor: Int32
    private var received: [UInt8] = []

    init(socketPath: String) throws(OrientdClientError) {
        self.socketPath = socketPath
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(socketPath.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else {
            throw .unreachable(socketPath: socketPath, reason: "the path is longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
            raw[pathBytes.count] = 0
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .unreachable(socketPath: socketPath, reason: Self.errnoText()) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let reason = Self.errnoText()
            close(descriptor)
            throw .unreachable(socketPath: socketPath, reason: reason)
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Gives up on a read that waits longer than `seconds` (nil: wait for ever).
    func setReadTimeout(_ seconds: Double?) {
        var interval = timeval()
        if let seconds {
            interval.tv_sec = Int(seconds)
            interval.tv_usec = Int((seconds - Double(Int(seconds))) * 1_000_000)
        }
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
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
