import NIOCore

/// One subscriber connection: answers orientd's hello with a `subscribe` request, tells the board
/// how that went, and from then on leaves every line it receives on the board, stamped on arrival.
/// Confined to its channel's event loop.
final class SubscriberHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let index: Int
    private let board: ReceiptBoard
    private var subscribed = false
    private var settled = false

    init(index: Int, board: ReceiptBoard) {
        self.index = index
        self.board = board
    }

    func channelActive(context: ChannelHandlerContext) {
        board.connected()
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let time = wallClockNow()
        let line = unwrapInboundIn(data)
        if subscribed {
            board.deliver(.init(subscriber: index, time: time, line: line))
            return
        }
        guard let message = ServerLine(line) else { return }
        if message.event == "hello" {
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: SubscribeRequest.line)), promise: nil)
        } else if message.isResult(of: SubscribeRequest.id) {
            subscribed = true
            settle { $0.subscribed() }
        } else if let code = message.errorCode {
            settle { $0.refused("\(code): \(message.errorMessage ?? "")") }
        }
        // Anything else before the reply (a future event, say) is none of the benchmark's business.
    }

    func channelInactive(context: ChannelHandlerContext) {
        if subscribed {
            board.closed()
        } else {
            settle { $0.failed("the connection closed before the subscribe reply") }
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if !subscribed { settle { $0.failed("\(error)") } }
        context.close(promise: nil)
    }

    /// Reports the outcome of subscribing once only.
    private func settle(_ report: (ReceiptBoard) -> Void) {
        guard !settled else { return }
        settled = true
        report(board)
    }
}
