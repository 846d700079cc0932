import Synchronization
import Glibc
import Logging
import NIOCore
import NIOPosix
import OrientdProtocol
import ServiceLifecycle

/// Serves the hub on a Unix socket until graceful shutdown, when every client is sent a
/// `stopping` event before its connection closes.
public struct HubServer: Service {
    /// Where to listen: a path orientd binds, or a socket systemd passed (socket activation).
    public enum Listener: Sendable {
        case path(String)
        case passed(descriptor: Int32)
    }

    public let socketPath: String
    private let logger: Logger
    let channel: Channel
    private let connections: Connections
    private let clients: ClientCount
    /// The socket file's inode once bound: on stop, only that file is removed, not one a newer
    /// daemon bound at the same path meanwhile. Nil for a passed socket, which systemd owns.
    private let socketInode: ino_t?

    /// Connections the kernel holds for orientd before it accepts them: as many as it allows, so
    /// a burst of clients (a desktop session starting) is not refused.
    static let backlog = Int32(SOMAXCONN)
    /// The most one read from a client takes in.
    static let largestRead = 8 * 1024

    /// Binds the socket (readable and writable by every local user); clients that connect wait in
    /// the backlog until `run()`, so none is greeted before the first reading, nor before the
    /// service group handles SIGTERM (a client that was greeted may rely on a clean stop). At most
    /// `maximumClients` are served at once. Refuses to take over a socket another live daemon serves.
    public static func bind(_ listener: Listener, hubs: DeviceHubs, sensorRate: Double, maximumClients: Int,
                            maximumClientsPerUser: Int, logger: Logger) async throws -> HubServer {
        let group = MultiThreadedEventLoopGroup.singleton
        if case .path(let socketPath) = listener, access(socketPath, F_OK) == 0,
           await isServed(socketPath, group: group) {
            throw HubError("another daemon is already serving \(socketPath); stop it first or choose another --socket")
        }
        let clients = ClientCount(maximum: maximumClients, maximumPerUser: maximumClientsPerUser)
        let connections = Connections()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: Self.backlog)
            .serverChannelOption(.autoRead, value: false)
            // A small outbound buffer per client: when it fills, the client is slow, its requests
            // wait unanswered and unread, and only its newest state is kept (see Subscription).
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 4 * 1024, high: 16 * 1024))
            // Reads one at a time and of at most 8 KiB, so what one read brings in is bounded
            // (ClientConnection); starting small, as each channel keeps its buffer (10 000 clients
            // at a fixed 8 KiB cost 60 MiB more than at 512 bytes).
            .childChannelOption(.maxMessagesPerRead, value: 1)
            .childChannelOption(.recvAllocator, value: AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 512, maximum: Self.largestRead))
            // A client may end its input after its requests (`echo … | socat`): they are still
            // answered, then the connection closes (ClientConnection), where NIO would close at once.
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            // And a small kernel buffer: 10 000 clients at the default 208 KiB could pin 2 GiB.
            .childChannelOption(.socketOption(.so_sndbuf), value: 32 * 1024)
            .childChannelInitializer { channel in
                connections.add(channel)
                return channel.eventLoop.makeCompletedFuture {
                    let handlers = channel.pipeline.syncOperations
                    try handlers.addHandler(ByteToMessageHandler(BoundedLineDecoder(maximumLength: Wire.maximumRequestLength)))
                    try handlers.addHandler(ClientConnection(hubs: hubs, clients: clients, sensorRate: sensorRate, logger: logger))
                }
            }
        switch listener {
        case .passed(let descriptor):
            let channel: Channel
            do {
                channel = try await bootstrap.withBoundSocket(descriptor).get()
            } catch {
                throw HubError("cannot listen on the socket systemd passed (descriptor \(descriptor)): \(error)")
            }
            let path = channel.localAddress?.pathname ?? "the socket systemd passed"
            return HubServer(socketPath: path, logger: logger, channel: channel, connections: connections, clients: clients, socketInode: nil)
        case .path(let socketPath):
            var place = try SocketPlacement(socketPath)
            defer { place.finish() }
            let privatePath = try place.makePrivateDirectory()
            let channel: Channel
            do {
                let descriptor = try listeningSocket(at: privatePath)
                channel = try await bootstrap.withBoundSocket(descriptor).get()
                // SwiftNIO listens again as it registers the socket, with its own backlog (128):
                // ours again, which Linux takes on a listening socket.
                listen(descriptor, backlog)
            } catch {
                throw HubError("cannot listen on \(socketPath): \(explain(error, socketPath: socketPath))")
            }
            do {
                try place.publish()
            } catch {
                try? await channel.close()
                throw error
            }
            return HubServer(socketPath: socketPath, logger: logger, channel: channel, connections: connections,
                             clients: clients, socketInode: inode(of: socketPath))
        }
    }

    /// Clients connected now.
    public var connectedClients: Int { clients.connected }

    /// Accepts clients until graceful shutdown.
    public func run() async throws {
        do {
            try await channel.setOption(.autoRead, value: true).get()
        } catch {
            throw HubError("cannot accept clients on \(socketPath): \(error)")
        }
        try await withGracefulShutdownHandler {
            try await channel.closeFuture.get()
        } onGracefulShutdown: { [channel] in
            channel.close(promise: nil)
        }
        removeSocketFile()
        let told = await connections.sayStoppingAndClose(within: .milliseconds(300))
        logger.info("stopped listening on \(socketPath); told \(told) client\(told == 1 ? "" : "s") orientd is stopping")
    }

    /// Stops listening without having served (start-up failed elsewhere).
    public func close() async {
        try? await channel.close()
        removeSocketFile()
    }

    /// Every client connection, so each can be told when orientd stops.
    private final class Connections: Sendable {
        private struct State {
            var open: [ObjectIdentifier: Channel] = [:]
            /// Set once orientd stops: a connection accepted since is told at once.
            var stoppingLine: ByteBuffer?
        }
        private let state = Mutex(State())

        func add(_ channel: Channel) {
            let key = ObjectIdentifier(channel)
            let late: ByteBuffer? = state.withLock { state in
                if let line = state.stoppingLine { return line }
                state.open[key] = channel
                return nil
            }
            if let late {
                channel.writeAndFlush(late).whenComplete { _ in channel.close(promise: nil) }
                return
            }
            channel.closeFuture.whenComplete { [self] _ in
                _ = state.withLock { $0.open.removeValue(forKey: key) }
            }
        }

        /// Sends each open connection a `stopping` event and closes it; waits at most `limit` for
        /// the events to be written (a client that does not read is closed regardless). Returns
        /// how many connections were open.
        func sayStoppingAndClose(within limit: TimeAmount) async -> Int {
            let line = ByteBuffer(bytes: Wire.line(StoppingEvent(timestamp: WallClock.now())))
            let channels = state.withLock { state in
                state.stoppingLine = line
                return Array(state.open.values)
            }
            let closed = channels.map { channel in
                channel.writeAndFlush(line).flatMap { channel.close() }.recover { _ in }
            }
            let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
            let done = eventLoop.makePromise(of: Void.self)
            EventLoopFuture.andAllComplete(closed, on: eventLoop).cascade(to: done)
            let deadline = eventLoop.scheduleTask(in: limit) { done.succeed() }
            try? await done.futureResult.get()
            deadline.cancel()
            for channel in channels { channel.close(promise: nil) }
            return channels.count
        }
    }

    private func removeSocketFile() {
        if let socketInode, Self.inode(of: socketPath) == socketInode { unlink(socketPath) }
    }

    private static func inode(of path: String) -> ino_t? {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_ino : nil
    }

    /// A Unix socket listening at `path`, close-on-exec (SwiftNIO's own is not): a process started
    /// meanwhile (a hook, a helper, a test's child) must not keep orientd's socket answering
    /// after orientd is gone, where the next orientd would take it for a live one.
    private static func listeningSocket(at path: String) throws -> CInt {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { throw IOError(errnoCode: errno, reason: "socket") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            Glibc.close(descriptor)
            throw SocketAddressError.unixDomainSocketPathTooLong
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(descriptor, backlog) == 0 else {
            let error = IOError(errnoCode: errno, reason: bound == 0 ? "listen" : "bind")
            Glibc.close(descriptor)
            throw error
        }
        return descriptor
    }

    private static func isServed(_ path: String, group: EventLoopGroup) async -> Bool {
        guard let probe = try? await ClientBootstrap(group: group).connect(unixDomainSocketPath: path).get() else { return false }
        try? await probe.close()
        return true
    }

    /// SwiftNIO's errors, in words a person running the daemon can act on.
    private static func explain(_ error: Error, socketPath: String) -> String {
        let directory = socketPath.lastIndex(of: "/").map { $0 == socketPath.startIndex ? "/" : String(socketPath[..<$0]) } ?? "."
        switch error {
        case let error as IOError where error.errnoCode == ENOENT:
            return "the directory \(directory.isEmpty ? "." : directory) does not exist"
        case let error as IOError where error.errnoCode == EACCES || error.errnoCode == EPERM:
            return "permission denied; run as root or choose a --socket in a directory you can write"
        case let error as IOError:
            return String(cString: strerror(error.errnoCode))
        case SocketAddressError.unixDomainSocketPathTooLong:
            return "the path is too long for a Unix socket (at most \(107 - SocketPlacement.extraLength) bytes: "
                + "orientd binds it in a private directory beside it first)"
        case is UnixDomainSocketPathWrongType:
            return "something that is not a socket is in the way; remove it or choose another --socket"
        default:
            return "\(error)"
        }
    }
}

public struct HubError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
