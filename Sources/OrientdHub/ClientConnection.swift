import Logging
import NIOCore
import OrientationCore
import OrientdProtocol

/// Serves one client: sends the hello, answers its requests in order, and owns its subscription.
final class ClientConnection: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let hub: OrientationHub
    private let clients: ClientCount
    private let serverName: String
    private var logger: Logger
    private var subscription: Subscription?
    private var admitted = false
    private static let blanks: [UInt8] = [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r")]

    init(hub: OrientationHub, clients: ClientCount, serverName: String, logger: Logger) {
        self.hub = hub
        self.clients = clients
        self.serverName = serverName
        self.logger = logger
    }

    func channelActive(context: ChannelHandlerContext) {
        guard clients.admit() else {
            logger.warning("refusing a client: \(clients.maximum) are connected already (--max-clients)")
            let reply = ErrorReply(id: nil, error: ProtocolError(
                .tooManyClients, "orientd serves at most \(clients.maximum) clients at once; try again later"))
            closeAfterSending(reply, context: context)
            return
        }
        admitted = true
        logger.debug("client connected")
        send(HelloEvent(server: serverName, orientation: hub.orientation), context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if admitted {
            logger.debug("client disconnected")
            clients.release()
            admitted = false
        }
        unsubscribe()
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        subscription?.sendPendingIfWritable()
        context.fireChannelWritabilityChanged()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = unwrapInboundIn(data)
        guard admitted, line.readableBytesView.contains(where: { !Self.blanks.contains($0) }) else { return }
        switch Request.parse(line.readableBytesView) {
        case .failure(let failure):
            logger.debug("bad request: \(failure.error.message)")
            send(ErrorReply(id: failure.id, error: failure.error), context: context)
        case .success(let request):
            answer(request, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if error is BoundedLineDecoder.LineTooLong {
            logger.notice("closing a client whose request line is longer than \(Wire.maximumRequestLength) bytes")
            closeAfterSending(ErrorReply(id: nil, error: ProtocolError(
                .requestTooLong, "request lines are limited to \(Wire.maximumRequestLength) bytes; closing the connection")),
                context: context)
        } else {
            logger.debug("closing a client connection: \(error)")
            context.close(promise: nil)
        }
    }

    private func answer(_ request: Request, context: ChannelHandlerContext) {
        switch Method(rawValue: request.method) {
        case .get:
            send(SuccessReply(id: request.id, result: OrientationResult(orientation: hub.orientation)), context: context)
        case .subscribe:
            let orientation: Orientation
            if subscription == nil {
                let new = Subscription(channel: context.channel)
                orientation = hub.add(new)
                new.lastDelivered = orientation
                subscription = new
            } else {
                orientation = hub.orientation
            }
            send(SuccessReply(id: request.id, result: OrientationResult(orientation: orientation)), context: context)
        case .unsubscribe:
            unsubscribe()
            send(SuccessReply(id: request.id, result: OrientationResult(orientation: hub.orientation)), context: context)
        case nil:
            let known = Method.allCases.map(\.rawValue).joined(separator: ", ")
            send(ErrorReply(id: request.id, error: ProtocolError(
                .unknownMethod, "unknown method '\(request.method)'; protocol \(Wire.protocolVersion) has: \(known)")), context: context)
        }
    }

    private func unsubscribe() {
        if let subscription {
            hub.remove(subscription)
            subscription.cancel()
        }
        subscription = nil
    }

    private func closeAfterSending(_ message: some Encodable, context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: Wire.line(message)))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    private func send(_ message: some Encodable, context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: Wire.line(message))), promise: nil)
    }
}
