import EmulatedSensor
import Foundation
import OrientdClient
import OrientdProtocol
import OrientationCore
import ProcessHarness
import ScenarioCorpus
import Testing

extension IntegrationTests {
    /// A 360° convertible emulated with two accelerometers, the display's and the base's, read
    /// by the real daemon through libiio's local backend.
    @Suite struct TabletModeDaemonTests {
        /// Closed (which reads like folded back, so nothing is known yet), laptop, flat, tent,
        /// tablet, laptop and closed: the hinge angle follows within 5°, tablet mode starts past
        /// 200° and ends below 160°.
        @Test func followsTheHingeThroughEveryPosition() throws {
            let sensor = try EmulatedAccelerometer.convertible(pose(.closed))
            let daemon = try Daemon(sensor: sensor)
            let client = try daemon.client()
            client.setReadTimeout(10)
            let result = try client.call("subscribe", ["events": .array([.string("hingeAngleDidChange"), .string("tabletModeDidChange")])])
            #expect(result["hingeAngle"] == nil && result["tabletMode"] == nil)
            #expect(result["hingeProblem"]?.stringValue?.hasPrefix("closed or folded back") == true, "\(result)")
            var hinge = Hinge()

            for (pose, tablet) in [(ConvertiblePose.laptop, false), (.flat, false), (.tent, true), (.tablet, true),
                                   (.laptop, false), (.closed, false)] {
                sensor.pose(display: pose.display, base: pose.base)
                try hinge.follow(client, until: pose.hinge)
                #expect(hinge.tabletMode == tablet, "tablet mode at \(pose): \(String(describing: hinge.tabletMode))")
            }
            #expect(hinge.tabletModeEvents == [false, true, false], "tablet mode changes: \(hinge.tabletModeEvents)")
        }

        /// `orientctl tablet-mode` says where the hinge is, then follows it; `orientctl status`
        /// lists both accelerometers.
        @Test func orientctlFollowsTabletMode() throws {
            let sensor = try EmulatedAccelerometer.convertible(pose(.laptop))
            let daemon = try Daemon(sensor: sensor)
            let status = try run("orientctl", ["status", "--socket", daemon.socketPath])
            #expect(status.standardOutput.contains("accelerometers:\n  iio:device0 (accel_3d) in the display, id local:/accel_3d-display, at local:\n  iio:device1 (accel_3d) in the base, id local:/accel_3d-base, at local:"),
                    "\(status.standardOutput)")
            let follower = try ChildProcess(Products.path("orientctl"), ["tablet-mode", "--socket", daemon.socketPath])
            defer { follower.stop() }
            try #require(follower.waitForLines(1, timeout: 5))
            #expect(follower.output.first?.text == "tablet mode: off, hinge 110°")
            sensor.pose(display: ConvertiblePose.tent.display, base: ConvertiblePose.tent.base)
            #expect(waitUntil(timeout: 5) { follower.output.contains { $0.text.hasPrefix("tablet mode: on, hinge ") } },
                    "\(follower.output.map(\.text))")
        }

        /// The base accelerometer is listed but never drives the screen: turning it alone changes
        /// no orientation.
        @Test func theBaseNeverDrivesTheScreen() throws {
            let sensor = try EmulatedAccelerometer.convertible(pose(.laptop))
            let daemon = try Daemon(sensor: sensor)
            let client = try daemon.client()
            let status = try client.call("status")
            guard case .array(let devices)? = status["devices"] else {
                Issue.record("status lists no devices: \(status)")
                return
            }
            #expect(devices.map { $0["id"]?.stringValue } == ["local:/accel_3d-display", "local:/accel_3d-base"])
            #expect(devices.map { $0["location"]?.stringValue } == ["display", "base"])
            #expect(status["sensor"]?["id"]?.stringValue == "local:/accel_3d-display")

            #expect(try client.subscribe() == .portrait)
            for (axis, value) in [("x", "-256"), ("y", "0"), ("z", "0")] {
                sensor.set("in_accel_\(axis)_raw", value, device: EmulatedAccelerometer.baseDevicePath)
            }
            client.setReadTimeout(1.5)
            #expect(throws: OrientdClientError.self) { try client.nextEvent() }
            #expect(try daemon.currentOrientation() == "portrait")
            // It cannot be followed on its own either: it has no orientation.
            do {
                _ = try daemon.client().call("get", ["device": .string("local:/accel_3d-base")])
                Issue.record("a base accelerometer answered get")
            } catch OrientdClientError.serverError(let code, let message) {
                #expect(code == .unknownDevice)
                #expect(message.hasPrefix("'local:/accel_3d-base' has no orientation of its own"), "\(message)")
            }
        }

        /// Standing on its side, the hinge axis is vertical: orientd says the angle cannot be
        /// told and keeps tablet mode as it was.
        @Test func saysWhenTheHingeAngleCannotBeTold() throws {
            let sensor = try EmulatedAccelerometer.convertible(pose(.laptop))
            let daemon = try Daemon(sensor: sensor)
            let client = try daemon.client()
            client.setReadTimeout(10)
            let result = try client.call("subscribe", ["events": .array([.string("hingeAngleDidChange")])])
            var hinge = Hinge(angle: number(result["hingeAngle"]))
            try hinge.follow(client, until: ConvertiblePose.laptop.hinge)
            let side = Vector3(9.80665, 0, 0)
            sensor.pose(display: side, base: side)
            let event = try #require(try client.nextEvent())
            #expect(event["hingeAngle"] == nil)
            #expect(event["problem"]?.stringValue?.contains("vertical") == true)
        }

        private func pose(_ pose: ConvertiblePose) -> (display: Vector3, base: Vector3) { (pose.display, pose.base) }
    }
}

/// What a subscriber has heard of the hinge.
private struct Hinge {
    var angle: Double?
    var tabletMode: Bool?
    var tabletModeEvents: [Bool] = []

    /// Reads events until the hinge angle is within 5° of `target` (0 and 360 told apart).
    mutating func follow(_ client: OrientdClient, until target: Double) throws {
        while !(angle.map { abs($0 - target) <= 5 } ?? false) {
            guard let event = try client.nextEvent() else { throw TestFailure("the connection ended") }
            switch event["event"]?.stringValue {
            case "hingeAngleDidChange":
                angle = number(event["hingeAngle"])
            case "tabletModeDidChange":
                tabletMode = bool(event["tabletMode"])
                if let mode = tabletMode { tabletModeEvents.append(mode) }
            default:
                break
            }
        }
    }
}

private func number(_ value: JSONValue?) -> Double? {
    switch value {
    case .integer(let number)?: Double(number)
    case .number(let number)?: number
    default: nil
    }
}

private func bool(_ value: JSONValue?) -> Bool? {
    if case .bool(let flag)? = value { return flag }
    return nil
}
