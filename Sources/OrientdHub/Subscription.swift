import NIOCore
import OrientationCore
import OrientdProtocol

/// One client's interest in orientation changes. Delivery never waits for the client: while its
/// socket is full, only the newest change is kept, and it is sent as soon as the client reads.
/// All state is confined to the client channel's event loop.
final class Subscription: @unchecked Sendable {
    private let channel: Channel
    /// The orientation this client was last told of, by a reply or an event.
    var lastDelivered: Orientation = .unknown
    private var pending: PublishedOrientation?
    private var cancelled = false

    init(channel: Channel) {
        self.channel = channel
    }

    /// Called from any thread.
    func deliver(_ change: PublishedOrientation) {
        channel.eventLoop.execute { [self] in
            pending = change
            sendPendingIfWritable()
        }
    }

    /// Called on the event loop when the client unsubscribes: deliveries already queued are dropped.
    func cancel() {
        cancelled = true
        pending = nil
    }

    /// Called on the event loop when the channel may have become writable again.
    func sendPendingIfWritable() {
        guard !cancelled, let change = pending, channel.isWritable, channel.isActive else { return }
        pending = nil
        guard change.orientation != lastDelivered else { return }
        let event = DeviceOrientationDidChangeEvent(
            orientation: change.orientation, previous: lastDelivered,
            timestamp: change.timestamp, sequence: change.sequence)
        lastDelivered = change.orientation
        channel.writeAndFlush(ByteBuffer(bytes: Wire.line(event)), promise: nil)
    }
}
