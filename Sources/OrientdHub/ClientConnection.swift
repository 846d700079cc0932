import Logging
import NIOCore
import OrientationCore
import OrientdProtocol

/// Serves one client: admits it, sends the hello, answers its requests in order, and owns its
/// subscription.
final class ClientConnection: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// How long a request waits for the sleeping sensor before it is answered with what is known.
    static let freshnessTimeout: TimeAmount = .seconds(1)
    /// Requests are answered only while the client reads its replies (and one at a time while one
    /// waits for the sensor); meanwhile reading stops, so what queues is at most one read of
    /// 8 KiB (HubServer sets the read size). More than this closes the connection.
    static let queuedBytesLimit = 64 * 1024

    private let hubs: DeviceHubs
    /// The main hub: the screen's orientation, the rotation lock, the hello.
    private var hub: OrientationHub { hubs.main }
    private let clients: ClientCount
    private let sensorRate: Double
    private var logger: Logger
    private var peer: PeerCredentials?
    private var admitted = false
    private var subscription: Subscription?
    /// The hub `subscription` belongs to.
    private var subscribedHub: OrientationHub?
    /// Set while a request waits for a fresh reading; later requests queue behind it, so replies
    /// keep the order of the requests.
    private var waitingForSensor = false
    private var readingPaused = false
    /// A request line was too long: the connection closes once the requests before it are answered.
    private var closeWhenAnswered = false
    private var queued: [ByteBuffer] = []
    private var queuedBytes = 0
    private static let blanks: [UInt8] = [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r")]

    init(hubs: DeviceHubs, clients: ClientCount, sensorRate: Double, logger: Logger) {
        self.hubs = hubs
        self.clients = clients
        self.sensorRate = sensorRate
        self.logger = logger
    }

    func channelActive(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        PeerCredentials.of(context.channel).whenSuccess { peer in
            let (connection, context) = loopBound.value
            connection.admit(peer, context: context)
        }
        context.fireChannelActive()
    }

    private func admit(_ peer: PeerCredentials?, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        self.peer = peer
        if let peer {
            logger[metadataKey: "peer"] = "pid \(peer.pid) uid \(peer.uid)"
        }
        switch clients.admit(user: peer?.uid) {
        case .full:
            logger.warning("refusing a client: \(clients.maximum) are connected already (max-clients)")
            closeAfterSending(ErrorReply(id: nil, error: ProtocolError(
                .tooManyClients, "orientd serves at most \(clients.maximum) clients at once; try again later")), context: context)
        case .userFull:
            logger.warning("refusing a client: uid \(peer!.uid) has \(clients.maximumPerUser) connections already (max-clients-per-user)")
            closeAfterSending(ErrorReply(id: nil, error: ProtocolError(
                .tooManyClients, "orientd serves at most \(clients.maximumPerUser) clients of one user at once; close some")), context: context)
        case nil:
            admitted = true
            logger.debug("client connected")
            send(HelloEvent(server: hub.serverName), context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if admitted {
            logger.debug("client disconnected")
            clients.release(user: peer?.uid)
            admitted = false
        }
        unsubscribe()
        queued = []
        queuedBytes = 0
        context.fireChannelInactive()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        subscription?.sendWhatIsPending()
        answerQueued(context: context)
        context.fireChannelWritabilityChanged()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = unwrapInboundIn(data)
        guard admitted, context.channel.isActive, line.readableBytesView.contains(where: { !Self.blanks.contains($0) }) else { return }
        enqueue(line, context: context)
        answerQueued(context: context)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if error is BoundedLineDecoder.LineTooLong {
            logger.notice("closing a client whose request line is longer than \(Wire.maximumRequestLength) bytes")
            // Replies keep the order of the requests: the ones before the long line come first.
            closeWhenAnswered = true
            answerQueued(context: context)
        } else {
            logger.debug("closing a client connection: \(error)")
            context.close(promise: nil)
        }
    }

    // MARK: Requests

    private func enqueue(_ line: ByteBuffer, context: ChannelHandlerContext) {
        queuedBytes += line.readableBytes
        guard queuedBytes <= Self.queuedBytesLimit else {
            logger.notice("closing a client that queued more than \(Self.queuedBytesLimit) bytes of requests without reading the replies")
            queued = []
            queuedBytes = 0
            context.close(promise: nil)
            return
        }
        queued.append(line)
    }

    /// Answers queued requests while the client reads its replies and none waits for the sensor;
    /// stops reading from the client while any remain, resumes when all are answered.
    private func answerQueued(context: ChannelHandlerContext) {
        let channel = context.channel
        var next = 0
        while !waitingForSensor, channel.isActive, channel.isWritable, next < queued.count {
            let line = queued[next]
            next += 1
            queuedBytes -= line.readableBytes
            answer(Request.parse(line.readableBytesView), context: context)
        }
        queued.removeFirst(next)
        if closeWhenAnswered, queued.isEmpty, !waitingForSensor, channel.isActive {
            closeWhenAnswered = false
            closeAfterSending(ErrorReply(id: nil, error: ProtocolError(
                .requestTooLong, "request lines are limited to \(Wire.maximumRequestLength) bytes; closing the connection")),
                context: context)
            return
        }
        let pause = !queued.isEmpty || waitingForSensor || closeWhenAnswered
        if pause != readingPaused, channel.isActive {
            readingPaused = pause
            channel.setOption(.autoRead, value: !pause).whenFailure { _ in }
        }
    }

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
        switch Method(rawValue: request.method) {
        case .get:
            guard let hub = namedHub(request, context: context) else { return }
            afterFreshReading(hub, context: context) { [self] in
                send(SuccessReply(id: request.id, result: OrientationResult(orientation: hub.orientation)), context: context)
            }
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
            afterFreshReading(hub, context: context) { [self] in
                subscribe(parameters, to: hub, id: request.id, context: context)
            }
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
            // Locking freezes the orientation of the moment: read it afresh if the sensor slept.
            let locked = request.method == Method.lock.rawValue
            afterFreshReading(hub, context: context) { [self] in
                let persisted = hub.setLock(locked)
                send(SuccessReply(id: request.id, result: LockResult(locked: locked, persisted: persisted)), context: context)
            }
        case nil:
            let known = Method.allCases.map(\.rawValue).joined(separator: ", ")
            send(ErrorReply(id: request.id, error: ProtocolError(
                .unknownMethod, "unknown method '\(request.method)'; protocol \(Wire.protocolVersion) has: \(known)")), context: context)
        }
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
        let (subscription, start) = hub.add { start in
            Subscription(channel: channel, parameters: parameters, start: start, angleRate: angleRate)
        }
        self.subscription = subscription
        subscribedHub = hub
        let events = parameters.events
        let hinge = events.contains(.hingeAngleDidChange) || events.contains(.tabletModeDidChange) ? start.hinge : nil
        send(SuccessReply(id: id, result: SubscribeResult(
            events: events, orientation: start.orientation,
            interfaceOrientation: events.contains(.interfaceOrientationDidChange) ? subscription.interfaceOrientation : nil,
            locked: events.contains(.rotationLockDidChange) || events.contains(.interfaceOrientationDidChange) ? start.locked : nil,
            angleRate: events.contains(.angles) ? angleRate : nil,
            sensorAvailable: parameters.needsSensor ? start.sensorAvailable : nil,
            hingeAngle: hinge?.angle, tabletMode: hinge?.tabletMode, hingeProblem: hinge?.problem)), context: context)
        subscription.sendWhatIsPending()
    }

    /// Runs `body` once the hub's orientation is a real reading: at once while the sensor is
    /// awake; after it has woken and read otherwise (or after `freshnessTimeout`, with what is known).
    private func afterFreshReading(_ hub: OrientationHub, context: ChannelHandlerContext, _ body: @escaping () -> Void) {
        let eventLoop = context.eventLoop
        let whenFresh = NIOLoopBoundBox(Optional<() -> Void>.none, eventLoop: eventLoop)
        guard let ticket = hub.waitForFreshness({ eventLoop.execute { whenFresh.value?() } }) else {
            body()
            return
        }
        waitingForSensor = true
        let waiting = NIOLoopBound((self, context, body), eventLoop: eventLoop)
        var done = false
        let finish = NIOLoopBound({ () -> Void in
            guard !done else { return }
            done = true
            let (connection, context, body) = waiting.value
            hub.stopWaiting(ticket)
            guard context.channel.isActive else { return }
            body()
            connection.waitingForSensor = false
            connection.answerQueued(context: context)
        }, eventLoop: eventLoop)
        let timeout = eventLoop.scheduleTask(in: Self.freshnessTimeout) { finish.value() }
        whenFresh.value = {
            timeout.cancel()
            finish.value()
        }
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
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: Wire.line(message))), promise: nil)
    }
}
