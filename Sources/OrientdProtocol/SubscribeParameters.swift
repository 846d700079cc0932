import OrientationCore

/// What a `subscribe` request asks for. Every member is optional:
/// - `events`: names of the events to receive (default: `["deviceOrientationDidChange"]`);
/// - `orientations`: device orientations whose `deviceOrientationDidChange` is wanted (default: all);
/// - `supportedInterfaceOrientations`: the interface orientations the client can draw, in its order
///   of preference, or `UIInterfaceOrientationMask`'s `landscape`, `allButUpsideDown`, `all`
///   (default: all four);
/// - `angleRate`: `angles` samples per second, at most the sensor's rate (default: the sensor's rate).
public struct SubscribeParameters: Equatable, Sendable {
    public var events: [EventKind] = [.deviceOrientationDidChange]
    public var orientations: Set<Orientation> = Set(Orientation.allCases)
    public var supportedInterfaceOrientations: [InterfaceOrientation] = [.portrait, .landscapeLeft, .landscapeRight, .portraitUpsideDown]
    public var angleRate: Double?
    /// One sample every 100 s: below that, nobody is watching angles (and 1e-320 would make the
    /// interval between samples infinite).
    public static let slowestAngleRate = 0.01

    public init() {}

    /// What a client asks for; what it leaves out is the default.
    public init(events: [EventKind], orientations: Set<Orientation> = Set(Orientation.allCases),
                supportedInterfaceOrientations: [InterfaceOrientation] = [.portrait, .landscapeLeft, .landscapeRight, .portraitUpsideDown],
                angleRate: Double? = nil) {
        self.events = events
        self.orientations = orientations
        self.supportedInterfaceOrientations = supportedInterfaceOrientations
        self.angleRate = angleRate
    }

    /// The members of a `subscribe` request that asks for these parameters (and names `device`,
    /// if any): what differs from the defaults, so a request stays as short as one written by hand.
    public func request(device: String? = nil) -> [String: JSONValue] {
        var members: [String: JSONValue] = ["events": .array(events.map { .string($0.rawValue) })]
        if orientations != Set(Orientation.allCases) {
            members["orientations"] = .array(orientations.map(\.rawValue).sorted().map { .string($0) })
        }
        if supportedInterfaceOrientations != Self().supportedInterfaceOrientations {
            members["supportedInterfaceOrientations"] = .array(supportedInterfaceOrientations.map { .string($0.rawValue) })
        }
        if let angleRate {
            members["angleRate"] = angleRate == angleRate.rounded() && abs(angleRate) < 1e15 ? .integer(Int64(angleRate)) : .number(angleRate)
        }
        if let device { members["device"] = .string(device) }
        return members
    }

    /// Reads the parameters of a request; an invalid one is an `invalid-params` error naming it.
    public init(_ parameters: [String: JSONValue]) throws(ProtocolError) {
        if let value = parameters["events"] {
            events = try Self.names(value, member: "events", as: EventKind.self)
            if events.isEmpty { throw Self.invalid("\"events\" must name at least one event") }
        }
        if let value = parameters["orientations"] {
            orientations = Set(try Self.names(value, member: "orientations", as: Orientation.self))
        }
        if let value = parameters["supportedInterfaceOrientations"] {
            supportedInterfaceOrientations = try Self.names(Self.expandingMasks(value), member: "supportedInterfaceOrientations", as: InterfaceOrientation.self)
            if supportedInterfaceOrientations.isEmpty {
                throw Self.invalid("\"supportedInterfaceOrientations\" must name at least one orientation")
            }
        }
        switch parameters["angleRate"] {
        case nil: break
        case .integer(let rate) where rate > 0: angleRate = Double(rate)
        case .number(let rate) where rate >= Self.slowestAngleRate && rate.isFinite: angleRate = rate
        default: throw Self.invalid("\"angleRate\" must be a number of samples per second, at least \(Self.slowestAngleRate)")
        }
    }

    /// `UIInterfaceOrientationMask`'s combined names, in the order of preference they stand for.
    public static let interfaceOrientationMasks: [String: [InterfaceOrientation]] = [
        "landscape": [.landscapeLeft, .landscapeRight],
        "allButUpsideDown": [.portrait, .landscapeLeft, .landscapeRight],
        "all": [.portrait, .landscapeLeft, .landscapeRight, .portraitUpsideDown],
    ]

    private static func expandingMasks(_ value: JSONValue) -> JSONValue {
        guard case .array(let items) = value else { return value }
        return .array(items.flatMap { item in
            item.stringValue.flatMap { interfaceOrientationMasks[$0] }.map { $0.map { JSONValue.string($0.rawValue) } } ?? [item]
        })
    }

    /// Whether anything subscribed needs the accelerometer read.
    public var needsSensor: Bool { events.contains(where: \.needsSensor) }

    /// Whether anything subscribed needs `sensor` read.
    public func needs(_ sensor: SensorKind) -> Bool { events.contains { $0.sensor == sensor } }

    private static func names<Name: RawRepresentable & CaseIterable & Equatable>(_ value: JSONValue, member: String, as: Name.Type) throws(ProtocolError) -> [Name]
    where Name.RawValue == String {
        let known = Name.allCases.map(\.rawValue).joined(separator: ", ")
        guard case .array(let items) = value else {
            throw invalid("\"\(member)\" must be an array of names: \(known)")
        }
        var names: [Name] = []
        for item in items {
            guard let text = item.stringValue, let name = Name(rawValue: text) else {
                throw invalid("\"\(member)\" holds \(item.compactDescription), which is not one of: \(known)")
            }
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    private static func invalid(_ message: String) -> ProtocolError { ProtocolError(.invalidParameters, message) }
}

extension JSONValue {
    /// The value as compact JSON, for error messages.
    public var compactDescription: String { String(decoding: Wire.line(self).dropLast(), as: UTF8.self) }
}
