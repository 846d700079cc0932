import Foundation
import NIOCore
import NIOPosix
import ProcessHarness

/// The subscribers of one run: connections to orientd's socket on one event-loop group, whose
/// handlers report to one board.
final class SubscriberPool {
    /// Connections waiting for their subscribe reply at most at once: orientd's listen backlog
    /// is 256, and a connect to a full Unix-socket backlog fails (EAGAIN) instead of waiting.
    static let window = 128

    let board = ReceiptBoard()
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
    private var channels: [Channel] = []
    private let socketPath: String

    init(socketPath: String) {
        self.socketPath = socketPath
    }

    /// Connects `count` subscribers and waits until every one is subscribed or refused, or
    /// `timeout` seconds pass without progress. Stops connecting at the first connection that
    /// cannot be made (the board says why).
    func open(count: Int, timeout: Double, progress: (Int) -> Void) {
        for index in 0..<count {
            guard waitUntil(timeout: timeout, every: 0.001, { board.tally.answered >= index - Self.window }) else {
                board.failed("no reply within \(timeout.formatted()) s while \(Self.window) connections waited for one")
                break
            }
            guard board.tally.failed == 0 else { break }
            do {
                channels.append(try connect { [board] in SubscriberHandler(index: index, board: board) })
            } catch {
                board.failed("cannot connect to \(socketPath): \(error)")
                break
            }
            if (index + 1) % 1000 == 0 { progress(index + 1) }
        }
        var answered = -1
        // Waits as long as replies keep coming.
        while answered < board.tally.answered, board.tally.answered < channels.count {
            answered = board.tally.answered
            waitUntil(timeout: timeout) { board.tally.answered >= channels.count }
        }
    }

    /// Connects the stalled reader and waits until orientd has stopped reading from it.
    func openStalledReader(timeout: Double) throws -> StalledReader {
        let reader = StalledReader()
        let channel = try connect { StalledReaderHandler(reader: reader) }
        channels.append(channel)
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
        for channel in channels { channel.close(promise: nil) }
        channels = []
        try? group.syncShutdownGracefully()
    }

    /// One connection with `handler` after a line splitter; retries while the backlog is full.
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
