import Logging
import NIOCore
import OrientationCore
import OrientdProtocol

/// Serves one client: the I/O around its `ConnectionStateMachine`. It admits the client, sends
/// the hello, answers its requests in order, holds back reads while any is unanswered (as a
/// duplex handler, so the channel's autoRead is never toggled), and owns its subscription.
/// Everything here runs on the channel's event loop; what reaches it from elsewhere (the hub's
/// answer to a freshness wait, a lock saved on the thread pool) comes through a `NIOLoopBound`.
final class ClientConnection: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// How long a request waits for the sleeping sensor before it is answered with what is known.
    static let freshnessTimeout: TimeAmount = .seconds(1)
    /// Requests are answered only while the client reads its replies (and one at a time while one
    /// waits for the sensor); meanwhile reading stops, so what queues is at most one read
    /// (HubServer's largest) and the line it ended in. More closes the connection: only a client
    /// that sent far ahead and then closed its input (the kernel then hands over all it holds)
    /// gets there.
    static let queuedBytesLimit = HubServer.largestRead + Wire.maximumRequestLength

    /// How a connection learns who is on the other end; replaceable for tests in process.
    typealias CredentialsLookup = @Sendable (Channel) -> EventLoopFuture<PeerCredentials?>

    private let hubs: DeviceHubs
    /// The main hub: the screen's orientation, the rotation lock, the hello.
    private var hub: OrientationHub { hubs.main }
    private let clients: ClientCount
    private let sensorRate: Double
    private let credentials: CredentialsLookup
    private let now: @Sendable () -> NIODeadline
    private var logger: Logger
    private var machine = ConnectionStateMachine(queuedBytesLimit: ClientConnection.queuedBytesLimit)
    private var context: ChannelHandlerContext?
    private var peer: PeerCredentials?
    /// Whether the client holds a place in `clients`.
    private var counted = false
    private var subscription: Subscription?
    /// The hub `subscription` belongs to.
    private var subscribedHub: OrientationHub?
    private static let blanks: [UInt8] = [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r")]

    init(hubs: DeviceHubs, clients: ClientCount, sensorRate: Double, logger: Logger,
         credentials: @escaping CredentialsLookup = PeerCredentials.of, now: @escaping @Sendable () -> NIODeadline = { .now() }) {
        self.hubs = hubs
        self.clients = clients
        self.sensorRate = sensorRate
        self.logger = logger
        self.credentials = credentials
        self.now = now
    }

    // MARK: Events from the channel

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        let connection = NIOLoopBound(self, eventLoop: context.eventLoop)
        credentials(context.channel).whenComplete { result in
            connection.value.admit((try? result.get()) ?? nil)
        }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let wait = machine.closed() {
            wait.timeout.cancel()
            wait.answer.hub.stopWaiting(wait.ticket)
        }
        if counted {
            logger.debug("client disconnected")
            clients.release(user: peer?.uid)
            counted = false
        }
        unsubscribe()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = unwrapInboundIn(data)
        guard line.readableBytesView.contains(where: { !Self.blanks.contains($0) }) else { return }
        machine.received(line)
        act()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        machine.writabilityChanged(context.channel.isWritable)
        subscription?.sendWhatIsPending()
        act()
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed? = event as? ChannelEvent {
            machine.inputClosed()
            act()
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if error is BoundedLineDecoder.LineTooLong {
            logger.notice("closing a client whose request line is longer than \(Wire.maximumRequestLength) bytes")
            machine.receivedOverlongLine()
            act()
        } else {
            logger.debug("closing a client connection: \(error)")
            context.close(promise: nil)
        }
    }

    /// The channel wants to read more: only once every request is answered.
    func read(context: ChannelHandlerContext) {
        machine.readRequested()
        act()
    }

    // MARK: Acting on the state machine

    /// Does what the state machine says until it says nothing. Each action may change the state
    /// (a write that fails closes the connection from inside the write): the machine is asked
    /// afresh every time, so nothing here holds state across an action.
    private func act() {
        while let context, let action = machine.nextAction() {
            switch action {
            case .sendHello:
                send(HelloEvent(server: hub.serverName), context: context)
            case .refuse(let refusal):
                let why = refusal == .full ? "orientd serves at most \(clients.maximum) clients at once; try again later"
                    : "orientd serves at most \(clients.maximumPerUser) clients of one user at once; close some"
                closeAfterSending(ErrorReply(id: nil, error: ProtocolError(.tooManyClients, why)), context: context)
            case .answer(let line):
                answer(Request.parse(line.readableBytesView), context: context)
            case .read:
                context.read()
            case .closeForOverlongLine:
                closeAfterSending(ErrorReply(id: nil, error: ProtocolError(
                    .requestTooLong, "request lines are limited to \(Wire.maximumRequestLength) bytes; closing the connection")),
                    context: context)
            case .closeForFlooding:
                logger.notice("closing a client that queued more than \(Self.queuedBytesLimit) bytes of requests without reading the replies")
                context.close(promise: nil)
            case .endOfInput:
                // Answered; a client gone altogether looks the same as one that only ended its
                // input, and must not hold the sensor awake: close.
                context.close(promise: nil)
            }
        }
    }

    private func admit(_ peer: PeerCredentials?) {
        guard machine.phase == .admitting else { return }
        self.peer = peer
        if let peer {
            logger[metadataKey: "peer"] = "pid \(peer.pid) uid \(peer.uid)"
        }
        switch clients.admit(user: peer?.uid) {
        case .full?:
            logger.warning("refusing a client: \(clients.maximum) are connected already (max-clients)")
            machine.refused(.full)
        case .userFull?:
            logger.warning("refusing a client: uid \(peer?.uid ?? 0) has \(clients.maximumPerUser) connections already (max-clients-per-user)")
            machine.refused(.userFull)
        case nil:
            counted = true
            logger.debug("client connected")
            machine.admitted()
        }
        act()
    }

    // MARK: Requests

    private func answer(_ parsed: Result<Request, RequestFailure>, context: ChannelHandlerContext) {
        let request: Request
        switch parsed {
        case .failure(let failure):
            logger.debug("bad request: \(failure.error.message)")
            send(ErrorReply(id: failure.id, error: failure.error), context: context)
            return
        case .success(let parsed):
            request = parsed
        }
        // A misspelt member would silently be its default ("event" for "events"): refused.
        if let method = Method(rawValue: request.method), let refusal = request.unknownMember(for: method) {
            send(ErrorReply(id: request.id, error: refusal), context: context)
            return
        }
        switch Method(rawValue: request.method) {
        case .get:
            guard let hub = namedHub(request, context: context) else { return }
            answerAfterReading(.get(hub), id: request.id, context: context)
        case .subscribe:
            guard let hub = namedHub(request, context: context) else { return }
            let parameters: SubscribeParameters
            do {
                parameters = try SubscribeParameters(request.parameters)
            } catch {
                send(ErrorReply(id: request.id, error: error), context: context)
                return
            }
            // A subscription to the lock alone needs no reading, so it wakes nothing.
            guard parameters.needsSensor else {
                subscribe(parameters, to: hub, id: request.id, context: context)
                return
            }
            answerAfterReading(.subscribe(parameters, hub), id: request.id, context: context)
        case .unsubscribe:
            let orientation = (subscribedHub ?? hub).orientation
            unsubscribe()
            send(SuccessReply(id: request.id, result: OrientationResult(orientation: orientation)), context: context)
        case .status:
            send(SuccessReply(id: request.id, result: hubs.status(clients: clients.connected)), context: context)
        case .ping:
            send(SuccessReply(id: request.id, result: PingResult()), context: context)
        case .lock, .unlock:
            guard hub.lockPolicy.allows(peer) else {
                logger.notice("refused to \(request.method) the rotation: \(hub.lockPolicy.refusal(for: peer))")
                send(ErrorReply(id: request.id, error: ProtocolError(.permissionDenied, hub.lockPolicy.refusal(for: peer))), context: context)
                return
            }
            // Locking freezes the orientation of the moment: read it afresh if it is not.
            answerAfterReading(.lock(request.method == Method.lock.rawValue, hub), id: request.id, context: context)
        case nil:
            let known = Method.allCases.map(\.rawValue).joined(separator: ", ")
            send(ErrorReply(id: request.id, error: ProtocolError(
                .unknownMethod, "unknown method '\(request.method)'; protocol \(Wire.protocolVersion) has: \(known)")), context: context)
        }
    }

    /// Answers at once when the hub's orientation is a recent reading; otherwise once the sensor
    /// has read afresh (woken if it slept), or after `freshnessTimeout` with what is known. The
    /// requests after it wait meanwhile.
    private func answerAfterReading(_ answer: AnswerAfterReading, id: RequestID, context: ChannelHandlerContext) {
        let eventLoop = context.eventLoop
        let connection = NIOLoopBound(self, eventLoop: eventLoop)
        guard let ticket = answer.hub.waitForFreshness(now: now(), { ticket in
            eventLoop.execute { connection.value.finishWaiting(ticket) }
        }) else {
            finish(answer, id: id, context: context)
            return
        }
        let timeout = eventLoop.scheduleTask(in: Self.freshnessTimeout) { connection.value.finishWaiting(ticket) }
        machine.answerPending(.freshReading(FreshnessWait(id: id, answer: answer, ticket: ticket, timeout: timeout)))
    }

    /// The sensor read afresh, or the wait timed out: answer the waiting request.
    private func finishWaiting(_ ticket: Int) {
        guard let context, let wait = machine.freshReadingCame(ticket: ticket) else { return }
        wait.timeout.cancel()
        wait.answer.hub.stopWaiting(ticket)
        finish(wait.answer, id: wait.id, context: context)
    }

    private func finish(_ answer: AnswerAfterReading, id: RequestID, context: ChannelHandlerContext) {
        switch answer {
        case .get(let hub):
            send(SuccessReply(id: id, result: OrientationResult(orientation: hub.orientation)), context: context)
            answerWasSent()
        case .subscribe(let parameters, let hub):
            subscribe(parameters, to: hub, id: id, context: context)
        case .lock(let locked, let hub):
            // The lock holds at once; the reply waits for the save, which says whether it persisted.
            machine.answerPending(.lockSave)
            let connection = NIOLoopBound(self, eventLoop: context.eventLoop)
            hub.setLock(locked, on: context.eventLoop).whenSuccess { persisted in
                let connection = connection.value
                guard let context = connection.context, context.channel.isActive else { return }
                connection.send(SuccessReply(id: id, result: LockResult(locked: locked, persisted: persisted)), context: context)
                connection.machine.answerSent()
                // The events held behind the reply follow it, before the next request is answered.
                connection.subscription?.sendWhatIsPending()
                connection.act()
            }
        }
    }

    /// An answer was sent: if it was the pending one, the requests after it may go on.
    private func answerWasSent() {
        guard machine.phase == .awaitingAnswer else { return }
        machine.answerSent()
        act()
    }

    /// The hub of the request's `device` (an accelerometer's id or a URI; the main hub without
    /// one), or nil after answering with `unknown-device`.
    private func namedHub(_ request: Request, context: ChannelHandlerContext) -> OrientationHub? {
        let device: String?
        switch request.parameters["device"] {
        case nil: device = nil
        case .string(let name)?: device = name
        case let other?:
            send(ErrorReply(id: request.id, error: ProtocolError(
                .invalidParameters, "\"device\" must be a string: an id from status, or a URI; got \(other.compactDescription)")), context: context)
            return nil
        }
        if let hub = hubs.hub(for: device) { return hub }
        send(ErrorReply(id: request.id, error: ProtocolError(.unknownDevice, hubs.refusal(of: device ?? ""))), context: context)
        return nil
    }

    private func subscribe(_ parameters: SubscribeParameters, to hub: OrientationHub, id: RequestID, context: ChannelHandlerContext) {
        unsubscribe()
        let angleRate = min(parameters.angleRate ?? sensorRate, sensorRate)
        let channel = context.channel
        let (subscription, start) = hub.add(parameters) { start in
            Subscription(channel: channel, parameters: parameters, start: start, angleRate: angleRate,
                         heldBehindReply: { [unowned self] in machine.holdsEventsBehindReply })
        }
        self.subscription = subscription
        subscribedHub = hub
        let events = parameters.events
        let hinge = events.contains(.hingeAngleDidChange) || events.contains(.tabletModeDidChange) ? start.hinge : nil
        // What was taken, where it is not the default: the client sees its request as read.
        var result = SubscribeResult(
            events: events, orientation: start.orientation,
            tilt: events.contains(.deviceTiltDidChange) ? start.tilt : nil,
            interfaceOrientation: events.contains(.interfaceOrientationDidChange) ? subscription.interfaceOrientation : nil,
            locked: events.contains(.rotationLockDidChange) || events.contains(.interfaceOrientationDidChange) ? start.locked : nil,
            angleRate: events.contains(.angles) ? angleRate : nil,
            sensorAvailable: parameters.needsSensor ? start.sensorAvailable : nil,
            hingeAngle: hinge?.angle, tabletMode: hinge?.tabletMode, hingeProblem: hinge?.problem,
            proximityAvailable: parameters.needs(.proximity) ? start.proximity.available : nil,
            proximityState: parameters.needs(.proximity) ? start.proximity.value?.near : nil,
            lightAvailable: parameters.needs(.light) ? start.light.available : nil,
            ambientLight: parameters.needs(.light) ? start.light.value : nil)
        let defaults = SubscribeParameters()
        if parameters.orientations != defaults.orientations {
            result.orientations = Orientation.allCases.filter(parameters.orientations.contains)
        }
        if parameters.supportedInterfaceOrientations != defaults.supportedInterfaceOrientations {
            result.supportedInterfaceOrientations = parameters.supportedInterfaceOrientations
        }
        send(SuccessReply(id: id, result: result), context: context)
        subscription.sendWhatIsPending()
        answerWasSent()
    }

    private func unsubscribe() {
        if let subscription {
            subscribedHub?.remove(subscription)
            subscription.cancel()
        }
        subscription = nil
        subscribedHub = nil
    }

    private func closeAfterSending(_ message: some Encodable, context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: Wire.line(message)))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    private func send(_ message: some Encodable, context: ChannelHandlerContext) {
        let written = context.eventLoop.makePromise(of: Void.self)
        let connection = NIOLoopBound(self, eventLoop: context.eventLoop)
        written.futureResult.whenFailure { _ in
            connection.value.machine.writeFailed()
            connection.value.context?.close(promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: Wire.line(message))), promise: written)
    }
}
