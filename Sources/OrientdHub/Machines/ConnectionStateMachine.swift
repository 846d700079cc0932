import NIOCore
import OrientdProtocol

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
    /// What the request being answered waits for.
    enum PendingAnswer {
        /// A fresh reading: the hub's ticket, and how the request is answered when it comes
        /// (or when `timeout` fires first), carried for the shell.
        case freshReading(FreshnessWait)
        /// The rotation lock's save; the subscription's events wait behind the reply.
        case lockSave
        /// The wait is over and the answer on its way.
        case sending
    }

    /// What the connection is doing, for the shell's questions and the tests.
    enum Phase: Equatable {
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

    /// What an open connection knows of its client's requests and of its channel.
    private struct Requests {
        var queue = CircularBuffer<ByteBuffer>()
        var queuedBytes = 0
        /// The client reads its replies (its channel is writable).
        var writable = true
        var overlongLineSeen = false
        var inputEnded = false
        /// The channel asked for a read that waits until every request is answered.
        var readHeldBack = false
    }

    private enum State {
        case admitting(Requests)
        case serving(Requests, helloDue: Bool)
        case awaitingAnswer(Requests, PendingAnswer)
        /// `farewell` is said (or done) once, on the way out; a fresh-reading wait still pending
        /// is kept for the close, which hands it back to be withdrawn.
        case closing(farewell: Action?, abandoned: FreshnessWait?)
        case closed
    }

    let queuedBytesLimit: Int
    private var state = State.admitting(Requests())

    init(queuedBytesLimit: Int) {
        self.queuedBytesLimit = queuedBytesLimit
    }

    var phase: Phase {
        switch state {
        case .admitting: .admitting
        case .serving: .serving
        case .awaitingAnswer: .awaitingAnswer
        case .closing: .closing
        case .closed: .closed
        }
    }

    /// Requests received and not yet answered.
    var queuedRequests: Int {
        switch state {
        case .admitting(let requests), .serving(let requests, _), .awaitingAnswer(let requests, _): requests.queue.count
        case .closing, .closed: 0
        }
    }

    // MARK: Events

    mutating func admitted() {
        guard case .admitting(let requests) = state else {
            assertionFailure("a connection is admitted once, before anything else: \(phase)")
            return
        }
        state = .serving(requests, helloDue: true)
    }

    mutating func refused(_ refusal: ClientCount.Refusal) {
        guard case .admitting = state else {
            assertionFailure("a connection is refused once, before anything else: \(phase)")
            return
        }
        state = .closing(farewell: .refuse(refusal), abandoned: nil)
    }

    mutating func received(_ line: ByteBuffer) {
        let limit = queuedBytesLimit
        updateRequests { requests in
            // After an over-long line nothing more is answered.
            guard !requests.overlongLineSeen else { return nil }
            requests.queuedBytes += line.readableBytes
            requests.queue.append(line)
            return requests.queuedBytes > limit ? .closeForFlooding : nil
        }
    }

    mutating func receivedOverlongLine() {
        updateRequests { $0.overlongLineSeen = true; return nil }
    }

    /// The client half-closed: nothing more will come.
    mutating func inputClosed() {
        updateRequests { $0.inputEnded = true; return nil }
    }

    /// A reply could not be written: the client is gone, answering the rest would be wasted.
    mutating func writeFailed() {
        if case .closed = state { return }
        state = .closing(farewell: nil, abandoned: pendingWait)
    }

    /// The channel asks for more to read; `nextAction` answers `.read` when it may go through.
    mutating func readRequested() {
        updateRequests { $0.readHeldBack = true; return nil }
    }

    mutating func writabilityChanged(_ writable: Bool) {
        updateRequests { $0.writable = writable; return nil }
    }

    /// The request being answered cannot be answered yet: it waits for `pending`. Pending
    /// already (a `lock` that waited for a reading now waits for its save): the new wait replaces it.
    mutating func answerPending(_ pending: PendingAnswer) {
        switch state {
        case .serving(let requests, let helloDue):
            assert(!helloDue, "a request is answered only after the hello")
            state = .awaitingAnswer(requests, pending)
        case .awaitingAnswer(let requests, _):
            state = .awaitingAnswer(requests, pending)
        case .closing, .closed:
            // Answers are only started while serving; one that ends after the close is dropped.
            break
        case .admitting:
            assertionFailure("nothing is answered before the client is admitted")
        }
    }

    /// The fresh reading the pending answer waits for came (or its wait timed out): the wait,
    /// if it is the one with `ticket`, for the shell to answer; the answer is then on its way.
    mutating func freshReadingCame(ticket: Int) -> FreshnessWait? {
        guard case .awaitingAnswer(let requests, .freshReading(let wait)) = state, wait.ticket == ticket else { return nil }
        state = .awaitingAnswer(requests, .sending)
        return wait
    }

    /// Whether events wait behind a reply (a `lock`'s, until its save is done).
    var holdsEventsBehindReply: Bool {
        if case .awaitingAnswer(_, .lockSave) = state { return true }
        return false
    }

    /// The pending answer was sent (or there was none: an answer sent at once).
    mutating func answerSent() {
        guard case .awaitingAnswer(let requests, _) = state else { return }
        state = .serving(requests, helloDue: false)
    }

    /// The channel closed. Returns the fresh-reading wait still pending, for the shell to withdraw.
    mutating func closed() -> FreshnessWait? {
        defer { state = .closed }
        return pendingWait
    }

    /// The fresh-reading wait the connection has pending, answering or closing.
    private var pendingWait: FreshnessWait? {
        switch state {
        case .awaitingAnswer(_, .freshReading(let wait)), .closing(_, let wait?): wait
        case .admitting, .serving, .awaitingAnswer, .closing, .closed: nil
        }
    }

    // MARK: Actions

    /// What to do now, or nil when nothing is to be done until the next event.
    mutating func nextAction() -> Action? {
        switch state {
        case .closed, .admitting, .awaitingAnswer:
            return nil
        case .closing(let farewell, let abandoned):
            state = .closing(farewell: nil, abandoned: abandoned)
            return farewell
        case .serving(var requests, let helloDue):
            if helloDue {
                state = .serving(requests, helloDue: false)
                return .sendHello
            }
            if requests.writable, let line = requests.queue.popFirst() {
                requests.queuedBytes -= line.readableBytes
                state = .serving(requests, helloDue: false)
                return .answer(line)
            }
            guard requests.queue.isEmpty else { return nil }
            if requests.overlongLineSeen {
                state = .closing(farewell: .closeForOverlongLine, abandoned: nil)
                return nextAction()
            }
            if requests.inputEnded {
                state = .closing(farewell: .endOfInput, abandoned: nil)
                return nextAction()
            }
            if requests.readHeldBack {
                requests.readHeldBack = false
                state = .serving(requests, helloDue: false)
                return .read
            }
            return nil
        }
    }

    /// Changes what an open connection knows of its requests; `change` may say to close. Once
    /// closing, nothing more is read or answered, so nothing is kept.
    private mutating func updateRequests(_ change: (inout Requests) -> Action?) {
        var requests: Requests
        let rebuild: (Requests) -> State
        switch state {
        case .admitting(let current):
            (requests, rebuild) = (current, { .admitting($0) })
        case .serving(let current, let helloDue):
            (requests, rebuild) = (current, { .serving($0, helloDue: helloDue) })
        case .awaitingAnswer(let current, let pending):
            (requests, rebuild) = (current, { .awaitingAnswer($0, pending) })
        case .closing, .closed:
            return
        }
        let wait = pendingWait
        // Out of the enum while it changes, so the queue is not copied.
        state = .closed
        if let farewell = change(&requests) {
            state = .closing(farewell: farewell, abandoned: wait)
        } else {
            state = rebuild(requests)
        }
    }
}

/// A request answered once its hub's sensor has read afresh.
enum AnswerAfterReading {
    case get(OrientationHub)
    case subscribe(SubscribeParameters, OrientationHub)
    case lock(Bool, OrientationHub)

    var hub: OrientationHub {
        switch self {
        case .get(let hub), .subscribe(_, let hub), .lock(_, let hub): hub
        }
    }
}

/// A request waiting for a fresh reading: its id, how it is answered, the hub's ticket, and the
/// timer that answers it with what is known if no reading comes.
struct FreshnessWait {
    let id: RequestID
    let answer: AnswerAfterReading
    let ticket: Int
    let timeout: Scheduled<Void>
}
