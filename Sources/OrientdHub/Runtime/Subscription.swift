import NIOCore
import OrientationCore
import OrientdProtocol

/// One client's subscription: what it asked for, what it was last told, and what is waiting to
/// be sent. Delivery never waits for the client. While its socket is full, state coalesces (the
/// device and interface orientation, the tilt, the lock, proximity and light: only the newest is kept, so
/// a slow client ends with the latest) and angle samples are dropped oldest-first, counted in the
/// next one sent.
/// All state is confined to the client channel's event loop (the hub holds it through a
/// `NIOLoopBound`, which checks that).
final class Subscription {
    static let angleQueueCapacity = 16

    let parameters: SubscribeParameters
    private let channel: Channel
    private var latest: HubUpdate
    private var toldOrientation: Orientation
    private var toldTilt: DeviceTilt
    private var interface: InterfaceOrientationFollower
    private var toldInterface: InterfaceOrientation
    private var toldLocked: Bool
    private var toldSensorAvailable: Bool
    private var toldHinge: (angle: Double?, problem: String?)
    private var toldTabletMode: Bool?
    private var toldLight: AmbientTold<AmbientLight>
    private var toldProximity: AmbientTold<Proximity>
    private let angleInterval: Double
    /// When the next angle sample is due (monotonic seconds).
    private var nextAngleDue = -Double.infinity
    private var queuedAngles: [AngleSample] = []
    private var droppedAngles = 0
    private var cancelled = false
    /// True while this client's `lock` waits for its save (its connection's machine knows): its
    /// events wait behind the reply, as they would have had the reply been sent at once (state
    /// coalesces meanwhile, as for a slow reader).
    private let heldBehindReply: () -> Bool

    /// `start` is the state the subscribe result reports; events follow from there.
    init(channel: Channel, parameters: SubscribeParameters, start: HubUpdate, angleRate: Double,
         heldBehindReply: @escaping () -> Bool = { false }) {
        self.channel = channel
        self.heldBehindReply = heldBehindReply
        self.parameters = parameters
        latest = start
        toldOrientation = start.orientation
        toldTilt = start.tilt
        interface = InterfaceOrientationFollower(supported: parameters.supportedInterfaceOrientations, driving: start.driving)
        toldInterface = interface.current
        toldLocked = start.locked
        toldSensorAvailable = start.sensorAvailable
        toldHinge = (start.hinge.angle, start.hinge.problem)
        toldTabletMode = start.hinge.tabletMode
        toldLight = AmbientTold(start.light)
        toldProximity = AmbientTold(start.proximity)
        angleInterval = 1 / angleRate
    }

    var interfaceOrientation: InterfaceOrientation { interface.current }

    /// The loop this subscription's state is confined to.
    var eventLoop: any EventLoop { channel.eventLoop }

    /// Called on the event loop.
    func receive(_ update: HubUpdate) {
        guard !cancelled else { return }
        latest = update
        if let driving = update.driving { _ = interface.follow(driving) }
        sendWhatIsPending()
    }

    /// Called on the event loop.
    func receive(_ sample: AngleSample) {
        // Samples are stamped when read, a few ms early or late: allow for that, keep the
        // average rate by advancing the due time by whole intervals, and after a gap (the
        // sensor slept) start afresh rather than catch up in a burst.
        guard !cancelled, sample.time >= nextAngleDue - 0.004 else { return }
        nextAngleDue = max(nextAngleDue + angleInterval, sample.time + angleInterval / 2)
        if queuedAngles.count == Self.angleQueueCapacity {
            queuedAngles.removeFirst()
            droppedAngles += 1
        }
        queuedAngles.append(sample)
        sendWhatIsPending()
    }

    /// Called on the event loop when the client unsubscribes: nothing more is sent.
    func cancel() {
        cancelled = true
        queuedAngles = []
    }

    /// Called on the event loop whenever the channel may have become writable again.
    func sendWhatIsPending() {
        guard !cancelled, !heldBehindReply(), channel.isActive, channel.isWritable else { return }
        var wrote = false
        func write(_ line: ByteBuffer) {
            channel.write(line, promise: nil)
            wrote = true
        }
        func write(_ message: some Encodable) { write(ByteBuffer(bytes: Wire.line(message))) }
        let events = parameters.events
        if parameters.needsSensor, latest.sensorAvailable != toldSensorAvailable {
            write(latest.sensorAvailabilityLine)
            toldSensorAvailable = latest.sensorAvailable
        }
        if events.contains(.deviceOrientationDidChange), latest.orientation != toldOrientation,
           parameters.orientations.contains(latest.orientation) {
            write(latest.deviceOrientationLine(toldOf: toldOrientation))
            toldOrientation = latest.orientation
        }
        if events.contains(.deviceTiltDidChange), latest.tilt != toldTilt {
            write(latest.tiltLine)
            toldTilt = latest.tilt
        }
        if events.contains(.rotationLockDidChange), latest.locked != toldLocked {
            write(latest.rotationLockLine)
            toldLocked = latest.locked
        }
        if events.contains(.interfaceOrientationDidChange), interface.current != toldInterface, let driving = latest.driving {
            write(InterfaceOrientationDidChangeEvent(interfaceOrientation: interface.current, previous: toldInterface,
                                                     deviceOrientation: driving, timestamp: latest.timestamp))
            toldInterface = interface.current
        }
        // Tablet mode first: it is what a desktop acts on.
        if events.contains(.tabletModeDidChange), let line = latest.tabletModeLine, latest.hinge.tabletMode != toldTabletMode {
            write(line)
            toldTabletMode = latest.hinge.tabletMode
        }
        if events.contains(.hingeAngleDidChange), latest.hinge.angle != toldHinge.angle || latest.hinge.problem != toldHinge.problem {
            write(latest.hingeAngleLine)
            toldHinge = (latest.hinge.angle, latest.hinge.problem)
        }
        if parameters.needs(.proximity) {
            for line in toldProximity.catchUp(with: latest.proximity) { write(line) }
        }
        if parameters.needs(.light) {
            for line in toldLight.catchUp(with: latest.light) { write(line) }
        }
        while !queuedAngles.isEmpty, channel.isWritable {
            write(queuedAngles.removeFirst().line(dropped: droppedAngles))
            droppedAngles = 0
        }
        if wrote { channel.flush() }
    }
}
