import CLibSystemd
import Glibc

/// The listening socket systemd passes when orientd.socket starts orientd (sd_listen_fds).
enum SocketActivation {
    /// The passed descriptor, or nil when orientd was not socket-activated (it then binds its own).
    static func passedSocket() throws(DaemonFailure) -> Int32? {
        let count = sd_listen_fds(1)
        guard count != 0 else { return nil }
        guard count > 0 else { throw DaemonFailure("cannot take the sockets systemd passed: \(String(cString: strerror(-count)))") }
        guard count == 1 else {
            throw DaemonFailure("systemd passed \(count) sockets; orientd listens on one (give orientd.socket a single ListenStream=)")
        }
        let descriptor = SD_LISTEN_FDS_START
        guard sd_is_socket_unix(descriptor, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0 else {
            throw DaemonFailure("the socket systemd passed is not a listening Unix stream socket (orientd.socket needs ListenStream=/path)")
        }
        return descriptor
    }
}
