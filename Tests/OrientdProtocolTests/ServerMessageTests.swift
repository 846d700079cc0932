import Foundation
import OrientationCore
import OrientdProtocol
import Testing

/// Server lines read as the protocol's types. The literal lines are copied from docs/protocol.md;
/// re-encoding what was read must give the same bytes, so the types and the wire cannot drift apart.
@Suite struct ServerMessageTests {
    private func read(_ line: String) throws -> ServerMessage { try ServerMessage(line: Array(line.utf8)) }

    private func event(_ line: String) throws -> ServerEvent {
        guard case .event(let event) = try read(line) else { throw Unexpected(line: line) }
        return event
    }

    /// The result of a successful reply, with the id it carries.
    private func result<R: MethodResult>(_ line: String, as type: R.Type) throws -> (id: RequestID?, result: R) {
        guard case .reply(let id, .success(let json)) = try read(line) else { throw Unexpected(line: line) }
        return (id, try R(result: json))
    }

    private struct Unexpected: Error { let line: String }

    /// What the daemon would send for `message`, newline excluded.
    private func wire(_ message: some Encodable) -> String { String(decoding: Wire.line(message).dropLast(), as: UTF8.self) }

    // MARK: Events

    @Test func hello() throws {
        let line = #"{"event":"hello","protocol":1,"server":"orientd 0.1.0"}"#
        #expect(try event(line) == .hello(HelloEvent(protocol: 1, server: "orientd 0.1.0")))
        #expect(wire(HelloEvent(server: "orientd 0.1.0")) == line)
    }

    @Test func deviceOrientationDidChange() throws {
        let line = #"{"event":"deviceOrientationDidChange","orientation":"landscapeLeft","previous":"portrait","sequence":2,"timestamp":1795290909.799}"#
        let expected = DeviceOrientationDidChangeEvent(orientation: .landscapeLeft, previous: .portrait, timestamp: 1795290909.799, sequence: 2)
        #expect(try event(line) == .deviceOrientationDidChange(expected))
        #expect(wire(expected) == line)
    }

    @Test func deviceTiltDidChange() throws {
        let line = #"{"event":"deviceTiltDidChange","tilt":"tiltedUp","timestamp":1795290910.25}"#
        let expected = DeviceTiltDidChangeEvent(tilt: .tiltedUp, timestamp: 1795290910.25)
        #expect(try event(line) == .deviceTiltDidChange(expected))
        #expect(wire(expected) == line)
    }

    @Test func interfaceOrientationDidChange() throws {
        let line = #"{"deviceOrientation":"landscapeLeft","event":"interfaceOrientationDidChange","interfaceOrientation":"landscapeRight","previous":"portrait","rotation":90,"timestamp":1795290911.021}"#
        let expected = InterfaceOrientationDidChangeEvent(interfaceOrientation: .landscapeRight, previous: .portrait,
                                                          deviceOrientation: .landscapeLeft, timestamp: 1795290911.021)
        #expect(try event(line) == .interfaceOrientationDidChange(expected))
        #expect(wire(expected) == line)
    }

    @Test func rotationLockDidChange() throws {
        let line = #"{"event":"rotationLockDidChange","locked":true,"timestamp":1795290912.5}"#
        let expected = RotationLockDidChangeEvent(locked: true, timestamp: 1795290912.5)
        #expect(try event(line) == .rotationLockDidChange(expected))
        #expect(wire(expected) == line)
    }

    @Test func angles() throws {
        let line = #"{"acceleration":[0,-9.8067,0],"dropped":0,"event":"angles","inPlane":0,"pitch":0,"raw":[-9.8067,0,0],"roll":0,"tilt":0,"timestamp":1795290914.2}"#
        let expected = Self.angles(inPlane: 0, tilt: 0, pitch: 0, roll: 0, acceleration: Vector3(0, -9.8067, 0),
                                   raw: Vector3(-9.8067, 0, 0), timestamp: 1795290914.2)
        #expect(try event(line) == .angles(expected))
        #expect(wire(expected) == line)
    }

    /// A daemon from before `raw` (or replaying a trace, where it is unknown) leaves it out.
    @Test func anglesWithoutRaw() throws {
        let line = #"{"acceleration":[0,-9.8067,0],"dropped":0,"event":"angles","inPlane":0,"pitch":0,"roll":0,"tilt":0,"timestamp":1795290914.2}"#
        let expected = Self.angles(inPlane: 0, tilt: 0, pitch: 0, roll: 0, acceleration: Vector3(0, -9.8067, 0), timestamp: 1795290914.2)
        #expect(expected.raw == nil)
        #expect(try event(line) == .angles(expected))
        #expect(wire(expected) == line)
    }

    @Test func tabletModeDidChange() throws {
        let line = #"{"event":"tabletModeDidChange","hingeAngle":201,"tabletMode":true,"timestamp":1790000000.1}"#
        let expected = TabletModeDidChangeEvent(tabletMode: true, hingeAngle: 201, timestamp: 1790000000.1)
        #expect(try event(line) == .tabletModeDidChange(expected))
        #expect(wire(expected) == line)
    }

    /// docs/protocol.md lists its members but has no example line; these are the lines the daemon
    /// sends for the two cases (with an angle, and without one but with the problem).
    @Test func hingeAngleDidChange() throws {
        for expected in [HingeAngleDidChangeEvent(hingeAngle: 185, problem: nil, timestamp: 1790000000.1),
                         HingeAngleDidChangeEvent(hingeAngle: nil, problem: "the hinge axis is within 30° of vertical", timestamp: 1790000000.1)] {
            #expect(try event(wire(expected)) == .hingeAngleDidChange(expected))
        }
        let line = #"{"event":"hingeAngleDidChange","problem":"the hinge axis is within 30° of vertical","timestamp":1790000000.1}"#
        guard case .hingeAngleDidChange(let change) = try event(line) else { Issue.record("not a hinge event"); return }
        #expect(change.hingeAngle == nil)
        #expect(change.problem == "the hinge axis is within 30° of vertical")
    }

    @Test func sensorAvailability() throws {
        let gone = SensorAvailabilityEvent(available: false, device: nil, reason: "the sensor was removed", timestamp: 1790000000.1)
        let back = SensorAvailabilityEvent(available: true, device: "iio:device0 (accel_3d)", reason: nil, timestamp: 1790000000.2)
        #expect(wire(gone) == #"{"available":false,"event":"sensorAvailability","reason":"the sensor was removed","timestamp":1790000000.1}"#)
        for expected in [gone, back] {
            #expect(try event(wire(expected)) == .sensorAvailability(expected))
        }
    }

    @Test func proximityStateDidChange() throws {
        let line = #"{"event":"proximityStateDidChange","proximityState":true,"timestamp":1795290912.5}"#
        #expect(try event(line) == .proximityStateDidChange(ProximityStateDidChangeEvent(proximityState: true, timestamp: 1795290912.5)))
        #expect(wire(ProximityStateDidChangeEvent(proximityState: true, timestamp: 1795290912.5)) == line)
    }

    @Test func ambientLightDidChange() throws {
        let line = #"{"event":"ambientLightDidChange","level":12.5,"timestamp":1795290912.5,"unit":"lux"}"#
        let expected = AmbientLightDidChangeEvent(AmbientLight(level: 12.5, unit: .lux), timestamp: 1795290912.5)
        #expect(try event(line) == .ambientLightDidChange(expected))
        #expect(wire(expected) == line)
        #expect(expected.light == AmbientLight(level: 12.5, unit: .lux))
        let vendor = #"{"event":"ambientLightDidChange","level":300,"timestamp":1,"unit":"vendor"}"#
        guard case .ambientLightDidChange(let change) = try event(vendor) else { Issue.record("not a light event"); return }
        #expect(change.light == AmbientLight(level: 300, unit: .vendor))
        #expect(throws: ServerMessageError.self, "a unit this version does not know") {
            try read(#"{"event":"ambientLightDidChange","level":3,"timestamp":1,"unit":"candela"}"#)
        }
    }

    /// The accelerometer's availability is sent as protocol 1 always sent it (no `sensor`); the
    /// ambient sensors' names theirs.
    @Test func sensorAvailabilityOfTheAmbientSensors() throws {
        let accelerometer = SensorAvailabilityEvent(available: true, device: "accel", reason: nil, sensor: .accelerometer, timestamp: 1)
        #expect(accelerometer.sensor == nil)
        #expect(accelerometer.sensorKind == .accelerometer)
        #expect(!wire(accelerometer).contains("sensor\""))
        let line = #"{"available":false,"event":"sensorAvailability","reason":"no proximity sensor","sensor":"proximity","timestamp":1790000000.1}"#
        let gone = SensorAvailabilityEvent(available: false, device: nil, reason: "no proximity sensor", sensor: .proximity, timestamp: 1790000000.1)
        #expect(wire(gone) == line)
        #expect(try event(line) == .sensorAvailability(gone))
        guard case .sensorAvailability(let read) = try event(line) else { return }
        #expect(read.sensorKind == .proximity)
    }

    @Test func stopping() throws {
        let line = #"{"event":"stopping","timestamp":1790000000.1}"#
        #expect(try event(line) == .stopping(StoppingEvent(timestamp: 1790000000.1)))
        #expect(wire(StoppingEvent(timestamp: 1790000000.1)) == line)
    }

    @Test func anEventThisVersionDoesNotKnowIsUnknownNotAnError() throws {
        let line = #"{"event":"lidDidOpen","open":true,"timestamp":1790000000.1}"#
        #expect(try event(line) == .unknown(name: "lidDidOpen"))
        #expect(try event(line).name == "lidDidOpen")
    }

    @Test func membersThisVersionDoesNotKnowAreIgnored() throws {
        let line = #"{"event":"rotationLockDidChange","locked":false,"by":"root","timestamp":1795290914.2}"#
        #expect(try event(line) == .rotationLockDidChange(RotationLockDidChangeEvent(locked: false, timestamp: 1795290914.2)))
    }

    @Test func aKnownEventWithAMemberOfTheWrongKindIsMalformed() throws {
        let sideways = #"{"event":"deviceOrientationDidChange","orientation":"sideways","previous":"portrait","sequence":2,"timestamp":1}"#
        #expect { try read(sideways) } throws: { error in
            guard case .malformed(let what, let reason)? = error as? ServerMessageError else { return false }
            return what == "DeviceOrientationDidChangeEvent" && reason.contains("orientation")
        }
        let fraction = #"{"event":"deviceOrientationDidChange","orientation":"faceUp","previous":"portrait","sequence":2.5,"timestamp":1}"#
        #expect { try read(fraction) } throws: { error in
            guard case .malformed(_, let reason)? = error as? ServerMessageError else { return false }
            return reason == "member sequence: expected an integer that fits Int, got 2.5"
        }
        let missing = #"{"event":"rotationLockDidChange","timestamp":1}"#
        #expect { try read(missing) } throws: { error in
            guard case .malformed(_, let reason)? = error as? ServerMessageError else { return false }
            return reason == "member locked is missing"
        }
    }

    // MARK: Replies

    @Test func orientationResult() throws {
        let line = #"{"id":1,"result":{"orientation":"portrait"}}"#
        let (id, result) = try result(line, as: OrientationResult.self)
        #expect(id == .integer(1))
        #expect(result == OrientationResult(orientation: .portrait))
        #expect(wire(SuccessReply(id: .integer(1), result: result)) == line)
    }

    @Test func pingResult() throws {
        let line = #"{"id":2,"result":{"pong":true}}"#
        let (id, result) = try result(line, as: PingResult.self)
        #expect(id == .integer(2))
        #expect(result == PingResult())
        #expect(wire(SuccessReply(id: .integer(2), result: result)) == line)
    }

    @Test("subscribe results", arguments: [
        #"{"id":"watch","result":{"events":["deviceOrientationDidChange"],"orientation":"portrait","sensorAvailable":true}}"#,
        #"{"id":1,"result":{"events":["interfaceOrientationDidChange","rotationLockDidChange"],"interfaceOrientation":"portrait","locked":false,"orientation":"portrait","rotation":0,"sensorAvailable":true}}"#,
        #"{"id":1,"result":{"angleRate":5,"events":["angles"],"orientation":"portrait","sensorAvailable":true}}"#,
        #"{"id":1,"result":{"events":["tabletModeDidChange"],"hingeAngle":110,"orientation":"portrait","sensorAvailable":true,"tabletMode":false}}"#,
    ])
    func subscribeResult(line: String) throws {
        let (id, result) = try result(line, as: SubscribeResult.self)
        #expect(wire(SuccessReply(id: try #require(id), result: result)) == line)
    }

    @Test func subscribeResultWithTheAmbientSensors() throws {
        let line = #"{"id":1,"result":{"ambientLight":{"level":12.5,"unit":"lux"},"events":["proximityStateDidChange","ambientLightDidChange"],"lightAvailable":true,"orientation":"portrait","proximityAvailable":true,"proximityState":false}}"#
        let expected = SubscribeResult(events: [.proximityStateDidChange, .ambientLightDidChange], orientation: .portrait,
                                       proximityAvailable: true, proximityState: false,
                                       lightAvailable: true, ambientLight: AmbientLight(level: 12.5, unit: .lux))
        #expect(try result(line, as: SubscribeResult.self).result == expected)
        #expect(wire(SuccessReply(id: .integer(1), result: expected)) == line)
    }

    @Test func subscribeResultMembers() throws {
        let line = #"{"id":1,"result":{"events":["interfaceOrientationDidChange","rotationLockDidChange"],"interfaceOrientation":"portrait","locked":false,"orientation":"portrait","rotation":0,"sensorAvailable":true}}"#
        let expected = SubscribeResult(events: [.interfaceOrientationDidChange, .rotationLockDidChange], orientation: .portrait,
                                       interfaceOrientation: .portrait, locked: false, sensorAvailable: true)
        #expect(try result(line, as: SubscribeResult.self).result == expected)
    }

    @Test func lockResults() throws {
        for (line, locked) in [(#"{"id":2,"result":{"locked":true,"persisted":true}}"#, true),
                               (#"{"id":3,"result":{"locked":false,"persisted":true}}"#, false)] {
            let (id, result) = try result(line, as: LockResult.self)
            #expect(result == LockResult(locked: locked, persisted: true))
            #expect(wire(SuccessReply(id: try #require(id), result: result)) == line)
        }
    }

    @Test func statusResult() throws {
        let line = #"{"id":"s","result":{"clients":1,"devices":[{"available":true,"device":"iio:device0 (accel_3d)","id":"local:/accel_3d","location":"display","mountMatrix":[[1,0,0],[0,1,0],[0,0,1]],"mountMatrixSource":"identity (no mount matrix found)","rate":25,"reading":false,"uri":"local:"}],"locked":false,"orientation":"landscapeLeft","protocol":1,"sensor":{"available":true,"device":"iio:device0 (accel_3d)","id":"local:/accel_3d","location":"display","mountMatrix":[[1,0,0],[0,1,0],[0,0,1]],"mountMatrixSource":"identity (no mount matrix found)","rate":25,"reading":false,"uri":"local:"},"server":"orientd 0.1.0","subscribers":0,"uptime":0.4}}"#
        let (id, result) = try result(line, as: StatusResult.self)
        let sensor = SensorStatus(id: "local:/accel_3d", uri: "local:", device: "iio:device0 (accel_3d)", location: .display,
                                  mountMatrix: .identity, mountMatrixSource: "identity (no mount matrix found)", rate: 25, reading: false)
        #expect(id == .string("s"))
        #expect(result == StatusResult(server: "orientd 0.1.0", uptime: 0.4, orientation: .landscapeLeft, locked: false,
                                       clients: 1, subscribers: 0, sensor: sensor, devices: [sensor]))
        #expect(wire(SuccessReply(id: .string("s"), result: result)) == line)
    }

    /// A status from orientd without ambient sensors (the line above) reads with `light` and
    /// `proximity` nil; this one, as orientd sends it now, with them.
    @Test func statusResultWithTheAmbientSensors() throws {
        let line = #"{"id":"s","result":{"clients":1,"devices":[],"light":{"available":true,"device":"iio:device1 (als)","level":120,"reading":true,"unit":"lux"},"locked":false,"orientation":"unknown","protocol":1,"proximity":{"available":true,"device":"iio:device2 (prox)","proximityState":true,"reading":true},"sensor":{"available":false,"device":"none","location":"display","mountMatrix":[[1,0,0],[0,1,0],[0,0,1]],"mountMatrixSource":"","rate":0,"reading":false,"uri":""},"server":"orientd 0.1.0","subscribers":1,"uptime":0.4}}"#
        let (_, result) = try result(line, as: StatusResult.self)
        #expect(result.light == LightSensorStatus(available: true, device: "iio:device1 (als)", reading: true,
                                                  light: AmbientLight(level: 120, unit: .lux)))
        #expect(result.proximity == ProximitySensorStatus(available: true, device: "iio:device2 (prox)", reading: true, proximityState: true))
        #expect(wire(SuccessReply(id: .string("s"), result: result)) == line)
        let asleep = LightSensorStatus(available: true, device: "als", reading: false)
        #expect(wire(asleep) == #"{"available":true,"device":"als","reading":false}"#, "no value while not read, and never null")
    }

    @Test func anErrorReplyIsTheProtocolError() throws {
        let line = #"{"error":{"code":"unknown-method","message":"unknown method 'rotate'; protocol 1 has: get, subscribe, unsubscribe, status, ping, lock, unlock"},"id":2}"#
        let error = ProtocolError(.unknownMethod, "unknown method 'rotate'; protocol 1 has: get, subscribe, unsubscribe, status, ping, lock, unlock")
        #expect(try read(line) == .reply(id: .integer(2), .failure(error)))
        #expect(wire(ErrorReply(id: .integer(2), error: error)) == line)
    }

    @Test func anErrorReplyWithoutAnID() throws {
        let line = #"{"error":{"code":"invalid-json","message":"the request is not valid JSON"}}"#
        let error = ProtocolError(.invalidJSON, "the request is not valid JSON")
        #expect(try read(line) == .reply(id: nil, .failure(error)))
        #expect(wire(ErrorReply(id: nil, error: error)) == line)
    }

    @Test func aResultOfAnotherMethodDoesNotRead() throws {
        guard case .reply(_, .success(let json)) = try read(#"{"id":2,"result":{"pong":true}}"#) else {
            Issue.record("not a result")
            return
        }
        #expect(throws: ServerMessageError.self) { try OrientationResult(result: json) }
    }

    @Test("lines that are no message", arguments: ["nope", "[1,2]", #"{"id":1}"#, #"{"event":7}"#, #"{"id":[1],"result":{}}"#])
    func notMessages(line: String) {
        #expect(throws: ServerMessageError.self) { try read(line) }
    }

    // MARK: Round trips

    @Test func everyEventRoundTrips() throws {
        let events: [ServerEvent] = [
            .hello(HelloEvent(server: "orientd 0.1.0")),
            .deviceOrientationDidChange(DeviceOrientationDidChangeEvent(orientation: .faceDown, previous: .unknown, timestamp: 1.25, sequence: 7)),
            .interfaceOrientationDidChange(InterfaceOrientationDidChangeEvent(interfaceOrientation: .portraitUpsideDown, previous: .landscapeLeft,
                                                                              deviceOrientation: .portraitUpsideDown, timestamp: 2.5)),
            .rotationLockDidChange(RotationLockDidChangeEvent(locked: true, timestamp: 3)),
            .angles(Self.angles(inPlane: 12.35, tilt: -3.21, pitch: 45.68, roll: -0.01, acceleration: Vector3(0.1235, -9.8067, 1.5),
                                raw: Vector3(-1.5, 0.1235, 9.8067), timestamp: 4.125, dropped: 3)),
            .hingeAngleDidChange(HingeAngleDidChangeEvent(hingeAngle: 301.5, problem: nil, timestamp: 5)),
            .hingeAngleDidChange(HingeAngleDidChangeEvent(hingeAngle: nil, problem: "no base accelerometer", timestamp: 5)),
            .tabletModeDidChange(TabletModeDidChangeEvent(tabletMode: false, hingeAngle: nil, timestamp: 6)),
            .sensorAvailability(SensorAvailabilityEvent(available: true, device: "iio:device3 (accel_3d)", reason: nil, timestamp: 7)),
            .sensorAvailability(SensorAvailabilityEvent(available: true, device: "iio:device1 (als)", reason: nil, sensor: .light, timestamp: 7)),
            .proximityStateDidChange(ProximityStateDidChangeEvent(proximityState: false, timestamp: 7.5)),
            .ambientLightDidChange(AmbientLightDidChangeEvent(AmbientLight(level: 0.25, unit: .vendor), timestamp: 7.75)),
            .stopping(StoppingEvent(timestamp: 8)),
        ]
        for event in events {
            guard let payload = Self.payload(of: event) else {
                Issue.record("no payload for \(event)")
                continue
            }
            let line = Wire.line(payload)
            #expect(try ServerMessage(line: line.dropLast()) == .event(event))
            #expect(event.name == Self.name(in: line))
        }
    }

    @Test func everyResultRoundTrips() throws {
        let sensor = SensorStatus(id: "ip:192.0.2.7/accel_3d-base", uri: "ip:192.0.2.7", device: "iio:device1 (accel_3d)", location: .base,
                                  mountMatrix: try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1"),
                                  mountMatrixSource: "udev property ACCEL_MOUNT_MATRIX", rate: 12.5, reading: true,
                                  available: false, problem: "the board went away")
        try roundTrip(OrientationResult(orientation: .faceUp))
        try roundTrip(PingResult())
        try roundTrip(LockResult(locked: true, persisted: false))
        try roundTrip(StatusResult(server: "orientd 0.1.0", uptime: 12.75, orientation: .unknown, locked: true,
                                   clients: 3, subscribers: 2, sensor: .init(uri: "", device: "none", location: .display, mountMatrix: .identity,
                                                                             mountMatrixSource: "none", rate: 0, reading: false),
                                   devices: [sensor]))
        try roundTrip(SubscribeResult(events: EventKind.allCases, orientation: .landscapeRight, interfaceOrientation: .landscapeLeft,
                                      locked: true, angleRate: 7.5, sensorAvailable: false, hingeAngle: 42.5, tabletMode: true,
                                      hingeProblem: nil))
        try roundTrip(SubscribeResult(events: [.hingeAngleDidChange], orientation: .portrait, hingeProblem: "no base accelerometer"))
        try roundTrip(SubscribeResult(events: [.ambientLightDidChange], orientation: .portrait, lightAvailable: false))
        try roundTrip(SubscribeResult(events: [.deviceTiltDidChange], orientation: .portrait, tilt: .tiltedDown))
        try roundTrip(StatusResult(server: "orientd 0.1.0", uptime: 1, orientation: .faceUp, tilt: .faceUp, locked: false, clients: 1, subscribers: 1,
                                   sensor: sensor, light: LightSensorStatus(available: false, device: "none", reading: false),
                                   proximity: ProximitySensorStatus(available: true, device: "prox", reading: true, proximityState: false)))
    }

    private func roundTrip<R: MethodResult>(_ result: R, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let line = Wire.line(SuccessReply(id: .string("r"), result: result))
        guard case .reply(let id, .success(let json)) = try ServerMessage(line: line.dropLast()) else {
            Issue.record("not a result: \(String(decoding: line, as: UTF8.self))", sourceLocation: sourceLocation)
            return
        }
        #expect(id == .string("r"), sourceLocation: sourceLocation)
        #expect(try R(result: json) == result, sourceLocation: sourceLocation)
    }

    private static func payload(of event: ServerEvent) -> (any Encodable)? {
        switch event {
        case .hello(let event): event
        case .deviceOrientationDidChange(let event): event
        case .deviceTiltDidChange(let event): event
        case .interfaceOrientationDidChange(let event): event
        case .rotationLockDidChange(let event): event
        case .angles(let event): event
        case .hingeAngleDidChange(let event): event
        case .tabletModeDidChange(let event): event
        case .proximityStateDidChange(let event): event
        case .ambientLightDidChange(let event): event
        case .sensorAvailability(let event): event
        case .stopping(let event): event
        case .unknown: nil
        }
    }

    /// An angles event with these figures (the daemon computes them from a sample).
    private static func angles(inPlane: Double, tilt: Double, pitch: Double, roll: Double, acceleration: Vector3,
                               raw: Vector3? = nil, timestamp: Double, dropped: Int = 0) -> AnglesEvent {
        var event = AnglesEvent(angles: OrientationAngles(of: acceleration), acceleration: acceleration, raw: raw, timestamp: timestamp, dropped: dropped)
        (event.inPlane, event.tilt, event.pitch, event.roll) = (inPlane, tilt, pitch, roll)
        return event
    }

    private static func name(in line: [UInt8]) -> String? { Wire.decode(line.dropLast())?["event"]?.stringValue }

    // MARK: The documentation

    /// Every line the server sends in docs/protocol.md reads as a known message, and each event
    /// encodes back to the very line (members sorted, as orientd sends them).
    @Test func everyServerLineOfTheDocumentationReads() throws {
        let documentation = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/protocol.md")
        let lines = try String(contentsOf: documentation, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("← ") }.map { String($0.dropFirst(2)) }
        #expect(lines.count > 20)
        for line in lines {
            guard case .event(let event) = try read(line) else { continue }
            guard let payload = Self.payload(of: event) else {
                Issue.record("unknown event \(event.name) in: \(line)")
                continue
            }
            #expect(wire(payload) == line)
        }
    }

    // MARK: Event names

    @Test func theUnaskedEventsAreNotSubscribable() throws {
        for name in [EventName.hello, .sensorAvailability, .stopping] {
            #expect(name.subscribable == nil)
            #expect(EventKind(rawValue: name.rawValue) == nil)
            #expect(throws: ProtocolError.self) { try SubscribeParameters(["events": .array([.string(name.rawValue)])]) }
        }
        #expect(EventName.allCases.compactMap(\.subscribable) == EventKind.allCases)
        #expect(EventKind.allCases.map(\.name.rawValue) == EventKind.allCases.map(\.rawValue))
    }

    /// Each subscribable event wakes its own sensor only; the lock wakes none.
    @Test func eachEventNeedsItsOwnSensor() throws {
        #expect(EventKind.proximityStateDidChange.sensor == .proximity)
        #expect(EventKind.ambientLightDidChange.sensor == .light)
        #expect(EventKind.rotationLockDidChange.sensor == nil)
        #expect(EventKind.allCases.filter(\.needsSensor) == [.deviceOrientationDidChange, .deviceTiltDidChange, .interfaceOrientationDidChange, .angles,
                                                              .hingeAngleDidChange, .tabletModeDidChange])
        let ambient = try SubscribeParameters(["events": .array([.string("proximityStateDidChange"), .string("ambientLightDidChange")])])
        #expect(!ambient.needsSensor, "the ambient events alone do not wake the accelerometer")
        #expect(ambient.needs(.proximity) && ambient.needs(.light))
        #expect(!SubscribeParameters().needs(.light) && !SubscribeParameters().needs(.proximity))
    }
}
