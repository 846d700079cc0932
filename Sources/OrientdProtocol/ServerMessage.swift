/// Every event the server sends, as its type; `unknown` for one this client does not know (a
/// later version of the protocol may add some: a client ignores them).
public enum ServerEvent: Equatable, Sendable {
    case hello(HelloEvent)
    case deviceOrientationDidChange(DeviceOrientationDidChangeEvent)
    case deviceTiltDidChange(DeviceTiltDidChangeEvent)
    case interfaceOrientationDidChange(InterfaceOrientationDidChangeEvent)
    case rotationLockDidChange(RotationLockDidChangeEvent)
    case angles(AnglesEvent)
    case hingeAngleDidChange(HingeAngleDidChangeEvent)
    case tabletModeDidChange(TabletModeDidChangeEvent)
    case proximityStateDidChange(ProximityStateDidChangeEvent)
    case ambientLightDidChange(AmbientLightDidChangeEvent)
    case sensorAvailability(SensorAvailabilityEvent)
    case stopping(StoppingEvent)
    case unknown(name: String)

    /// Reads an event object (`{"event": NAME, ...}`) by its name.
    public init(_ json: JSONValue) throws(ServerMessageError) {
        guard case .object(let members) = json else { throw .notAMessage(json) }
        guard case .string(let text)? = members["event"] else {
            throw .malformed(what: "event", reason: "\"event\" must be a string, in \(json.compactDescription)")
        }
        guard let name = EventName(rawValue: text) else {
            self = .unknown(name: text)
            return
        }
        switch name {
        case .hello: self = .hello(try json.decoded(as: HelloEvent.self))
        case .deviceOrientationDidChange: self = .deviceOrientationDidChange(try json.decoded(as: DeviceOrientationDidChangeEvent.self))
        case .deviceTiltDidChange: self = .deviceTiltDidChange(try json.decoded(as: DeviceTiltDidChangeEvent.self))
        case .interfaceOrientationDidChange: self = .interfaceOrientationDidChange(try json.decoded(as: InterfaceOrientationDidChangeEvent.self))
        case .rotationLockDidChange: self = .rotationLockDidChange(try json.decoded(as: RotationLockDidChangeEvent.self))
        case .angles: self = .angles(try json.decoded(as: AnglesEvent.self))
        case .hingeAngleDidChange: self = .hingeAngleDidChange(try json.decoded(as: HingeAngleDidChangeEvent.self))
        case .tabletModeDidChange: self = .tabletModeDidChange(try json.decoded(as: TabletModeDidChangeEvent.self))
        case .proximityStateDidChange: self = .proximityStateDidChange(try json.decoded(as: ProximityStateDidChangeEvent.self))
        case .ambientLightDidChange: self = .ambientLightDidChange(try json.decoded(as: AmbientLightDidChangeEvent.self))
        case .sensorAvailability: self = .sensorAvailability(try json.decoded(as: SensorAvailabilityEvent.self))
        case .stopping: self = .stopping(try json.decoded(as: StoppingEvent.self))
        }
    }

    /// What the event's `"event"` member holds.
    public var name: String {
        switch self {
        case .hello(let event): event.event
        case .deviceOrientationDidChange(let event): event.event
        case .deviceTiltDidChange(let event): event.event
        case .interfaceOrientationDidChange(let event): event.event
        case .rotationLockDidChange(let event): event.event
        case .angles(let event): event.event
        case .hingeAngleDidChange(let event): event.event
        case .tabletModeDidChange(let event): event.event
        case .proximityStateDidChange(let event): event.event
        case .ambientLightDidChange(let event): event.event
        case .sensorAvailability(let event): event.event
        case .stopping(let event): event.event
        case .unknown(let name): name
        }
    }
}

/// One line from the server, read: an event, or the reply to a request (its `result`, left as JSON
/// until the caller, who knows the method, reads it as that method's result type; or its error).
/// The id of a reply is nil when the server could not read the request's.
public enum ServerMessage: Equatable, Sendable {
    case event(ServerEvent)
    case reply(id: RequestID?, Result<JSONValue, ProtocolError>)

    /// Reads a line (without its newline).
    public init<Bytes: Collection<UInt8>>(line: Bytes) throws(ServerMessageError) {
        guard let json = Wire.decode(line) else { throw .notJSON(line: String(decoding: line, as: UTF8.self)) }
        try self.init(json)
    }

    /// Reads a line already parsed as JSON.
    public init(_ json: JSONValue) throws(ServerMessageError) {
        guard case .object(let members) = json else { throw .notAMessage(json) }
        if members["event"] != nil {
            self = .event(try ServerEvent(json))
            return
        }
        let id = try members["id"].map { value throws(ServerMessageError) in try value.decoded(as: RequestID.self) }
        if let error = members["error"] {
            self = .reply(id: id, .failure(try error.decoded(as: ProtocolError.self)))
        } else if let result = members["result"] {
            self = .reply(id: id, .success(result))
        } else {
            throw .notAMessage(json)
        }
    }
}

/// A line from the server that is not a message of protocol v1.
public enum ServerMessageError: Error, Equatable, Sendable, CustomStringConvertible {
    case notJSON(line: String)
    /// JSON, but neither an event nor a reply.
    case notAMessage(JSONValue)
    /// A known event, a result or an error whose members do not read as its type.
    case malformed(what: String, reason: String)

    public var description: String {
        switch self {
        case .notJSON(let line): "a line that is not JSON: \(line)"
        case .notAMessage(let json): "neither an event nor a reply: \(json.compactDescription)"
        case .malformed(let what, let reason): "a \(what) that does not read: \(reason)"
        }
    }
}
