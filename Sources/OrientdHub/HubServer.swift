import Foundation
import Logging
import NIOCore
import NIOPosix
import OrientdProtocol
import ServiceLifecycle

/// Serves the hub on a Unix socket until graceful shutdown.
public struct HubServer: Service {
    public let socketPath: String
    private let hub: OrientationHub
    private let serverName: String
    private let logger: Logger
    private let channel: Channel

    /// Binds the socket (readable and writable by every local user) and starts accepting clients.
    /// Refuses to take over a socket another live daemon is serving.
    public static func bind(socketPath: String, hub: OrientationHub, serverName: String, logger: Logger) async throws -> HubServer {
        let group = MultiThreadedEventLoopGroup.singleton
        if FileManager.default.fileExists(atPath: socketPath), await isServed(socketPath, group: group) {
            throw HubError("another daemon is already serving \(socketPath); stop it first or choose another --socket")
        }
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            // A small outbound buffer per client: when it fills, the client is slow, reading from it
            // pauses and only its newest orientation is kept (see Subscription).
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 4 * 1024, high: 16 * 1024))
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handlers = channel.pipeline.syncOperations
                    try handlers.addHandler(BackPressureHandler())
                    try handlers.addHandler(ByteToMessageHandler(BoundedLineDecoder(maximumLength: Wire.maximumRequestLength)))
                    try handlers.addHandler(ClientConnection(hub: hub, serverName: serverName, logger: logger))
                }
            }
        let channel: Channel
        do {
            channel = try await bootstrap.bind(unixDomainSocketPath: socketPath, cleanupExistingSocketFile: true).get()
        } catch {
            throw HubError("cannot listen on \(socketPath): \(error)")
        }
        guard chmod(socketPath, 0o666) == 0 else {
            try? await channel.close()
            throw HubError("cannot make \(socketPath) accessible to every user: \(String(cString: strerror(errno)))")
        }
        logger.info("listening on \(socketPath)")
        return HubServer(socketPath: socketPath, hub: hub, serverName: serverName, logger: logger, channel: channel)
    }

    public func run() async throws {
        try await withGracefulShutdownHandler {
            try await channel.closeFuture.get()
        } onGracefulShutdown: { [channel] in
            channel.close(promise: nil)
        }
        unlink(socketPath)
        logger.info("stopped listening on \(socketPath)")
    }

    private static func isServed(_ path: String, group: EventLoopGroup) async -> Bool {
        guard let probe = try? await ClientBootstrap(group: group).connect(unixDomainSocketPath: path).get() else { return false }
        try? await probe.close()
        return true
    }
}

public struct HubError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
