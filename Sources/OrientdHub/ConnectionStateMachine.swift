import NIOCore

/// The life of one client connection as a pure state machine, in the manner of swift-nio's
/// `HTTPServerPipelineHandler`: events go in, and `nextAction()` says what to do next, one action
/// at a time. Performing an action may feed new events back in (a failed write closes the
/// connection at once, from inside the write): because the machine is asked afresh after every
/// action, such re-entry can never leave it halfway through a step.
///
/// The rules it keeps:
/// - the hello goes first, once the client is admitted; requests that came before wait for it;
/// - requests are answered one at a time, in order, and only while the client reads its replies
///   (its channel is writable) and no earlier request's answer is pending;
/// - nothing more is read from the client while any request is unanswered (a read is held back,
///   not refused), so what queues is bounded by one read;
/// - an over-long line is answered with `request-too-long` after the requests before it, then the
///   connection closes; so does a client that queues more than `queuedBytesLimit`;
/// - a client that ends its input (half-closes, or closes) has the requests it sent answered,
///   then `endOfInput` says so and the connection closes;
/// - once a reply could not be written the client is gone: nothing more is answered.
struct ConnectionStateMachine {
    enum State: Equatable {
        /// The peer's credentials are being read; nothing is answered yet.
        case admitting
        case serving
        /// A request's answer is pending (it waits for a fresh reading, or for the rotation lock to
        /// be saved); the ones after it queue.
        case awaitingAnswer
        /// Closing: nothing more is read or answered.
        case closing
        case closed
    }

    enum Action: Equatable {
        case sendHello
        /// Refuse the client with the reason, then close.
        case refuse(ClientCount.Refusal)
        /// Answer this request line (without its newline).
        case answer(ByteBuffer)
        /// Let the read that was held back go through.
        case read
        /// Tell the client its line was too long, then close.
        case closeForOverlongLine
        /// The client sent more than it reads: close without a word (it does not read).
        case closeForFlooding
        /// The client ended its input and every request it sent is answered.
        case endOfInput
    }

    let queuedBytesLimit: Int
    private(set) var state = State.admitting
    private var queue = CircularBuffer<ByteBuffer>()
    private var queuedBytes = 0
    private var writable = true
    private var helloDue = false
    /// What to say (or do) once, on the way out, while closing.
    private var farewell: Action?
    private var overlongLineSeen = false
    private var inputEnded = false
    private var readHeldBack = false

    init(queuedBytesLimit: Int) {
        self.queuedBytesLimit = queuedBytesLimit
    }

    /// Requests received and not yet answered.
    var queuedRequests: Int { queue.count }

    // MARK: Events

    mutating func admitted() {
        guard state == .admitting else { return }
        state = .serving
        helloDue = true
    }

    mutating func refused(_ refusal: ClientCount.Refusal) {
        guard state == .admitting else { return }
        close(with: .refuse(refusal))
    }

    mutating func received(_ line: ByteBuffer) {
        guard state != .closing, state != .closed, !overlongLineSeen else { return }
        queuedBytes += line.readableBytes
        queue.append(line)
        if queuedBytes > queuedBytesLimit { close(with: .closeForFlooding) }
    }

    mutating func receivedOverlongLine() {
        guard state != .closing, state != .closed else { return }
        overlongLineSeen = true
    }

    /// The client half-closed: nothing more will come.
    mutating func inputClosed() {
        inputEnded = true
    }

    /// A reply could not be written: the client is gone, answering the rest would be wasted.
    mutating func writeFailed() {
        guard state != .closed else { return }
        close(with: nil)
    }

    /// The channel asks for more to read; `nextAction` answers `.read` when it may go through.
    mutating func readRequested() {
        readHeldBack = true
    }

    mutating func writabilityChanged(_ writable: Bool) {
        self.writable = writable
    }

    /// The request being answered cannot be answered yet.
    mutating func answerPending() {
        guard state == .serving else { return }
        state = .awaitingAnswer
    }

    /// The pending answer was sent.
    mutating func answerSent() {
        guard state == .awaitingAnswer else { return }
        state = .serving
    }

    mutating func closed() {
        state = .closed
        dropQueue()
        readHeldBack = false
        helloDue = false
        farewell = nil
    }

    // MARK: Actions

    /// What to do now, or nil when nothing is to be done until the next event.
    mutating func nextAction() -> Action? {
        switch state {
        case .closed:
            return nil
        case .closing:
            defer { farewell = nil }
            return farewell
        case .admitting, .awaitingAnswer:
            return nil
        case .serving:
            if helloDue {
                helloDue = false
                return .sendHello
            }
            if writable, let line = queue.popFirst() {
                queuedBytes -= line.readableBytes
                return .answer(line)
            }
            if queue.isEmpty, overlongLineSeen {
                close(with: .closeForOverlongLine)
                return nextAction()
            }
            if queue.isEmpty, inputEnded {
                close(with: .endOfInput)
                return nextAction()
            }
            if queue.isEmpty, readHeldBack {
                readHeldBack = false
                return .read
            }
            return nil
        }
    }

    private mutating func close(with farewell: Action?) {
        state = .closing
        self.farewell = farewell
        dropQueue()
    }

    private mutating func dropQueue() {
        queue.removeAll()
        queuedBytes = 0
    }
}
