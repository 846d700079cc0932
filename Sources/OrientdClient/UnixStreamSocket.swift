import Glibc

/// Connecting to a Unix stream socket, for orientd's socket and any other a client speaks to
/// (orientctl rotate's sway IPC).
package enum UnixStreamSocket {
    /// Why a connection could not be made: the system's error number and the words for it.
    package struct Failure: Error, Sendable {
        package let code: Int32
        package let reason: String
    }

    /// The reason given when a file of another kind is where the socket should be.
    package static let notASocket = "it is not a socket but a file of another kind"

    /// A connected descriptor (close-on-exec). With `timeout`, reads, writes and the connection
    /// itself are bounded (a Unix socket's connect waits under SO_SNDTIMEO while the listener's
    /// backlog is full).
    package static func connect(to path: String, timeout: Double? = nil) throws(Failure) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else {
            throw Failure(code: ENAMETOOLONG, reason: "the path is longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
            raw[pathBytes.count] = 0
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw lastFailure() }
        if let timeout {
            limit(descriptor, SO_SNDTIMEO, to: timeout)
            limit(descriptor, SO_RCVTIMEO, to: timeout)
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            var failure = lastFailure()
            close(descriptor)
            // A file of another kind in the socket's place refuses too: say what it is instead.
            var status = stat()
            // (stat, not lstat: connect follows a symbolic link, so a link to a stale socket is a socket.)
            if failure.code == ECONNREFUSED, stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFSOCK {
                failure = Failure(code: ENOTSOCK, reason: notASocket)
            }
            throw failure
        }
        return descriptor
    }

    /// Bounds `option` (SO_RCVTIMEO or SO_SNDTIMEO) of `descriptor` to `seconds`; nil: no bound.
    package static func limit(_ descriptor: Int32, _ option: Int32, to seconds: Double?) {
        var interval = timeval()
        if let seconds {
            interval.tv_sec = Int(seconds)
            interval.tv_usec = Int((seconds - Double(Int(seconds))) * 1_000_000)
        }
        setsockopt(descriptor, SOL_SOCKET, option, &interval, socklen_t(MemoryLayout<timeval>.size))
    }

    private static func lastFailure() -> Failure {
        let code = errno
        return Failure(code: code, reason: String(cString: strerror(code)))
    }
}
