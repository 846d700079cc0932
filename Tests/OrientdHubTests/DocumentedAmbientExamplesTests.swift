import OrientationCore
import OrientdProtocol
import ProcessHarness
import Testing
@testable import OrientdHub

/// The ambient sensors' examples of docs/protocol.md (its `session ambient` blocks), replayed
/// against the hub in process with the test playing the sensors.
@Suite struct DocumentedAmbientExamplesTests {
    static let sessions = DocumentedSession.inProtocolDocument(fencedAs: "session ambient")

    @Test func theDocumentHasAmbientExamples() {
        #expect(Self.sessions.count >= 2)
    }

    @Test("docs/protocol.md ambient examples", arguments: sessions)
    func documentedExample(session: DocumentedSession) throws {
        let harness = HubHarness()
        // Nobody needed the ambient sensors before: they sleep until a reading comes.
        harness.lightDemand.isReading = false
        harness.proximityDemand.isReading = false
        var client: TestClient?
        var received: [JSONValue] = []
        for line in session.lines {
            if let orientation = Self.text(after: "# the device is in ", in: line).flatMap(Orientation.init(rawValue:)) {
                harness.sensorReads(orientation)
            } else if let device = Self.text(after: "# the proximity sensor is ", in: line) {
                harness.hub.proximitySensorChanged(device: device)
            } else if let device = Self.text(after: "# the light sensor is ", in: line) {
                harness.hub.lightSensorChanged(device: device)
            } else if line == "# the proximity sensor goes away" {
                harness.hub.proximitySensorChanged(device: nil)
            } else if line == "# the light sensor goes away" {
                harness.hub.lightSensorChanged(device: nil)
            } else if let state = Self.text(after: "# the proximity sensor reads ", in: line), ["near", "far"].contains(state) {
                harness.proximityDemand.isReading = true
                harness.hub.publishProximity(near: state == "near")
            } else if let reading = Self.text(after: "# the light sensor reads ", in: line)?.split(separator: " "),
                      reading.count == 2, let level = Double(reading[0]), let unit = LightUnit(rawValue: String(reading[1])) {
                harness.lightDemand.isReading = true
                harness.hub.publishLight(level: level, unit: unit)
            } else if line.hasPrefix("→ ") {
                try #require(client).send(String(line.dropFirst(2)) + "\n")
            } else if line.hasPrefix("← ") {
                if client == nil { client = try harness.connect() }
                harness.loop.run()
                if received.isEmpty { received = try #require(client).received() }
                let expected = try #require(Wire.decode(Array(line.dropFirst(2).utf8)), "example line is not JSON: \(line)")
                guard !received.isEmpty else {
                    Issue.record("no line from the hub where the example has \(line)")
                    return
                }
                let got = received.removeFirst()
                #expect(Self.matches(got, expected), "expected \(line)\nreceived \(got)")
            } else {
                Issue.record("unreadable example line: \(line)")
            }
        }
        harness.loop.run()
        #expect(received + (try client?.received() ?? []) == [], "lines the example does not show")
    }

    private static func text(after prefix: String, in line: String) -> String? {
        line.hasPrefix(prefix) ? String(line.dropFirst(prefix.count)) : nil
    }

    /// Equal member by member, except that `timestamp` and `server` need only have the same type.
    static func matches(_ received: JSONValue, _ expected: JSONValue, key: String? = nil) -> Bool {
        switch (received, expected, key) {
        case (.number, .number, "timestamp"), (.integer, .number, "timestamp"), (.string, .string, "server"):
            return true
        case (.object(let got), .object(let want), _):
            return got.keys.sorted() == want.keys.sorted()
                && want.allSatisfy { key, value in got[key].map { matches($0, value, key: key) } ?? false }
        default:
            return received == expected
        }
    }
}
