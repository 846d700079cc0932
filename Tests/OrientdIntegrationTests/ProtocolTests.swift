import EmulatedSensor
import Foundation
import ScenarioCorpus
import ProcessHarness
import OrientationCore
import OrientdProtocol
import Testing
@testable import OrientdClient

extension IntegrationTests {
    @Suite struct ProtocolTests {
        static let documentedSessions = DocumentedSession.inProtocolDocument(fencedAs: "session")

        @Test func theDocumentHasExamples() {
            #expect(Self.documentedSessions.count >= 7)
        }

        /// Replays a documented session against the real daemon, line by line.
        @Test("docs/protocol.md examples", arguments: documentedSessions)
        func documentedExample(session: DocumentedSession) throws {
            let first = session.lines.first ?? ""
            let sensor: EmulatedAccelerometer
            if let pose = Self.pose(after: "# the convertible is ", in: first) {
                sensor = try EmulatedAccelerometer.convertible((pose.display, pose.base))
            } else {
                let start = try #require(Self.orientation(after: "# the device is in ", in: first),
                                         "a session starts with '# the device is in ORIENTATION' or '# the convertible is POSE'")
                sensor = try EmulatedAccelerometer.standard(start)
            }
            let daemon = try Daemon(sensor: sensor)
            let connection = try rawConnection(to: daemon)
            for line in session.lines.dropFirst() {
                if let orientation = Self.orientation(after: "# the device turns to ", in: line) {
                    sensor.turn(to: orientation)
                } else if let pose = Self.pose(after: "# the convertible turns to ", in: line) {
                    sensor.pose(display: pose.display, base: pose.base)
                } else if let degrees = Self.degrees(after: "# the device leans back ", in: line) {
                    sensor.lean(portraitBy: degrees)
                } else if let degrees = Self.degrees(after: "# the device leans forward ", in: line) {
                    sensor.lean(portraitBy: -degrees)
                } else if line == "# a second passes" {
                    Thread.sleep(forTimeInterval: 1)
                } else if line.hasPrefix("→ ") {
                    try connection.send(String(line.dropFirst(2)))
                } else if line.hasPrefix("← ") {
                    let expected = try #require(Wire.decode(Array(line.dropFirst(2).utf8)), "example line is not JSON: \(line)")
                    var received = try #require(try connection.readJSON(), "no line from orientd where the example has \(line)")
                    // Angle samples keep coming until the subscription ends: skip the surplus.
                    while received["event"] == .string("angles"), expected["event"] != .string("angles") {
                        received = try #require(try connection.readJSON(), "no line from orientd where the example has \(line)")
                    }
                    #expect(Self.matches(received, expected), "expected \(line)\nreceived \(received)")
                } else {
                    Issue.record("unreadable example line: \(line)")
                }
            }
        }

        static func pose(after prefix: String, in line: String) -> ConvertiblePose? {
            line.hasPrefix(prefix) ? ConvertiblePose.named(String(line.dropFirst(prefix.count))) : nil
        }

        /// "# the device leans back 60°" (from portrait).
        static func degrees(after prefix: String, in line: String) -> Double? {
            guard line.hasPrefix(prefix), line.hasSuffix("°") else { return nil }
            return Double(line.dropFirst(prefix.count).dropLast())
        }

        static func orientation(after prefix: String, in line: String) -> Orientation? {
            line.hasPrefix(prefix) ? Orientation(rawValue: String(line.dropFirst(prefix.count))) : nil
        }

        /// Equal member by member, except that `timestamp`, `uptime`, `server` and `hingeAngle` need
        /// only have the same type.
        static func matches(_ received: JSONValue, _ expected: JSONValue, key: String? = nil) -> Bool {
            switch (received, expected, key) {
            case (.number, .number, "timestamp"), (.integer, .number, "timestamp"), (.string, .string, "server"),
                 (.number, .number, "uptime"), (.integer, .number, "uptime"),
                 (.number, .number, "hingeAngle"), (.integer, .number, "hingeAngle"), (.number, .integer, "hingeAngle"),
                 (.integer, .integer, "hingeAngle"):
                return true
            case (.object(let got), .object(let want), _):
                return got.keys.sorted() == want.keys.sorted()
                    && want.allSatisfy { key, value in got[key].map { matches($0, value, key: key) } ?? false }
            default:
                return received == expected
            }
        }

        @Test func anOverlongRequestIsAnsweredThenClosed() throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard())
            let connection = try rawConnection(to: daemon)
            _ = try connection.readJSON()
            try connection.send(String(repeating: "x", count: Wire.maximumRequestLength + 100))
            let reply = try #require(try connection.readJSON())
            #expect(reply["error"]?["code"] == .string("request-too-long"))
            #expect(reply["id"] == nil)
            #expect(try connection.readLine() == nil, "the connection must be closed")
            // Everyone else is still served.
            #expect(try daemon.currentOrientation() == "portrait")
        }

        /// An overlong line behind a `get` that waits for the sleeping sensor: the `get` is still
        /// answered first, then the error, then the connection closes; replies keep their order.
        @Test func anOverlongRequestDoesNotOvertakeAWaitingGet() throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(.landscapeLeft))
            let connection = try rawConnection(to: daemon)
            _ = try connection.readJSON()
            // Long but valid requests first, so orientd reads 8 KiB at a time: then the get and
            // the start of the overlong line arrive in one read.
            let padding = String(repeating: " ", count: Wire.maximumRequestLength - 60)
            try connection.send((1...6).map { #"{"id":\#($0),"method":"ping"\#(padding)}"# }.joined(separator: "\n"))
            for id in 1...6 { #expect(try connection.readJSON()?["id"] == .integer(Int64(id))) }
            try connection.send(#"{"id":9,"method":"get"}"# + "\n" + String(repeating: "x", count: Wire.maximumRequestLength + 100))
            let first = try #require(try connection.readJSON())
            #expect(first["result"]?["orientation"] == .string("landscapeLeft"), "\(first)")
            #expect(try connection.readJSON()?["error"]?["code"] == .string("request-too-long"))
            #expect(try connection.readLine() == nil, "the connection must be closed")
        }

        @Test func aLongRequestWithinTheLimitIsServed() throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard())
            let connection = try rawConnection(to: daemon)
            _ = try connection.readJSON()
            // Exactly the limit, ended by CRLF: the CR does not count. Padded with JSON's own
            // white space (a member get does not take would be refused).
            let frame = #"{"id":1,"method":"get"}"#
            let padding = String(repeating: " ", count: Wire.maximumRequestLength - frame.utf8.count)
            try connection.send(#"{"id":1,"method":"get"\#(padding)}"# + "\r")
            #expect(try connection.readJSON()?["result"]?["orientation"] == .string("portrait"))
        }

        /// Connections beyond --max-clients are told why and closed; the others are unaffected,
        /// and a freed place is given to the next client.
        @Test func clientsBeyondTheLimitAreRefused() throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(), arguments: ["--max-clients", "3"])
            // Daemon's own readiness probe has come and gone; take all three places.
            var held = try (0..<3).map { _ in try rawConnection(to: daemon) }
            for connection in held { #expect(try connection.readJSON()?["event"] == .string("hello")) }
            let refused = try rawConnection(to: daemon)
            let reply = try #require(try refused.readJSON())
            #expect(reply["error"]?["code"] == .string("too-many-clients"))
            #expect(try refused.readLine() == nil)
            try held[0].send(#"{"id":1,"method":"get"}"#)
            #expect(try held[0].readJSON()?["result"]?["orientation"] == .string("portrait"))
            #expect(daemon.log.contains("refusing a client: 3 are connected already"))

            held.removeLast()
            #expect(waitUntil(timeout: 5) { (try? daemon.currentOrientation()) == "portrait" })
        }

        /// A subscriber that never reads: others still get every change at once, the daemon's memory
        /// stays bounded while the client floods it with requests, and when the slow client finally
        /// reads it ends with the latest orientation.
        @Test func aClientThatNeverReadsHurtsNobody() throws {
            let sensor = try EmulatedAccelerometer.standard(.portrait)
            let daemon = try Daemon(sensor: sensor)
            let slow = try rawConnection(to: daemon)
            try slow.send(#"{"id":0,"method":"subscribe"}"#)
            let memoryBefore = daemon.residentKiB

            // Flood without reading, in large writes, until the daemon has taken nothing for a second:
            // its replies fill the socket, it stops reading (back-pressure), and the requests pile up
            // in the kernel instead of in its memory.
            let requests = Array(String(repeating: #"{"id":1,"method":"get"}"# + "\n", count: 1000).utf8)
            var sent = 0
            var lastProgress = Date()
            while sent < 64 << 20, Date().timeIntervalSince(lastProgress) < 1 {
                let written = requests.withUnsafeBytes { send(slow.descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
                if written > 0 {
                    sent += written
                    lastProgress = Date()
                } else {
                    Thread.sleep(forTimeInterval: 0.02)
                }
            }
            #expect(sent < 16 << 20, "the daemon swallowed \(sent) bytes from a client that never reads")

            let fast = try daemon.client()
            #expect(try fast.subscribe() == .portrait)
            let turns: [Orientation] = [.landscapeLeft, .portraitUpsideDown, .landscapeRight, .faceUp]
            for orientation in turns {
                let turnedAt = Date()
                sensor.turn(to: orientation)
                let event = try #require(try fast.nextEvent())
                #expect(event["orientation"] == .string(orientation.rawValue))
                #expect(Date().timeIntervalSince(turnedAt) < 4)
            }
            let growthKiB = daemon.residentKiB - memoryBefore
            #expect(growthKiB < 10 * 1024, "daemon grew by \(growthKiB) KiB")

            // The slow client reads at last: its events chain from what it was last told
            // (portrait) to the latest, never repeating a stale one. Its socket was full through
            // the turns, so they are coalesced; how many got through before it filled depends on
            // the machine's load.
            var told = ["portrait"]
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline, told.last != "faceUp", let message = try slow.readJSON() {
                guard message["event"] == .string("deviceOrientationDidChange") else { continue }
                #expect(message["previous"]?.stringValue == told.last, "events so far: \(told)")
                told.append(message["orientation"]?.stringValue ?? "")
            }
            #expect(told.last == "faceUp")
            #expect(told.count - 1 <= turns.count, "more events than turns: \(told)")
        }
    }
}
