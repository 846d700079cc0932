import Foundation
import NIOCore

/// Who is on the other end of a client connection, as the kernel vouches (SO_PEERCRED): the
/// process, user and group that connected.
struct PeerCredentials: Sendable, Equatable {
    let pid: pid_t
    let uid: uid_t
    let gid: gid_t

    /// Reads the credentials of a connected Unix socket; nil if the kernel will not say.
    static func of(_ channel: Channel) -> EventLoopFuture<PeerCredentials?> {
        guard let provider = channel as? SocketOptionProvider else {
            return channel.eventLoop.makeSucceededFuture(nil)
        }
        let credentials: EventLoopFuture<KernelCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return credentials
            .map { Optional(PeerCredentials(pid: $0.pid, uid: $0.uid, gid: $0.gid)) }
            .recover { _ in nil }
    }

    /// Linux's `struct ucred`, which Glibc's Swift module hides behind _GNU_SOURCE.
    private struct KernelCredentials: Sendable {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
    }

    /// The peer's supplementary groups, read from /proc (the kernel's own record of the process,
    /// so a group granted by a login session counts). Empty if the process has gone.
    var supplementaryGroups: [gid_t] {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Groups:") })
        else { return [] }
        return line.dropFirst("Groups:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { gid_t($0) }
    }
}
