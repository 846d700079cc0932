import DaemonThreads
import OrientationCore
import OrientdProtocol
// What an application names, with this one import: the orientations, the requests, results,
// events and errors of the protocol. Not the daemon's insides (the classifier, calibration, hwdb
// files): a program that wants those imports their modules itself.
@_exported import enum OrientationCore.Orientation
@_exported import enum OrientationCore.InterfaceOrientation
@_exported import struct OrientdProtocol.SubscribeParameters
@_exported import struct OrientdProtocol.SubscribeResult
@_exported import struct OrientdProtocol.StatusResult
@_exported import struct OrientdProtocol.LockResult
@_exported import struct OrientdProtocol.OrientationResult
@_exported import struct OrientdProtocol.AnglesEvent
@_exported import struct OrientdProtocol.HelloEvent
@_exported import struct OrientdProtocol.DeviceOrientationDidChangeEvent
@_exported import struct OrientdProtocol.InterfaceOrientationDidChangeEvent
@_exported import struct OrientdProtocol.RotationLockDidChangeEvent
@_exported import struct OrientdProtocol.HingeAngleDidChangeEvent
@_exported import struct OrientdProtocol.TabletModeDidChangeEvent
@_exported import struct OrientdProtocol.ProximityStateDidChangeEvent
@_exported import struct OrientdProtocol.AmbientLightDidChangeEvent
@_exported import struct OrientdProtocol.SensorAvailabilityEvent
@_exported import struct OrientdProtocol.StoppingEvent
@_exported import struct OrientdProtocol.AmbientLight
@_exported import enum OrientationCore.LightUnit
@_exported import enum OrientdProtocol.SensorKind
@_exported import struct OrientdProtocol.SensorStatus
@_exported import struct OrientdProtocol.LightSensorStatus
@_exported import struct OrientdProtocol.ProximitySensorStatus
@_exported import enum OrientdProtocol.ServerEvent
@_exported import enum OrientdProtocol.EventKind
@_exported import enum OrientdProtocol.Method
@_exported import protocol OrientdProtocol.MethodResult
@_exported import struct OrientdProtocol.ProtocolError
@_exported import enum OrientdProtocol.JSONValue

/// orientd for applications: the current orientation, changes as `AsyncSequence`s, the angle
/// stream and the rotation lock. Streams survive a daemon restart: they reconnect by themselves
/// and pick up from the daemon's current state, so a consumer sees no gap but at most a change.
/// A stream ends with an error only when orientd refuses what it asks for (`invalid-params`);
/// `subscription(_:)` also shows each loss of orientd.
///
///     let orientd = OrientationClient()
///     print(try await orientd.current())
///     for try await orientation in orientd.orientationChanges() {
///         print("the device is now \(orientation)")
///     }
///
/// A runnable example is `swift run orientation-example` (Examples/OrientationExample).
public struct OrientationClient: Sendable {
    /// nil: $ORIENTD_SOCKET, else /run/orientd.sock.
    public let socketPath: String?
    /// How long a one-off request waits for the daemon.
    public var timeout: Double = 5

    public init(socketPath: String? = nil) {
        self.socketPath = socketPath
    }

    /// The device orientation now, read afresh if the sensor was asleep.
    public func current() async throws -> Orientation {
        try await oneOff { client in try client.currentOrientation() }
    }

    /// The daemon's `status` result.
    public func status() async throws -> StatusResult {
        try await oneOff { client in try client.status() }
    }

    /// Freezes the interface orientation for every client (needs root or orientd's lock-group).
    /// The result's `persisted` is false when orientd could not save the lock (it then holds
    /// until orientd restarts).
    @discardableResult
    public func lock() async throws -> LockResult {
        try await oneOff { client in try client.call(.lock, as: LockResult.self) }
    }

    @discardableResult
    public func unlock() async throws -> LockResult {
        try await oneOff { client in try client.call(.unlock, as: LockResult.self) }
    }

    /// The device orientation: the current one first, then every change (only into `orientations`).
    public func orientationChanges(of orientations: Set<Orientation> = Set(Orientation.allCases)) -> AsyncThrowingStream<Orientation, any Error> {
        stream(parameters: { _ in SubscribeParameters(events: [.deviceOrientationDidChange], orientations: orientations) }, start: { result in result.orientation },
           event: { event in
            guard case .deviceOrientationDidChange(let change) = event else { return nil }
            return change.orientation
        })
    }

    /// The interface orientation for content that can be drawn in `supported` (in order of
    /// preference): the current one first, then every change. `rotation` on each says how far to
    /// turn the content. faceUp and faceDown never change it, nor does anything while rotation is locked.
    /// After a reconnection the interface orientation last yielded is asked for first, so a
    /// daemon restart while the device lies flat does not turn the content. An empty `supported`
    /// ends the stream at once.
    public func interfaceOrientationChanges(supported: [InterfaceOrientation] = InterfaceOrientation.allCases) -> AsyncThrowingStream<InterfaceOrientation, any Error> {
        stream(parameters: { last in
            let preferred = last.map { [$0] + supported.filter { $0 != last } } ?? supported
            return SubscribeParameters(events: [.interfaceOrientationDidChange], supportedInterfaceOrientations: preferred)
        }, start: { result in result.interfaceOrientation },
           event: { event in
            guard case .interfaceOrientationDidChange(let change) = event else { return nil }
            return change.interfaceOrientation
        })
    }

    /// Continuous angles, at most `rate` samples a second (nil: the sensor's rate).
    public func angles(rate: Double? = nil) -> AsyncThrowingStream<AnglesEvent, any Error> {
        let request = SubscribeParameters(events: [.angles], angleRate: rate)
        return stream(parameters: { _ in request }, start: { _ in nil }, event: { event in
            guard case .angles(let sample) = event else { return nil }
            return sample
        }, repeatsAllowed: true)
    }

    // MARK: Plumbing

    /// Runs a blocking request-and-answer on a thread of its own, bounded by the client's timeout:
    /// not on libdispatch's pool, which on Linux is Swift concurrency's own (one thread a core),
    /// where a slow orientd would hold up the app's other tasks.
    private func oneOff<T: Sendable>(_ body: @escaping @Sendable (OrientdClient) throws -> T) async throws -> T {
        let (socketPath, timeout) = (self.socketPath, self.timeout)
        return try await withCheckedThrowingContinuation { continuation in
            FeedThread().start(name: "orientd-client") {
                continuation.resume(with: Result {
                    let client = try OrientdClient(socketPath: socketPath, timeout: timeout)
                    return try body(client)
                })
            }
        }
    }

    /// Follows orientd across restarts: subscribes with `parameters` (asked afresh at every
    /// (re)subscription), yields the state it starts from and every event, and when orientd goes
    /// away says so once (`lost`) and subscribes again, 0.1 s to 2 s apart, on a thread of its
    /// own. A request orientd refuses (anything but too-many-clients, which passes) ends the
    /// stream with `OrientdClientError.serverError`: trying again would not help.
    public func subscription(_ parameters: @escaping @Sendable () -> SubscribeParameters) -> AsyncThrowingStream<SubscriptionNews, any Error> {
        let socketPath = self.socketPath
        return AsyncThrowingStream(bufferingPolicy: .bufferingNewest(64)) { continuation in
            Self.follow(socketPath: socketPath, continuation: continuation, parameters: parameters) { news in
                continuation.yield(news)
            }
        }
    }

    /// One value of the subscription: the one its state starts from after each (re)subscription
    /// (unless the consumer already has it), then each event's. The value last yielded and the
    /// next subscription's parameters are the subscription thread's alone, so a resubscription
    /// always asks with the latest.
    private func stream<Element: Sendable & Equatable>(
        parameters: @escaping @Sendable (_ lastYielded: Element?) -> SubscribeParameters,
        start: @escaping @Sendable (SubscribeResult) -> Element?,
        event: @escaping @Sendable (ServerEvent) -> Element?,
        repeatsAllowed: Bool = false
    ) -> AsyncThrowingStream<Element, any Error> {
        let socketPath = self.socketPath
        return AsyncThrowingStream(bufferingPolicy: .bufferingNewest(64)) { continuation in
            // Touched on the subscription's thread only.
            nonisolated(unsafe) var last: Element?
            Self.follow(socketPath: socketPath, continuation: continuation, parameters: { parameters(last) }) { news in
                let element: Element?
                switch news {
                case .subscribed(let result): element = start(result)
                case .event(let message): element = event(message)
                case .lost: element = nil
                }
                guard let element, repeatsAllowed || element != last else { return }
                last = element
                continuation.yield(element)
            }
        }
    }

    /// The subscription's thread: connects, subscribes with `parameters()`, hands every piece of
    /// news to `hear`, and starts again after a loss, until the stream is cancelled; a refusal
    /// ends the stream with it.
    private static func follow<Element>(socketPath: String?, continuation: AsyncThrowingStream<Element, any Error>.Continuation,
                                        parameters: @escaping @Sendable () -> SubscribeParameters,
                                        hear: @escaping @Sendable (SubscriptionNews) -> Void) {
        let subscription = StreamSubscription()
        continuation.onTermination = { _ in subscription.cancel() }
        FeedThread().start(name: "orientd-follow") {
            var delay = 0.1
            var reachable = true
            func lost(_ reason: String) {
                if reachable { hear(.lost(reason: reason)) }
                reachable = false
            }
            while !subscription.isCancelled {
                do {
                    let client = try OrientdClient(socketPath: socketPath, timeout: 5)
                    guard subscription.attach(client.interrupter) else { break }
                    defer { withExtendedLifetime(client) { subscription.detach() } }
                    let result = try client.subscribe(parameters())
                    (delay, reachable) = (0.1, true)
                    hear(.subscribed(result))
                    client.setReadTimeout(nil)
                    while let event = try client.nextServerEvent() { hear(.event(event)) }
                    if !subscription.isCancelled { lost("orientd closed the connection") }
                } catch OrientdClientError.serverError(let code, let message) where code != .tooManyClients {
                    continuation.finish(throwing: OrientdClientError.serverError(code: code, message: message))
                    return
                } catch {
                    // The daemon is not there (yet), or it went away: try again shortly.
                    if !subscription.isCancelled { lost("\(error)") }
                }
                if subscription.isCancelled { break }
                subscription.sleep(delay)
                delay = min(delay * 2, 2)
            }
            continuation.finish()
        }
    }
}

/// What a subscription that follows orientd across restarts hears, in order.
public enum SubscriptionNews: Sendable {
    /// Subscribed (again): the state the events start from.
    case subscribed(SubscribeResult)
    case event(ServerEvent)
    /// orientd went away, or cannot be reached (why); said once an outage: the subscription
    /// tries again by itself.
    case lost(reason: String)
}

/// The connection a stream's thread holds, so that cancelling the stream can interrupt it.
private final class StreamSubscription: Sendable {
    private struct State {
        var cancelled = false
        var interrupt: (@Sendable () -> Void)?
    }

    private let state = Guarded(State())

    var isCancelled: Bool { state.read { $0.cancelled } }

    /// Holds a way to interrupt the current connection; false if cancelled meanwhile.
    func attach(_ interrupter: @escaping @Sendable () -> Void) -> Bool {
        state.update { state in
            guard !state.cancelled else { return false }
            state.interrupt = interrupter
            return true
        }
    }

    /// Called before the connection closes, so no interrupt can reach a reused descriptor.
    func detach() { state.update { $0.interrupt = nil } }

    func cancel() {
        state.update { state in
            state.cancelled = true
            state.interrupt?()
        }
    }

    /// Waits `seconds`, or until the stream is cancelled.
    func sleep(_ seconds: Double) {
        _ = state.wait(until: MonotonicClock.now() + seconds, for: \.cancelled, then: { _ in })
    }
}
