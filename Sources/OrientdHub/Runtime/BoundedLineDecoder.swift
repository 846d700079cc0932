import NIOCore

/// Splits the byte stream into lines, refusing any line longer than `maximumLength` bytes: the
/// socket is open to every local user, so no client may make the daemon buffer without bound.
struct BoundedLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    struct LineTooLong: Error {}

    let maximumLength: Int

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > maximumLength { throw LineTooLong() }
            return .needMoreData
        }
        var length = newline - buffer.readerIndex
        if length > 0, buffer.getInteger(at: newline - 1, as: UInt8.self) == UInt8(ascii: "\r") { length -= 1 }
        if length > maximumLength { throw LineTooLong() }
        let line = buffer.readSlice(length: length)!
        buffer.moveReaderIndex(to: newline + 1)
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        // The connection is closing (no half-closure), so nothing could be answered: drop any
        // unfinished line.
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}
