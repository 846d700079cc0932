import Foundation
import NIOCore
import NIOPosix
import ProcessHarness

/// The subscribers of one run: plain sockets subscribed one after another and then read by
/// `SubscriberReaders`, which report to one board. The stalled reader, which needs to watch its
/// own outbound buffer fill, runs on an event loop of its own.
final class SubscriberPool {
    let board = ReceiptBoard()
    private let readers: SubscriberReaders
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private var stalledChannel: Channel?
    private let socketPath: String
    private var subscribers = 0

    init(socketPath: String) {
        self.socketPath = socketPath
        readers = SubscriberReaders(board: board, threads: System.coreCount)
    }

    /// Connects and subscribes `count` subscribers, each read waiting at most `timeout` seconds.
    /// Stops at the first connection that cannot be made (the board says why).
    func open(count: Int, timeout: Double, progress: (Int) -> Void) {
        for index in 0..<count {
            do {
                board.connected()
                switch try SubscriberSocket.subscribe(socketPath: socketPath, timeout: timeout) {
                case .subscribed(let socket):
                    readers.add(socket, index: subscribers)
                    subscribers += 1
                    board.subscribed()
                case .refused(let reason):
                    board.refused(reason)
                }
            } catch {
                board.failed("\(error)")
                break
            }
            if (index + 1) % 1000 == 0 { progress(index + 1) }
        }
    }

    /// Connects the stalled reader and waits until orientd has stopped reading from it.
    func openStalledReader(timeout: Double) throws -> StalledReader {
        let reader = StalledReader()
        let channel = try connect { StalledReaderHandler(reader: reader) }
        stalledChannel = channel
        reader.attach(channel)
        guard waitUntil(timeout: timeout, { reader.state.withLockedValue { $0.subscribed || $0.refusal != nil } }) else {
            throw FanoutFailure("the stalled reader got no reply to subscribe within \(timeout) s")
        }
        if let refusal = reader.state.withLockedValue({ $0.refusal }) {
            throw FanoutFailure("orientd refused the stalled reader: \(refusal)")
        }
        // Blocked for a whole second: orientd no longer reads, rather than reads slowly.
        let blocked = { reader.state.withLockedValue { $0.blocked && !$0.closed } }
        let stuck = waitUntil(timeout: timeout, blocked) && !waitUntil(timeout: 1, { !blocked() })
        if reader.state.withLockedValue({ $0.closed }) {
            throw FanoutFailure("orientd closed the stalled reader's connection while it filled it (see orientd's log)")
        }
        guard stuck else {
            let sent = reader.state.withLockedValue { $0.requestBytesSent }
            throw FanoutFailure("orientd kept reading the stalled reader's requests (\(sent) bytes sent); it never filled")
        }
        return reader
    }

    /// Closes every connection and stops the event loops.
    func close() {
        readers.close()
        stalledChannel?.close(promise: nil)
        try? group.syncShutdownGracefully()
    }

    /// A connection with `handler` after a line splitter; retries while the backlog is full.
    private func connect<Handler: ChannelHandler>(_ handler: @escaping @Sendable () -> Handler) throws -> Channel {
        let bootstrap = ClientBootstrap(group: group).channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineSplitter()))
                try channel.pipeline.syncOperations.addHandler(handler())
            }
        }
        var attempts = 0
        while true {
            do {
                return try bootstrap.connect(unixDomainSocketPath: socketPath).wait()
            } catch let error as IOError where error.errnoCode == EAGAIN && attempts < 1000 {
                attempts += 1
                sleep(seconds: 0.005)
            }
        }
    }
}
