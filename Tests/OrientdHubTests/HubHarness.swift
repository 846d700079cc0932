import Glibc
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded
import OrientationCore
import OrientdProtocol
@testable import OrientdHub

/// A hub with no sensor thread and no socket: the test plays the sensor (`sensorOpened`,
/// `publish`, `sensorRead`) and the clients (`TestClient`), all on one EmbeddedEventLoop.
final class HubHarness: @unchecked Sendable {
    let loop = EmbeddedEventLoop()
    let hub: OrientationHub
    let hubs: DeviceHubs
    let clients: ClientCount
    let demand = CountingDemand()
    let lightDemand = CountingDemand()
    let proximityDemand = CountingDemand()
    let compassDemand = CountingDemand()
    /// The connections' clock, moved by the test.
    var now = NIODeadline.uptimeNanoseconds(1_000_000_000_000)
    static let quiet = Logger(label: "orientd-test") { _ in SwiftLogNoOpLogHandler() }

    /// - Parameter otherContext: a second context's URI, served by a hub of its own (with no
    ///   ambient sensors, as orientd's hubs but the main one).
    init(maximumClients: Int = 100, maximumClientsPerUser: Int = 100, lockGroup: String? = nil, otherContext: String? = nil) {
        hub = OrientationHub(serverName: "orientd test", lockPolicy: LockPolicy(groupName: lockGroup, logger: Self.quiet),
                             lockStore: nil, demand: demand, lightDemand: lightDemand, proximityDemand: proximityDemand,
                             compassDemand: compassDemand, staleAfter: 0.5, logger: Self.quiet)
        let others = otherContext.map { uri in
            [DeviceHubs.Entry(uri: uri, hub: OrientationHub(serverName: "orientd test", lockPolicy: LockPolicy(groupName: lockGroup, logger: Self.quiet),
                                                            lockStore: nil, demand: CountingDemand(), logger: Self.quiet))]
        } ?? []
        hubs = DeviceHubs([DeviceHubs.Entry(uri: "local:", hub: hub)] + others)
        clients = ClientCount(maximum: maximumClients, maximumPerUser: maximumClientsPerUser)
    }

    static let sensor = SensorStatus(id: "local:/accel_3d", uri: "local:", device: "accel_3d", location: .display,
                                     mountMatrix: .identity, mountMatrixSource: "test", rate: 25, reading: true)

    /// The sensor opens and decides `orientation` now: the hub's state is fresh.
    func sensorReads(_ orientation: Orientation) {
        hub.sensorOpened(Self.sensor, devices: [Self.sensor])
        hub.publish(orientation, at: 1)
        hub.sensorRead(at: now)
        loop.run()
    }

    func connect(as peer: PeerCredentials? = HubHarness.user(1000)) throws -> TestClient {
        try TestClient(harness: self, peer: peer)
    }

    static func user(_ uid: uid_t, groups: [gid_t] = []) -> PeerCredentials {
        PeerCredentials(pid: 4242, uid: uid, gid: uid, supplementaryGroups: groups)
    }
}

/// Counts what the hub asks of the sensor.
final class CountingDemand: SensorDemand, @unchecked Sendable {
    private let counts = NIOLockedValueBox((holds: 0, releases: 0, requests: 0, fresh: 0))
    private let readingNow = NIOLockedValueBox(true)
    var holds: Int { counts.withLockedValue { $0.holds } }
    var releases: Int { counts.withLockedValue { $0.releases } }
    var requests: Int { counts.withLockedValue { $0.requests } }
    /// Requests that needed a fresh reading.
    var freshRequests: Int { counts.withLockedValue { $0.fresh } }
    /// Holds not released yet.
    var held: Int { counts.withLockedValue { $0.holds - $0.releases } }
    func hold() { counts.withLockedValue { $0.holds += 1 } }
    func release() { counts.withLockedValue { $0.releases += 1 } }
    func request(needsFreshReading: Bool) {
        counts.withLockedValue {
            $0.requests += 1
            if needsFreshReading { $0.fresh += 1 }
        }
    }
    /// True unless the test says the sensor sleeps.
    var isReading: Bool {
        get { readingNow.withLockedValue { $0 } }
        set { readingNow.withLockedValue { $0 = newValue } }
    }
}

/// Sits next to the channel's head: counts the reads that reach the "socket", and can make the
/// next write fail by closing the channel from inside it, as a socket whose peer is gone does.
final class SocketStandIn: ChannelOutboundHandler, @unchecked Sendable {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    var reads = 0
    var writes = 0
    var closeOnNextWrite = false
    /// Every write fails (the peer is gone) but the channel stays open until someone closes it.
    var failWrites = false

    func read(context: ChannelHandlerContext) {
        reads += 1
        context.read()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        writes += 1
        if failWrites {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        guard closeOnNextWrite else {
            context.write(data, promise: promise)
            return
        }
        closeOnNextWrite = false
        context.close(promise: nil)
        promise?.fail(ChannelError.ioOnClosedChannel)
    }
}

/// One client on an EmbeddedChannel, through the same handlers HubServer installs.
final class TestClient {
    let channel: EmbeddedChannel
    let socket = SocketStandIn()
    private unowned let harness: HubHarness
    private var pending: [UInt8] = []

    init(harness: HubHarness, peer: PeerCredentials?) throws {
        self.harness = harness
        channel = EmbeddedChannel(loop: harness.loop)
        let handlers = channel.pipeline.syncOperations
        try handlers.addHandler(socket)
        try handlers.addHandler(ByteToMessageHandler(BoundedLineDecoder(maximumLength: Wire.maximumRequestLength)))
        try handlers.addHandler(ClientConnection(
            hubs: harness.hubs, clients: harness.clients, sensorRate: 25, logger: HubHarness.quiet,
            credentials: { $0.eventLoop.makeSucceededFuture(peer) }, now: { [unowned harness] in harness.now }))
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/orientd-test")).wait()
        harness.loop.run()
    }

    /// Sends bytes as the client would (lines need their own newlines).
    func send(_ text: String) throws {
        try channel.writeInbound(ByteBuffer(string: text))
        harness.loop.run()
    }

    /// Every whole line orientd has written since the last call, decoded.
    func received() throws -> [JSONValue] {
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
            pending += buffer.readableBytesView
        }
        var lines: [JSONValue] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = pending[..<newline]
            guard let value = Wire.decode(line) else { throw HarnessError("orientd wrote a line that is not JSON: \(String(decoding: line, as: UTF8.self))") }
            lines.append(value)
            pending.removeSubrange(...newline)
        }
        return lines
    }

    /// The client stops reading: its replies pile up in the kernel, the channel is not writable.
    func stallReading() {
        channel.isWritable = false
        channel.pipeline.fireChannelWritabilityChanged()
        harness.loop.run()
    }

    func resumeReading() {
        channel.isWritable = true
        channel.pipeline.fireChannelWritabilityChanged()
        harness.loop.run()
    }

    var isOpen: Bool { channel.isActive }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension JSONValue {
    var id: JSONValue? { self["id"] }
    var errorCode: String? { self["error"]?["code"]?.stringValue }
    var resultOrientation: String? { self["result"]?["orientation"]?.stringValue }
}
