import Glibc
import NIOCore

/// Who is on the other end of a client connection, as the kernel vouches: the process, user and
/// group that connected (SO_PEERCRED) and that process's supplementary groups (SO_PEERGROUPS),
/// all fixed when it connected, so a process that exits cannot lend them to another.
struct PeerCredentials: Sendable, Equatable {
    let pid: pid_t
    let uid: uid_t
    let gid: gid_t
    let supplementaryGroups: [gid_t]

    /// Reads the credentials of a connected Unix socket; nil if the kernel will not say.
    static func of(_ channel: Channel) -> EventLoopFuture<PeerCredentials?> {
        guard let provider = channel as? SocketOptionProvider else {
            return channel.eventLoop.makeSucceededFuture(nil)
        }
        let credentials: EventLoopFuture<KernelCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        // Room for the usual few groups first; a peer with more (the kernel says ERANGE) is asked
        // again with room for as many as Linux allows.
        let supplementary = peerGroups(provider, as: KernelGroups<256>.self).flatMapError { error in
            guard let error = error as? IOError, error.errnoCode == ERANGE else {
                return channel.eventLoop.makeFailedFuture(error)
            }
            return peerGroups(provider, as: KernelGroups<65536>.self)
        }.recover { _ in [] }
        return credentials.and(supplementary)
            .map { credentials, groups in
                Optional(PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid, supplementaryGroups: groups))
            }
            .recover { _ in nil }
    }

    private static func peerGroups<let room: Int>(_ provider: SocketOptionProvider, as: KernelGroups<room>.Type) -> EventLoopFuture<[gid_t]> {
        let groups: EventLoopFuture<KernelGroups<room>> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(peerGroupsOption))
        return groups.map(\.groups)
    }

    /// SO_PEERGROUPS (Linux 4.13), which Glibc's Swift module does not export.
    private static let peerGroupsOption: Int32 = 59

    /// Linux's `struct ucred`, which Glibc's Swift module hides behind _GNU_SOURCE.
    private struct KernelCredentials: Sendable {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
    }

    /// Room for SO_PEERGROUPS's answer: up to `room` group ids (Linux allows 65 536), in
    /// ascending order (the kernel keeps them sorted). NIO zero-fills the room and does not say how much the kernel wrote, so the
    /// list ends where the ids stop ascending. (A lone gid 0 cannot be told from no groups at all:
    /// it is not counted, which only matters for a lock-group of gid 0, and then only for a
    /// supplementary membership.)
    private struct KernelGroups<let count: Int>: Sendable {
        var room = InlineArray<count, gid_t>(repeating: 0)

        var groups: [gid_t] {
            var groups: [gid_t] = []
            var previous: gid_t = 0
            for index in room.indices {
                let gid = room[index]
                if gid <= previous {
                    if index == 0 { continue }
                    break
                }
                groups.append(gid)
                previous = gid
            }
            return groups
        }
    }
}
