import EmulatedSensor
import NIOConcurrencyHelpers
import Foundation
import OrientationCore
import OrientdClient
import OrientdProtocol
import ProcessHarness
import Testing

extension IntegrationTests {
    @Suite struct OrientationClientTests {
        /// Takes elements from a stream until `count` or `timeout`, whichever comes first.
        static func first<Element: Sendable>(_ count: Int, of stream: AsyncThrowingStream<Element, any Error>, timeout: Double = 10) async -> [Element] {
            let taken = NIOLockedValueBox<[Element]>([])
            let reader = Task {
                for try await element in stream {
                    if taken.withLockedValue({ $0.append(element); return $0.count }) == count { break }
                }
            }
            let deadline = monotonicNow() + timeout
            while monotonicNow() < deadline, taken.withLockedValue({ $0.count }) < count {
                try? await Task.sleep(nanoseconds: 20_000_000)
            }
            reader.cancel()
            return taken.withLockedValue { $0 }
        }

        @Test func currentStatusAndLock() async throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(.landscapeRight))
            let client = OrientationClient(socketPath: daemon.socketPath)
            #expect(try await client.current() == .landscapeRight)
            let status = try await client.status()
            #expect(status.sensor.uri == "local:")
            #expect(status.locked == false)
            try await client.lock()
            #expect(try await client.status().locked == true)
            try await client.unlock()
            #expect(try await client.status().locked == false)
        }

        @Test func anUnreachableDaemonIsAClearError() async throws {
            let client = OrientationClient(socketPath: makeScratchDirectory() + "/none.sock")
            await #expect {
                try await client.current()
            } throws: { error in
                "\(error)".contains("cannot reach orientd") && "\(error)".contains("none.sock")
            }
        }

        /// The stream starts with the current orientation, follows turns, and survives a daemon
        /// restart: it reconnects by itself and yields what the new daemon reads.
        @Test func changesSurviveADaemonRestart() async throws {
            let sensor = try EmulatedAccelerometer.standard(.portrait)
            let socketPath = makeScratchDirectory() + "/orientd.sock"
            var daemon: Daemon? = try Daemon(sensor: sensor, socketPath: socketPath)
            let client = OrientationClient(socketPath: socketPath)
            let stream = client.orientationChanges()
            var iterator = stream.makeAsyncIterator()
            #expect(try await iterator.next() == .portrait)
            sensor.turn(to: .landscapeLeft)
            #expect(try await iterator.next() == .landscapeLeft)

            daemon?.stop()
            daemon = nil
            sensor.turn(to: .portraitUpsideDown)
            try await Task.sleep(nanoseconds: 1_000_000_000)
            daemon = try Daemon(sensor: sensor, socketPath: socketPath)
            let restarted = monotonicNow()
            #expect(try await iterator.next() == .portraitUpsideDown)
            #expect(monotonicNow() - restarted < 3, "the stream should reconnect within its 2 s backoff")
            sensor.turn(to: .faceUp)
            #expect(try await iterator.next() == .faceUp)
            _ = daemon
        }

        /// Two views share one daemon: a portrait-only one never turns; a landscape video follows
        /// the device between its two landscapes only.
        @Test func interfaceOrientationsForTwoViews() async throws {
            let sensor = try EmulatedAccelerometer.standard(.portrait)
            let daemon = try Daemon(sensor: sensor)
            let client = OrientationClient(socketPath: daemon.socketPath)
            // Everything the portrait-only view hears while the video follows the turns.
            let heard = NIOLockedValueBox<[InterfaceOrientation]>([])
            let portraitOnly = Task {
                for try await orientation in client.interfaceOrientationChanges(supported: [.portrait]) {
                    heard.withLockedValue { $0.append(orientation) }
                }
            }
            var video = client.interfaceOrientationChanges(supported: [.landscapeRight, .landscapeLeft]).makeAsyncIterator()
            #expect(try await video.next() == .landscapeRight, "unsupported start: the first preference")

            sensor.turn(to: .landscapeRight)
            let turned = try await video.next()
            #expect(turned == .landscapeLeft)
            #expect(turned?.rotation == 270)
            sensor.turn(to: .faceUp)
            try await Task.sleep(nanoseconds: 1_000_000_000)
            sensor.turn(to: .landscapeLeft)
            #expect(try await video.next() == .landscapeRight)

            #expect(try await client.status().subscribers == 2)
            // The portrait-only view heard of none of it: only its start. Its news would have come
            // with the video's; half a second more for any still on its way.
            try await Task.sleep(nanoseconds: 500_000_000)
            portraitOnly.cancel()
            #expect(heard.withLockedValue { $0 } == [.portrait], "heard \(heard.withLockedValue { $0 })")
        }

        /// The news of a subscription show orientd going away once, and the new subscription after.
        @Test func theSubscriptionsNewsShowALoss() async throws {
            let sensor = try EmulatedAccelerometer.standard(.portrait)
            let socketPath = makeScratchDirectory() + "/orientd.sock"
            var daemon: Daemon? = try Daemon(sensor: sensor, socketPath: socketPath)
            var news = OrientationClient(socketPath: socketPath).subscription { SubscribeParameters(events: [.deviceOrientationDidChange]) }
                .makeAsyncIterator()
            guard case .subscribed(let first)? = try await news.next() else { Issue.record("no subscription first"); return }
            #expect(first.orientation == .portrait)
            daemon?.stop()
            daemon = nil
            var lost: [String] = []
            var resubscribed: SubscribeResult?
            sensor.turn(to: .landscapeRight)
            daemon = try Daemon(sensor: sensor, socketPath: socketPath)
            while resubscribed == nil, let item = try await news.next() {
                switch item {
                case .lost(let reason): lost.append(reason)
                case .subscribed(let result): resubscribed = result
                case .event: break
                }
            }
            #expect(lost.count == 1, "one loss an outage: \(lost)")
            #expect(resubscribed?.orientation == .landscapeRight)
            _ = daemon
        }

        /// A request orientd refuses ends the stream with its code, instead of ending it silently.
        @Test func aRefusedSubscriptionEndsTheStreamWithItsCode() async throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(.portrait))
            var news = OrientationClient(socketPath: daemon.socketPath).subscription {
                SubscribeParameters(events: [.angles], angleRate: 0.001)
            }.makeAsyncIterator()
            await #expect {
                _ = try await news.next()
            } throws: { error in
                guard case OrientdClientError.serverError(let code, _) = error else { return false }
                return code == .invalidParameters
            }
        }

        /// 10 a second from a 25 Hz sensor: the rate does not divide the sensor's, so samples must
        /// be paced by due time to average 10.
        @Test func theAngleStreamComesAtTheAskedRate() async throws {
            let sensor = try EmulatedAccelerometer.standard(.landscapeLeft)
            let daemon = try Daemon(sensor: sensor)
            let client = OrientationClient(socketPath: daemon.socketPath)
            let samples = await Self.first(1000, of: client.angles(rate: 10), timeout: 3.2)
            // The rate by the samples' own times, so that a slow start of the subscription on a
            // loaded machine does not count as samples missing.
            try #require(samples.count >= 15, "\(samples.count) samples in 3.2 s at 10 a second")
            // ... and they kept coming: a stream that stopped half-way would have a short span.
            #expect(samples.last!.timestamp - samples.first!.timestamp > 2, "the samples span only \(samples.last!.timestamp - samples.first!.timestamp) s of 3.2")
            let rate = Double(samples.count - 1) / (samples.last!.timestamp - samples.first!.timestamp)
            #expect((9...11).contains(rate), "\(samples.count) samples at \(rate) a second, not 10")
            for sample in samples {
                #expect(abs(sample.inPlane - 90) < 1)
                #expect(abs(sample.tilt) < 1)
                #expect(sample.dropped == 0)
            }
        }
    }
}

extension IntegrationTests.OrientationClientTests {
    /// The README's runnable example does what it says.
    @Test func theExampleRuns() throws {
        let sensor = try EmulatedAccelerometer.standard(.portrait)
        let daemon = try Daemon(sensor: sensor)
        let example = try ChildProcess(Products.path("orientation-example"), ["--socket", daemon.socketPath])
        defer { example.stop() }
        #expect(example.waitForLines(3, timeout: 10))
        sensor.turn(to: .landscapeLeft)
        #expect(example.waitForLines(5, timeout: 10))
        let lines = Set(example.output.map(\.text))
        for expected in ["the device is portrait", "device: portrait", "photo viewer: draw in portrait, turned 0° clockwise",
                         "device: landscapeLeft", "photo viewer: draw in landscapeRight, turned 90° clockwise"] {
            #expect(lines.contains(expected), "missing '\(expected)' in \(lines)")
        }
    }
}
