import EmulatedSensor
import Foundation
import OrientationCore
import OrientdProtocol
import ProcessHarness
@testable import OrientdClient
import Testing

extension IntegrationTests {
    /// A still device watched by its accelerometer's own motion event (issue 37), through the
    /// real daemon: the event descriptor is emulated with umockdev's ioctl handler
    /// (`EmulatedMotionEvents`), the `events/` files are bmc150's as its driver lays them out.
    /// When the loop arms, waits and reads is `SensorLoop`'s, unit-tested; this checks the I/O.
    @Suite struct MotionEventWakeUpTests {
        /// bmc150-accel-core.c's any-motion (slope) event: per-axis enable, value and period files.
        static let bmc150Events = [
            "name": "bmc150_accel",
            "events/in_accel_x_roc_either_en": "0", "events/in_accel_y_roc_either_en": "0", "events/in_accel_z_roc_either_en": "0",
            "events/in_accel_x_roc_either_value": "1", "events/in_accel_x_roc_either_period": "1",
        ]

        /// The triggers bmc150-accel-core.c registers only where the interrupt line is wired.
        static let bmc150Triggers = ["bmc150_accel-dev0", "bmc150_accel-any-motion-dev0"]

        /// Still after 0.3 s without motion, not the default 1.5 s: the tests wait less for it.
        static let quickStill = ["--still-after-ms", "300"]

        static func reads(of sensor: EmulatedAccelerometer) throws -> FileAccessCounter {
            try AdaptiveSamplingTests.reads(of: sensor)
        }

        static func subscribe(to daemon: Daemon) throws -> DaemonConnection {
            let subscriber = try rawConnection(to: daemon)
            _ = try subscriber.readJSON()  // hello
            try subscriber.send(#"{"id":1,"method":"subscribe","events":["deviceOrientationDidChange"]}"#)
            #expect(try subscriber.readJSON()?["id"] == .integer(1))
            return subscriber
        }

        static func nextOrientation(from subscriber: DaemonConnection) throws -> String? {
            while let message = try subscriber.readJSON() {
                if message["event"] == .string("deviceOrientationDidChange"), case .string(let name)? = message["orientation"] { return name }
            }
            return nil
        }

        /// `status`'s `stillWatch`, as a client decodes it.
        static func stillWatch(_ daemon: Daemon) throws -> StillDeviceWatch? {
            try AmbientSensorDaemonTests.status(daemon)?["sensor"]?["stillWatch"]?.decoded(as: StillDeviceWatch.self)
        }

        static func armings(_ daemon: Daemon) -> Int {
            daemon.log.components(separatedBy: "reading nothing until its motion event fires").count - 1
        }

        @Test func aStillDeviceIsNotReadUntilItsMotionEventFires() throws {
            let sensor = try EmulatedAccelerometer.standard(.portrait, extra: Self.bmc150Events, triggers: Self.bmc150Triggers)
            let events = try sensor.emulateMotionEvents()
            let daemon = try Daemon(sensor: sensor, arguments: Self.quickStill, wrapper: events.wrapper)
            let subscriber = try Self.subscribe(to: daemon)
            let reads = try Self.reads(of: sensor)

            #expect(waitUntil(timeout: 20) { Self.armings(daemon) >= 1 }, "never slept on the motion event:\n\(daemon.log)")
            for axis in ["x", "y", "z"] { #expect(sensor.value(of: "events/in_accel_\(axis)_roc_either_en") == "1") }
            #expect(events.asked == 1)
            let watch = try #require(try Self.stillWatch(daemon))
            #expect(watch.method == .motionEvent)
            #expect(watch.eventFiles == ["in_accel_x_roc_either_en", "in_accel_y_roc_either_en", "in_accel_z_roc_either_en"])
            #expect(watch.sentence.hasPrefix("its motion event wakes orientd (events/in_accel_x_roc_either_en, "), "\(watch.sentence)")

            // Still and watched: not one read in 1 s (the still rate would read 3 times; the safety
            // read is 20 s away).
            _ = reads.take()
            let windowEnd = monotonicNow() + 1
            _ = waitUntil(timeout: 2) { monotonicNow() >= windowEnd }
            #expect(reads.take() == 0, "a watched still device was read:\n\(daemon.log)")

            // A client's get is answered from a fresh read, and the device is watched again; a
            // flood of gets right after is answered from that read, not one read each.
            #expect(try daemon.currentOrientation() == "portrait")
            #expect(reads.take() >= 1, "the get was answered without a fresh read")
            for _ in 0..<10 { #expect(try daemon.currentOrientation() == "portrait") }
            #expect(reads.take() <= 2, "a flood of gets read the watched device once each")
            #expect(waitUntil(timeout: 10) { Self.armings(daemon) >= 2 }, "not watched again after the get:\n\(daemon.log)")

            // A turn: the interrupt brings the reads back, and the turn is published.
            sensor.turn(to: .landscapeLeft)
            let fired = monotonicNow()
            events.fire()
            #expect(try Self.nextOrientation(from: subscriber) == "landscapeLeft", "\(daemon.log)")
            let latency = monotonicNow() - fired
            #expect(latency < 2, "decided \(latency) s after the motion event")
            #expect(daemon.log.contains("the device moves: reading it 25 times a second"))

            // Still in its new position: watched again, the event's records drained.
            let before = Self.armings(daemon)
            #expect(waitUntil(timeout: 10) { Self.armings(daemon) > before }, "not watched again after the turn:\n\(daemon.log)")
            #expect(events.asked == 1, "one event descriptor for the life of the sensor")
            #expect(!daemon.log.contains("warning"), "\(daemon.log)")

            // Stopping disables the events again.
            daemon.stop()
            #expect(sensor.value(of: "events/in_accel_x_roc_either_en") == "0")
        }

        /// An interrupt that never comes (lost, or a driver that forgot its event across a
        /// suspend): the safety read catches the turn; twice, and the event is given up.
        @Test func theSafetyReadCatchesATurnWhoseInterruptNeverCame() throws {
            let sensor = try EmulatedAccelerometer.standard(.portrait, extra: Self.bmc150Events, triggers: Self.bmc150Triggers)
            let events = try sensor.emulateMotionEvents()
            let daemon = try Daemon(sensor: sensor, arguments: Self.quickStill + ["--safety-read-seconds", "1"], wrapper: events.wrapper)
            let subscriber = try Self.subscribe(to: daemon)
            #expect(waitUntil(timeout: 20) { Self.armings(daemon) >= 1 }, "never slept on the motion event:\n\(daemon.log)")

            sensor.turn(to: .landscapeLeft)
            let turned = monotonicNow()
            #expect(try Self.nextOrientation(from: subscriber) == "landscapeLeft", "\(daemon.log)")
            let latency = monotonicNow() - turned
            #expect(latency < 3, "the safety read is due every second; decided after \(latency) s:\n\(daemon.log)")
            #expect(try Self.stillWatch(daemon)?.safetyReadSeconds == 1)
            #expect(daemon.log.contains("moved unseen by its motion event (the safety read saw it)"), "\(daemon.log)")

            // Again: an interrupt that never comes is not wired; the still device is polled.
            #expect(waitUntil(timeout: 10) { Self.armings(daemon) >= 2 }, "not watched again after the turn:\n\(daemon.log)")
            sensor.turn(to: .portrait)
            #expect(try Self.nextOrientation(from: subscriber) == "portrait", "\(daemon.log)")
            #expect(waitUntil(timeout: 5) { daemon.log.contains("its motion event missed the device's motion 2 times: its interrupt seems not to be wired") }, "\(daemon.log)")
            let polled = try #require(try Self.stillWatch(daemon))
            #expect(polled.method == .reading && polled.readsPerSecond == 3 && polled.dormantReadsPerSecond == 1.25 && polled.dormantAfterSeconds == 10)
            #expect(polled.reason?.hasPrefix("its motion event missed the device's motion 2 times") == true, "\(polled)")
            #expect(sensor.value(of: "events/in_accel_x_roc_either_en") == "0", "the unused event is disabled")
        }

        /// Issue 43, point 7: a convertible turned while the system slept, its interrupt lost with
        /// the suspend. logind's `PrepareForSleep(false)` reads it at once, where the watch would
        /// have waited for the safety read (here 10 minutes away).
        @Test func aResumeReadsTheWatchedDeviceAtOnce() throws {
            let bus = try PrivateSystemBus(directory: makeScratchDirectory())
            let logind = try FakeLogind(on: bus)
            let sensor = try EmulatedAccelerometer.standard(.portrait, extra: Self.bmc150Events, triggers: Self.bmc150Triggers)
            let events = try sensor.emulateMotionEvents()
            let daemon = try Daemon(sensor: sensor, arguments: Self.quickStill + ["--safety-read-seconds", "600"],
                                    environment: bus.environment, wrapper: events.wrapper)
            let subscriber = try Self.subscribe(to: daemon)
            #expect(waitUntil(timeout: 20) { Self.armings(daemon) >= 1 }, "never slept on the motion event:\n\(daemon.log)")

            try logind.sleep()
            sensor.turn(to: .landscapeLeft)
            let resumed = monotonicNow()
            try logind.resume()
            #expect(try Self.nextOrientation(from: subscriber) == "landscapeLeft", "\(daemon.log)")
            let latency = monotonicNow() - resumed
            #expect(latency < 1, "heard \(latency) s after the resume")
            #expect(daemon.log.contains("the system resumed: reading the sensor afresh"), "\(daemon.log)")
            #expect(waitUntil(timeout: 10) { Self.armings(daemon) >= 2 }, "not watched again once still:\n\(daemon.log)")
        }

        /// The kernel refuses the event descriptor (another process holds it: EBUSY): the still
        /// device is read at the still rate, and the log and `status` say why.
        @Test func aRefusedEventDescriptorFallsBackToTheStillRate() throws {
            let sensor = try EmulatedAccelerometer.standard(.portrait, extra: Self.bmc150Events, triggers: Self.bmc150Triggers)
            let events = try sensor.emulateMotionEvents()
            events.answer(-EBUSY)
            let daemon = try Daemon(sensor: sensor, arguments: Self.quickStill, wrapper: events.wrapper)
            let subscriber = try Self.subscribe(to: daemon)
            let reads = try Self.reads(of: sensor)

            #expect(waitUntil(timeout: 20) { daemon.log.contains("cannot get the event descriptor") }, "\(daemon.log)")
            #expect(daemon.log.contains("(IIO_GET_EVENT_FD_IOCTL: Device or resource busy); a still device is read 3 times a second, 1.25 once still for 10 s instead"))
            #expect(try Self.stillWatch(daemon)?.reason?.hasPrefix("its motion event failed: ") == true)
            for axis in ["x", "y", "z"] {
                #expect(sensor.value(of: "events/in_accel_\(axis)_roc_either_en") == "0", "a refused descriptor leaves the events enabled")
            }
            _ = reads.take()
            #expect(waitUntil(timeout: 5) { reads.take() > 0 }, "a still device must still be read")
            sensor.turn(to: .landscapeLeft)
            #expect(try Self.nextOrientation(from: subscriber) == "landscapeLeft", "\(daemon.log)")
        }

        /// bmc150 with no interrupt line wired, as its driver leaves it on the real kernel
        /// (bmc150-accel-core.c): its `events/` files and its triggered buffer's scan elements and
        /// `trigger/current_trigger` are made, its triggers are not (`if (irq > 0)`). Its events
        /// never fire and its buffer cannot be enabled: it is polled from the start, so the first
        /// `get` answers, and a still device is read at the still rate. So is a device with neither.
        @Test("no interrupt line, or no motion event: polled at the still rate", arguments: [true, false])
        func withoutAnInterruptLineAStillDeviceIsPolled(bmc150WithoutIRQ: Bool) throws {
            let sensor: EmulatedAccelerometer
            let device: ZooDevice?
            if bmc150WithoutIRQ {
                var layout = try #require(KernelDriverZoo.layouts.first { $0.name == "bmc150_accel" && $0.pair == nil })
                layout.triggers = []
                layout.otherFiles["trigger/current_trigger"] = ""
                device = try ZooDevice(layout)
                sensor = try #require(device).sensor
            } else {
                device = nil
                var attributes = EmulatedAccelerometer.standardAttributes(.portrait)
                attributes["name"] = "accel_3d"
                sensor = try EmulatedAccelerometer(attributes: attributes)
            }
            defer { device?.stop() }
            let daemon = try Daemon(sensor: sensor, arguments: Self.quickStill)
            let subscriber = try Self.subscribe(to: daemon)
            let watch = try Self.stillWatch(daemon)
            let reason = bmc150WithoutIRQ
                ? "its events/ files would never fire: its driver registered no trigger, so no interrupt line is wired"
                : "accel_3d has no accelerometer event that signals motion"
            #expect(watch?.sentence == "read 3 times a second, 1.25 once still for 10 s (\(reason))", "\(String(describing: watch))")
            if bmc150WithoutIRQ {
                #expect(daemon.log.contains("has a buffer but no trigger to clock it"), "\(daemon.log)")
                #expect(!daemon.log.contains("cannot capture") && !daemon.log.contains("gave no data"), "\(daemon.log)")
            }
            #expect(waitUntil(timeout: 10) { daemon.log.contains("the device is still: reading it 3 times a second") }, "\(daemon.log)")
            if let device { device.turn(to: .landscapeLeft) } else { sensor.turn(to: .landscapeLeft) }
            #expect(try Self.nextOrientation(from: subscriber) == "landscapeLeft", "\(daemon.log)")
        }
    }
}
