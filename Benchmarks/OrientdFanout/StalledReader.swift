import NIOConcurrencyHelpers
import NIOCore

/// A subscriber that never reads: it subscribes, stops reading its socket, and sends requests
/// until orientd's replies fill the socket and orientd, its own outbound buffer for this client
/// full, stops reading from it; our requests then pile up here unsent. At the end it reads again,
/// to see what orientd kept for it meanwhile.
final class StalledReader: Sendable {
    struct State: Sendable {
        var subscribed = false
        /// The orientation the subscribe reply said events start from.
        var startOrientation: String?
        var refusal: String?
        var requestBytesSent = 0
        /// Our outbound buffer is over its high-water mark: orientd is not reading.
        var blocked = false
        var closed = false
        var resumedAt: Double?
        /// orientd answered the request sent after resuming: everything before it has been read.
        var caughtUp = false
        var eventsAfterResuming: [(orientation: String, sequence: Int)] = []
    }

    let state = NIOLockedValueBox(State())
    private let channel = NIOLockedValueBox<Channel?>(nil)

    func attach(_ channel: Channel) { self.channel.withLockedValue { $0 = channel } }

    /// Reads the socket again, stops sending requests, and sends one more: its reply comes after
    /// everything orientd had kept for this client.
    func resume() {
        guard let channel = channel.withLockedValue({ $0 }) else { return }
        state.withLockedValue { $0.resumedAt = wallClockNow() }
        _ = channel.setOption(ChannelOptions.autoRead, value: true)  // which reads at once
        channel.writeAndFlush(ByteBuffer(string: StalledReaderHandler.lastRequest), promise: nil)
    }
}

/// The stalled reader's connection.
final class StalledReaderHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Never more than this many bytes of requests, should orientd keep reading after all.
    static let requestLimit = 8 << 20
    /// A method orientd does not have: it answers at once, with an error reply that keeps the
    /// connection (a `get` may wait for the sensor, and orientd closes a client that sends
    /// more than 256 requests behind a waiting one).
    private static let requests = ByteBuffer(string: String(repeating: #"{"id":2,"method":"fanout-fill"}"# + "\n", count: 1000))
    static let lastRequestID = 3
    static let lastRequest = #"{"id":3,"method":"fanout-fill"}"# + "\n"

    private let reader: StalledReader
    private var stalled = false

    init(reader: StalledReader) {
        self.reader = reader
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let message = ServerLine(unwrapInboundIn(data).readableBytesView) else { return }
        if message.event == "hello" {
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: SubscribeRequest.line)), promise: nil)
        } else if message.isResult(of: SubscribeRequest.id), !stalled {
            stalled = true
            reader.state.withLockedValue { state in
                state.subscribed = true
                state.startOrientation = message.resultOrientation
            }
            try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: false)
            sendRequests(context: context)
        } else if message.id == Self.lastRequestID {
            reader.state.withLockedValue { $0.caughtUp = true }
        } else if let code = message.errorCode, !stalled {
            reader.state.withLockedValue { $0.refusal = "\(code): \(message.errorMessage ?? "")" }
        } else if message.isChange, let orientation = message.orientation, let sequence = message.sequence {
            reader.state.withLockedValue { state in
                if state.resumedAt != nil { state.eventsAfterResuming.append((orientation, sequence)) }
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        reader.state.withLockedValue { $0.closed = true }
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if stalled { sendRequests(context: context) }
        context.fireChannelWritabilityChanged()
    }

    /// Sends requests while the channel takes them, until resumed; notes when it stops taking them.
    private func sendRequests(context: ChannelHandlerContext) {
        let resumed = reader.state.withLockedValue { $0.resumedAt != nil }
        var sent = 0
        while !resumed, context.channel.isWritable, reader.state.withLockedValue({ $0.requestBytesSent }) + sent < Self.requestLimit {
            context.writeAndFlush(wrapOutboundOut(Self.requests), promise: nil)
            sent += Self.requests.readableBytes
        }
        let blocked = !context.channel.isWritable
        reader.state.withLockedValue { state in
            state.requestBytesSent += sent
            state.blocked = blocked
        }
    }
}
