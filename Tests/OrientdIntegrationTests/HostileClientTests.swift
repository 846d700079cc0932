import EmulatedSensor
import Foundation
import OrientationCore
import OrientdProtocol
import ProcessHarness
import Testing
@testable import OrientdClient

extension IntegrationTests {
    @Suite struct HostileClientTests {
        /// An angle subscriber that stops reading: samples are dropped oldest-first and counted,
        /// the daemon's memory stays flat, another client is answered at once, and when the slow
        /// one reads again it gets recent samples with the count of those it missed.
        @Test func aStalledAngleSubscriberLosesOldSamplesNotTheDaemon() throws {
            let sensor = try EmulatedAccelerometer.standard(.portrait)
            let daemon = try Daemon(sensor: sensor, arguments: ["--rate", "200"])
            let slow = try rawConnection(to: daemon)
            _ = try slow.readJSON()
            try slow.send(#"{"id":1,"method":"subscribe","events":["angles","deviceOrientationDidChange"]}"#)
            let memoryBefore = daemon.residentKiB
            Thread.sleep(forTimeInterval: 4)  // 800 samples of ~200 bytes: far more than its buffers hold

            let other = try rawConnection(to: daemon)
            _ = try other.readJSON()
            try other.send(#"{"id":1,"method":"get"}"#)
            #expect(try other.readJSON()?["result"]?["orientation"] == .string("portrait"))
            sensor.turn(to: .landscapeLeft)
            Thread.sleep(forTimeInterval: 1)
            #expect(daemon.residentKiB - memoryBefore < 4 * 1024, "the daemon grew by \(daemon.residentKiB - memoryBefore) KiB")

            var dropped = 0
            var angles = 0
            var sawLandscape = false
            var lastTimestamp = 0.0
            let readUntil = Date().timeIntervalSince1970 + 0.5
            while lastTimestamp < readUntil, let message = try slow.readJSON() {
                if message["event"] == .string("angles") {
                    angles += 1
                    if case .integer(let count)? = message["dropped"] { dropped += Int(count) }
                    if case .number(let time)? = message["timestamp"] { lastTimestamp = time }
                } else if message["event"] == .string("deviceOrientationDidChange") {
                    sawLandscape = message["orientation"] == .string("landscapeLeft")
                }
            }
            #expect(dropped > 100, "dropped samples must be counted, got \(dropped) over \(angles) received")
            #expect(sawLandscape, "the coalesced orientation reaches the slow client")
        }

        /// Sixteen clients flood requests and never read a reply: each gets a bounded amount of the
        /// daemon (its requests wait in the kernel, unread), others are answered at once, and once
        /// the flooders are gone nothing they sent lingers.
        @Test func floodingClientsAreHeldToTheirOwnBuffers() throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(.portrait))
            let memoryBefore = daemon.residentKiB
            let burst = Array(String(repeating: #"{"id":1,"method":"status"}"# + "\n", count: 2000).utf8)
            var flooders = try (0..<16).map { _ in try rawConnection(to: daemon) }
            for _ in 0..<20 {
                for flooder in flooders {
                    _ = burst.withUnsafeBytes { send(flooder.descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
                }
            }
            Thread.sleep(forTimeInterval: 1)
            let growthKiB = daemon.residentKiB - memoryBefore
            #expect(growthKiB < 8 * 1024, "16 flooders grew the daemon by \(growthKiB) KiB")

            let other = try rawConnection(to: daemon)
            _ = try other.readJSON()
            try other.send(#"{"id":1,"method":"ping"}"#)
            #expect(try other.readJSON()?["result"]?["pong"] == .bool(true), "a ping is answered beside the flooders")

            flooders.removeAll()
            #expect(try daemon.currentOrientation() == "portrait")
        }

        /// Issue 13, D1: a client that reads the hello, sends one request and closes before reading
        /// the reply crashed orientd within 2 to 4 connections (any local user could).
        @Test func clientsGoneBeforeTheirReplyCrashNothing() throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(.portrait))
            for round in 0..<60 {
                let connection = try rawConnection(to: daemon)
                _ = try connection.readJSON()
                try connection.send(#"{"id":1,"method":"\#(["ping", "get", "status"][round % 3])"}"#)
            }
            #expect(try daemon.currentOrientation() == "portrait")
            #expect(daemon.process.isRunning)
        }

        /// A client that ends its input after its requests (`echo … | socat`, shutdown(SHUT_WR))
        /// still gets every reply, the lock's included, before orientd closes the connection.
        @Test func aClientThatEndsItsInputGetsItsReplies() throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(.portrait))
            let connection = try rawConnection(to: daemon)
            _ = try connection.readJSON()
            try connection.send(#"{"id":1,"method":"get"}"# + "\n" + #"{"id":2,"method":"ping"}"#)
            #expect(shutdown(connection.descriptor, Int32(SHUT_WR)) == 0)
            #expect(try connection.readJSON()?["result"]?["orientation"] == .string("portrait"))
            #expect(try connection.readJSON()?["id"] == .integer(2))
            #expect(try connection.readJSON() == nil, "then orientd closes")
        }

        /// Issue 13, D10: `get`s sent while orientd was stopped (SIGSTOP) were answered at SIGCONT
        /// with the orientation from before the stop; the answer must come from a new reading.
        @Test func aGetSentWhileOrientdWasStoppedIsAnsweredAfresh() throws {
            let sensor = try EmulatedAccelerometer.standard(.portrait)
            let daemon = try Daemon(sensor: sensor)
            let subscriber = try daemon.client()
            #expect(try subscriber.subscribe() == .portrait)
            kill(daemon.process.processIdentifier, SIGSTOP)
            sensor.turn(to: .landscapeLeft)
            let connection = try rawConnection(to: daemon)
            try connection.send(#"{"id":1,"method":"get"}"#)
            // Stopped for longer than a reading stays fresh (the filter's memory, 1 s).
            Thread.sleep(forTimeInterval: 1.5)
            kill(daemon.process.processIdentifier, SIGCONT)
            #expect(try connection.readJSON()?["event"] == .string("hello"))
            #expect(try connection.readJSON()?["result"]?["orientation"] == .string("landscapeLeft"))
        }

        /// One user cannot take every place: beyond max-clients-per-user its connections are
        /// refused with a reason; root's are not.
        @Test func oneUserCannotTakeEveryPlace() throws {
            let daemon = try RotationLockTests.daemonOpenToOtherUsers(["--max-clients-per-user", "2"])
            let holders = try (0..<2).map { _ in
                try ChildProcess("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups",
                                                      RotationLockTests.copyOfOrientctl(), "monitor", "--socket", daemon.socketPath])
            }
            defer { holders.forEach { $0.stop() } }
            #expect(holders.allSatisfy { $0.waitForLines(1, timeout: 5) })
            let third = try RotationLockTests.orientctlAsNobody(["get", "--socket", daemon.socketPath])
            #expect(third.status != 0)
            #expect(third.standardError.contains("at most 2 clients of one user"))
            #expect(daemon.log.contains("uid 65534 has 2 connections already"))
            #expect(try daemon.currentOrientation() == "portrait", "root is held only to the overall maximum")
        }
    }
}
