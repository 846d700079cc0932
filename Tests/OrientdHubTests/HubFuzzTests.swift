import Glibc
import NIOCore
import OrientationCore
import OrientdProtocol
import Testing
@testable import OrientdHub

/// Thousands of random and mutated requests, partial lines, closes, stalls and sensor events
/// against the hub in process, from a fixed seed (so a failure replays), checking the hub's
/// invariants after every step:
/// - every reply a client gets answers its oldest unanswered request (order, nothing lost);
/// - the client count, the subscriber count and each sensor's demand (accelerometer, light,
///   proximity) match the open connections and their subscriptions;
/// - at the end, once the sensor reads and every client reads, every request is answered.
@Suite struct HubFuzzTests {
    /// SplitMix64: small, fast, and the same sequence everywhere.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// A client and what it expects back.
    final class FuzzClient {
        let client: TestClient
        /// Ids of the whole request lines sent and not yet answered, in order.
        var unanswered: [Int64] = []
        var lineTooLong = false
        init(_ client: TestClient) { self.client = client }
    }

    static let methods = ["get", "ping", "status", "subscribe", "unsubscribe", "lock", "unlock", "fly"]
    /// Subscriptions that need the accelerometer, an ambient sensor, or both.
    static let subscriptions = [#","events":["angles","deviceOrientationDidChange"],"angleRate":5"#,
                                #","events":["proximityStateDidChange"]"#,
                                #","events":["ambientLightDidChange","rotationLockDidChange"]"#,
                                #","events":["deviceOrientationDidChange","ambientLightDidChange","proximityStateDidChange"]"#]
    static let junk = ["", "{", "}", "[]", "null", "\u{0}", "{\"id\":", "\"", "1e400", "{\"id\":{},\"method\":1}", "\u{FEFF}{}", "{\"id\":1,\"method\":\"get\",\"device\":[]}"]

    @Test(arguments: [1 as UInt64, 2, 3])
    func randomTrafficKeepsEveryInvariant(seed: UInt64) throws {
        var random = SeededGenerator(state: seed)
        let harness = HubHarness(maximumClients: 12, maximumClientsPerUser: 12)
        harness.sensorReads(.portrait)
        var clients: [FuzzClient] = []
        var nextID: Int64 = 1
        var replies = 0
        let steps = 2500

        for step in 0..<steps {
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<6 where clients.count < 10:
                let uid: uid_t = Bool.random(using: &random) ? 0 : 1000
                clients.append(FuzzClient(try harness.connect(as: HubHarness.user(uid))))
            case 0..<45 where !clients.isEmpty:
                // A well-formed request, sometimes several in one write, sometimes split.
                let fuzz = clients.randomElement(using: &random)!
                var text = ""
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let method = Self.methods.randomElement(using: &random)!
                    var extra = ""
                    if method == "subscribe", Bool.random(using: &random) { extra = Self.subscriptions.randomElement(using: &random)! }
                    if Int.random(in: 0..<10, using: &random) == 0 { extra += #","device":"nowhere""# }
                    text += #"{"id":\#(nextID),"method":"\#(method)"\#(extra)}"# + "\n"
                    if !fuzz.lineTooLong { fuzz.unanswered.append(nextID) }
                    nextID += 1
                }
                let cut = Int.random(in: 0...text.utf8.count, using: &random)
                let bytes = Array(text.utf8)
                try send(bytes[..<cut], to: fuzz)
                try send(bytes[cut...], to: fuzz)
            case 45..<55 where !clients.isEmpty:
                // Junk: answered with an error that carries no id (or the id it could read).
                let fuzz = clients.randomElement(using: &random)!
                var junk = Self.junk.randomElement(using: &random)!
                if junk.isEmpty || junk.allSatisfy({ $0 == " " }) { junk = "?" }
                if !fuzz.lineTooLong { fuzz.unanswered.append(-1) }
                try send(Array((junk + "\n").utf8)[...], to: fuzz)
            case 55..<58 where !clients.isEmpty:
                let fuzz = clients.randomElement(using: &random)!
                if !fuzz.lineTooLong { fuzz.unanswered.append(-2) }
                fuzz.lineTooLong = true
                try send(Array(String(repeating: "x", count: Wire.maximumRequestLength + 1).utf8)[...], to: fuzz)
            case 58..<61 where !clients.isEmpty:
                let index = Int.random(in: 0..<clients.count, using: &random)
                try clients[index].client.channel.close().wait()
                clients.remove(at: index)
            case 61..<64 where !clients.isEmpty:
                // Gone before the next reply arrives: the write fails and closes the connection.
                let fuzz = clients.randomElement(using: &random)!
                fuzz.client.socket.closeOnNextWrite = true
                try send(Array(#"{"id":0,"method":"ping"}"#.utf8 + [10])[...], to: fuzz)
            case 64..<72 where !clients.isEmpty:
                let fuzz = clients.randomElement(using: &random)!
                if fuzz.client.channel.isWritable { fuzz.client.stallReading() } else { fuzz.client.resumeReading() }
            case 72..<77:
                harness.hub.publish(Orientation.allCases.randomElement(using: &random)!, at: Double(step))
            case 77..<80:
                let device = Bool.random(using: &random) ? "ambient" : nil
                switch Int.random(in: 0..<6, using: &random) {
                case 0: harness.hub.proximitySensorChanged(device: device)
                case 1: harness.hub.lightSensorChanged(device: device)
                case 2: harness.proximityDemand.isReading.toggle()
                case 3: harness.lightDemand.isReading = Bool.random(using: &random)
                case 4: harness.hub.publishProximity(near: Bool.random(using: &random))
                default: harness.hub.publishLight(level: Double(Int.random(in: 0...3, using: &random)), unit: .lux)
                }
            case 80..<84:
                harness.hub.sensorPaused()
            case 84..<90:
                harness.hub.sensorRead(at: harness.now)
            case 90..<92:
                harness.hub.sensorLost(reason: "fuzz")
            case 92..<94:
                harness.hub.sensorOpened(HubHarness.sensor, devices: [HubHarness.sensor])
            case 94..<97:
                harness.now = harness.now + .milliseconds(Int64.random(in: 0...2000, using: &random))
                harness.loop.advanceTime(by: .milliseconds(Int64.random(in: 0...1500, using: &random)))
            default:
                harness.hub.publishAngles(OrientationAngles(of: Vector3(0, 9.81, 0)), acceleration: Vector3(0, 9.81, 0),
                                          time: Double(step), timestamp: Double(step))
            }
            harness.loop.run()
            clients.removeAll { !$0.client.isOpen }
            for fuzz in clients { replies += try checkReplies(of: fuzz) }
            try checkCounts(harness, clients)
        }

        // Everyone reads, the sensor reads, the clock passes every timeout: all is answered.
        for fuzz in clients where !fuzz.client.channel.isWritable { fuzz.client.resumeReading() }
        harness.hub.sensorRead(at: harness.now)
        harness.loop.advanceTime(by: .seconds(2))
        for fuzz in clients {
            replies += try checkReplies(of: fuzz)
            // One told to fail its next write (its peer gone) closes at the first reply it is
            // sent now: what it asked after is rightly never answered.
            #expect(fuzz.unanswered.isEmpty || !fuzz.client.isOpen, "requests never answered: \(fuzz.unanswered)")
        }
        // The run must have exercised the hub, not closed every client at once.
        #expect(replies > 1000, "only \(replies) replies checked")
        clients.removeAll { !$0.client.isOpen }
        try checkCounts(harness, clients)
        for fuzz in clients { try fuzz.client.channel.close().wait() }
        try checkCounts(harness, [])
    }

    private func send(_ bytes: ArraySlice<UInt8>, to fuzz: FuzzClient) throws {
        guard fuzz.client.isOpen, !bytes.isEmpty else { return }
        try fuzz.client.channel.writeInbound(ByteBuffer(bytes: bytes))
    }

    /// Each reply answers the oldest unanswered request; events may come between them. Returns
    /// how many replies were checked.
    private func checkReplies(of fuzz: FuzzClient) throws -> Int {
        var checked = 0
        for line in try fuzz.client.received() {
            if line["event"] != nil { continue }
            let expected = try #require(fuzz.unanswered.first, "a reply to nothing: \(line)")
            fuzz.unanswered.removeFirst()
            checked += 1
            switch expected {
            case -2: #expect(line.errorCode == "request-too-long")
            case -1: #expect(line.errorCode != nil, "junk got \(line)")
            default:
                let id = line.id
                if id != .integer(expected) {
                    Issue.record("reply \(String(describing: id)) where \(expected) was due")
                }
            }
        }
        return checked
    }

    private func checkCounts(_ harness: HubHarness, _ clients: [FuzzClient]) throws {
        #expect(harness.clients.connected == clients.count)
        let subscribers = harness.hub.status(clients: 0).subscribers
        #expect(subscribers <= clients.count)
        #expect(harness.demand.held == harness.hub.subscriptionCount(needing: .accelerometer),
                "the accelerometer is held once per subscription that needs it")
        #expect(harness.lightDemand.held == harness.hub.subscriptionCount(needing: .light))
        #expect(harness.proximityDemand.held == harness.hub.subscriptionCount(needing: .proximity))
        if clients.isEmpty {
            #expect([harness.demand.held, harness.lightDemand.held, harness.proximityDemand.held] == [0, 0, 0])
        }
    }
}
