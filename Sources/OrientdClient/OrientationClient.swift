import Foundation
// Applications name Orientation, InterfaceOrientation and the protocol's results with one import.
@_exported import OrientationCore
@_exported import OrientdProtocol

/// orientd for applications: the current orientation, changes as `AsyncSequence`s, the angle
/// stream and the rotation lock. Streams survive a daemon restart: they reconnect by themselves
/// and pick up from the daemon's current state, so a consumer sees no gap but at most a change.
///
///     let orientd = OrientationClient()
///     print(try await orientd.current())
///     for await orientation in orientd.orientationChanges() {
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
    public func orientationChanges(of orientations: Set<Orientation> = Set(Orientation.allCases)) -> AsyncStream<Orientation> {
        stream(parameters: { _ in [
            "events": .array([.string(EventKind.deviceOrientationDidChange.rawValue)]),
            "orientations": .array(orientations.map(\.rawValue).sorted().map { .string($0) }),
        ] }, start: { result in result.orientation },
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
    public func interfaceOrientationChanges(supported: [InterfaceOrientation] = InterfaceOrientation.allCases) -> AsyncStream<InterfaceOrientation> {
        stream(parameters: { last in
            let preferred = last.map { [$0] + supported.filter { $0 != last } } ?? supported
            return [
                "events": .array([.string(EventKind.interfaceOrientationDidChange.rawValue)]),
                "supportedInterfaceOrientations": .array(preferred.map { .string($0.rawValue) }),
            ]
        }, start: { result in result.interfaceOrientation },
           event: { event in
            guard case .interfaceOrientationDidChange(let change) = event else { return nil }
            return change.interfaceOrientation
        })
    }

    /// Continuous angles, at most `rate` samples a second (nil: the sensor's rate).
    public func angles(rate: Double? = nil) -> AsyncStream<AnglesEvent> {
        var parameters: [String: JSONValue] = ["events": .array([.string(EventKind.angles.rawValue)])]
        if let rate { parameters["angleRate"] = .number(rate) }
        let request = parameters
        return stream(parameters: { _ in request }, start: { _ in nil }, event: { event in
            guard case .angles(let sample) = event else { return nil }
            return sample
        }, repeatsAllowed: true)
    }

    // MARK: Plumbing

    private func oneOff<T: Sendable>(_ body: @escaping @Sendable (OrientdClient) throws -> T) async throws -> T {
        let (socketPath, timeout) = (self.socketPath, self.timeout)
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result {
                    let client = try OrientdClient(socketPath: socketPath, timeout: timeout)
                    return try body(client)
                })
            }
        }
    }

    /// A subscription on a thread of its own that reconnects with a growing delay (0.1 s to 2 s)
    /// whenever the daemon goes away, and yields the state it finds after each (re)subscription
    /// unless the consumer already has it. A request the daemon refuses (invalid-params) ends the
    /// stream: trying again would not help.
    private func stream<Element: Sendable & Equatable>(
        parameters: @escaping @Sendable (_ lastYielded: Element?) -> [String: JSONValue],
        start: @escaping @Sendable (SubscribeResult) -> Element?,
        event: @escaping @Sendable (ServerEvent) -> Element?,
        repeatsAllowed: Bool = false
    ) -> AsyncStream<Element> {
        let socketPath = self.socketPath
        let subscription = StreamSubscription()
        return AsyncStream(bufferingPolicy: .bufferingNewest(64)) { continuation in
            continuation.onTermination = { _ in subscription.cancel() }
            Thread.detachNewThread {
                var last: Element?
                var delay = 0.1
                func yield(_ element: Element) {
                    guard repeatsAllowed || element != last else { return }
                    last = element
                    continuation.yield(element)
                }
                while !subscription.isCancelled {
                    do {
                        let client = try OrientdClient(socketPath: socketPath, timeout: 5)
                        guard subscription.attach(client.interrupter) else { break }
                        defer { withExtendedLifetime(client) { subscription.detach() } }
                        let result = try client.subscribe(parameters(last))
                        delay = 0.1
                        if let element = start(result) { yield(element) }
                        client.setReadTimeout(nil)
                        while let message = try client.nextServerEvent() {
                            if let element = event(message) { yield(element) }
                        }
                    } catch OrientdClientError.serverError(let code, _) where code != ProtocolError.Code.tooManyClients.rawValue {
                        break
                    } catch {
                        // The daemon is not there (yet), or it went away: try again shortly.
                    }
                    if subscription.isCancelled { break }
                    subscription.sleep(delay)
                    delay = min(delay * 2, 2)
                }
                continuation.finish()
            }
        }
    }
}

/// The connection a stream's thread holds, so that cancelling the stream can interrupt it.
private final class StreamSubscription: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    private var interrupt: (@Sendable () -> Void)?
    private let wakeUp = DispatchSemaphore(value: 0)

    var isCancelled: Bool { lock.withLock { cancelled } }

    /// Holds a way to interrupt the current connection; false if cancelled meanwhile.
    func attach(_ interrupter: @escaping @Sendable () -> Void) -> Bool {
        lock.withLock {
            guard !cancelled else { return false }
            interrupt = interrupter
            return true
        }
    }

    /// Called before the connection closes, so no interrupt can reach a reused descriptor.
    func detach() { lock.withLock { interrupt = nil } }

    func cancel() {
        lock.withLock {
            cancelled = true
            interrupt?()
        }
        wakeUp.signal()
    }

    func sleep(_ seconds: Double) { _ = wakeUp.wait(timeout: .now() + seconds) }
}
