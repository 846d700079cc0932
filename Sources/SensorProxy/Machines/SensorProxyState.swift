import OrientationCore
import OrientdHub
import OrientdProtocol

/// Everything the D-Bus face decides, as a pure step function: who claims which sensor (each
/// sensor's first claim holds it in the hub, as a socket subscriber does; the last release, or
/// the last claimer leaving the bus, lets it go), which calls polkit is asked about and within
/// which limits, when a claim is answered, what the properties show of the hub's facts, and who
/// is told of a change. Time is passed in; `SensorProxyBus` performs the actions, and the C shim
/// only carries messages.
///
/// A claim is answered once the hub says the claimed sensor's value is fresh (`awaitFresh`, the
/// wait a socket client's `get` and `subscribe` share), so that a client's `Get` right after
/// `ClaimAccelerometer` (mutter's way) sees the real orientation; at once when the sensor is
/// absent; and after `limits.settleAfter` seconds at the latest, with what is known.
public struct SensorProxyState: Sendable {
    public enum Event: Equatable, Sendable {
        /// A Claim… or Release… call.
        case called(ProxyRequest, at: Double)
        /// polkit's answer about a call `askPolkit` asked about.
        case polkitAnswered(ProxyCall, PolkitAnswer, at: Double)
        /// A client left the bus: its claims go, and answers to it are dropped.
        case clientLeft(String)
        /// What the hub holds now.
        case facts(HubFacts)
        /// The hub says the sensor's value is fresh (the wait `awaitFresh` began is over).
        case fresh(HubSensor)
        case time(Double)
    }

    public enum Action: Equatable, Sendable {
        case holdSensor(HubSensor)
        case releaseSensor(HubSensor)
        /// Ask the hub to say when the sensor's value is fresh; the answer comes as `fresh`.
        case awaitFresh(HubSensor)
        /// Answer the call (success).
        case reply(ProxyCall)
        case refuse(ProxyCall, ProxyRefusal)
        /// Ask polkit whether the call's sender may make it; the answer comes as `polkitAnswered`.
        case askPolkit(ProxyCall)
        /// The caller left the bus: let the call go unanswered.
        case forget(ProxyCall)
        case emit(ProxySignal)
        /// Whether polkit answers changed: a claim that needs it is refused while it does not.
        case polkitReachable(Bool, reason: String)
    }

    /// A sensor's claims.
    private enum Claims: Equatable, Sendable {
        case unclaimed
        /// Claimed, and not known fresh since: claims wait in `held` until the hub says it is,
        /// or `settleBy`.
        case awaitingReading(held: [HeldClaim], settleBy: Double?)
        /// Claimed, and fresh since the claims began: a claim is answered at once.
        case current
    }

    private struct HeldClaim: Equatable, Sendable {
        let call: ProxyCall
        let sender: String
    }

    /// A call waiting for polkit. `vanished`: its sender left meanwhile; the answer is dropped.
    private struct PolkitQuestion: Equatable, Sendable {
        let request: ProxyRequest
        var vanished = false
    }

    public let limits: ProxyLimits
    /// Whether claims (and releases that change something) are authorized by polkit, as
    /// iio-sensor-proxy 3.4 and later do. The compass is not (geoclue claims it as a system user).
    public let checksPolkit: Bool

    public private(set) var accelerometer = ProxyAccelerometer()
    public private(set) var light = ProxyLight()
    public private(set) var proximity = ProxyProximity()
    public private(set) var compass = ProxyCompass()

    /// The clients that claim a sensor, in the order they first claimed, with what they claim.
    private var claimers: [(name: String, sensors: Set<HubSensor>)] = []

    /// Each client's claims (its unique bus name), in the order the clients first claimed.
    public var claimsByClient: [(client: String, sensors: [HubSensor])] {
        claimers.map { ($0.name, $0.sensors.sorted { $0.rawValue < $1.rawValue }) }
    }
    private var claims: [HubSensor: Claims] = [:]
    private var polkitQuestions: [ProxyCall: PolkitQuestion] = [:]
    private var polkitAnswers = true
    /// The sensors the hub was asked about (`awaitFresh`) and has not answered yet: one question
    /// a sensor at most, however often clients claim and release it.
    private var askedHub: Set<HubSensor> = []
    /// The sensors claimed at least once since the start: their values are shown (`value(of:)`).
    private var everClaimed: Set<HubSensor> = []

    public init(limits: ProxyLimits = ProxyLimits(), checksPolkit: Bool = false) {
        self.limits = limits
        self.checksPolkit = checksPolkit
    }

    // MARK: Queries

    /// Whether a claim waits for the sensor's next reading.
    public func awaitsReading(_ sensor: HubSensor) -> Bool {
        if case .awaitingReading(let held, _) = claims[sensor, default: .unclaimed] { return !held.isEmpty }
        return false
    }

    /// The earliest moment a waiting claim must be answered, if any waits.
    public var nextDeadline: Double? {
        claims.values.compactMap { claims -> Double? in
            guard case .awaitingReading(_, let settleBy) = claims else { return nil }
            return settleBy
        }.min()
    }

    /// The clients that claim `sensor`, in the order they claimed.
    public func claimers(of sensor: HubSensor) -> [String] {
        claimers.filter { $0.sensors.contains(sensor) }.map(\.name)
    }

    /// Every call waiting for an answer (held for a reading, or asked of polkit).
    public var unansweredCalls: [ProxyCall] {
        HubSensor.allCases.flatMap { heldClaims(of: $0).map(\.call) } + polkitQuestions.keys
    }

    /// What a client reads: until a sensor's first claim, its values are iio-sensor-proxy's
    /// defaults (`undefined`, 0 lux, far), as 3.9 shows them (it reads nothing before), whatever
    /// the hub knows for its socket clients; whether it is there is always true.
    public func value(of property: ProxyProperty) -> ProxyValue {
        guard property.isPresence || everClaimed.contains(property.sensor) else { return Self.unclaimed.stored(property) }
        return stored(property)
    }

    /// Nothing claimed, nothing known: every default.
    private static let unclaimed = SensorProxyState()

    private func stored(_ property: ProxyProperty) -> ProxyValue {
        switch property {
        case .hasAccelerometer: .boolean(accelerometer.present)
        case .accelerometerOrientation: .text(accelerometer.orientation)
        case .accelerometerTilt: .text(accelerometer.tilt)
        case .hasAmbientLight: .boolean(light.present)
        case .lightLevelUnit: .text(light.unit)
        case .lightLevel: .number(light.level)
        case .hasProximity: .boolean(proximity.present)
        case .proximityNear: .boolean(proximity.near)
        case .hasCompass: .boolean(compass.present)
        case .compassHeading: .number(compass.heading)
        }
    }

    // MARK: Events

    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .called(let request, let time):
            return called(request, at: time)
        case .polkitAnswered(let call, let answer, let time):
            return polkitAnswered(call, answer, at: time)
        case .clientLeft(let name):
            return clientLeft(name)
        case .facts(let facts):
            return show(facts)
        case .fresh(let sensor):
            askedHub.remove(sensor)
            guard case .awaitingReading(let held, _) = claims[sensor, default: .unclaimed] else { return [] }
            claims[sensor] = .current
            return held.map { .reply($0.call) }
        case .time(let now):
            return HubSensor.allCases.flatMap { sensor -> [Action] in
                guard case .awaitingReading(let held, let settleBy?) = claims[sensor, default: .unclaimed], settleBy <= now else { return [] }
                claims[sensor] = .awaitingReading(held: [], settleBy: nil)
                return held.map { .reply($0.call) }
            }
        }
    }

    // MARK: The hub's facts

    /// The hub's facts as iio-sensor-proxy's properties: a value the hub does not know right now
    /// (asleep, not read yet) keeps what was shown.
    private mutating func show(_ facts: HubFacts) -> [Action] {
        var light = ProxyLight()
        if facts.lightAvailable {
            light = self.light
            light.present = true
            if let value = facts.light { (light.level, light.unit) = (value.level, value.unit.rawValue) }
        }
        var proximity = ProxyProximity()
        if facts.proximityAvailable {
            proximity = self.proximity
            proximity.present = true
            if let near = facts.proximityNear { proximity.near = near }
        }
        var compass = ProxyCompass()
        if facts.compassAvailable {
            compass = self.compass
            compass.present = true
            if let heading = facts.compassHeading { compass.heading = heading }
        }
        return accelerometer(present: facts.accelerometerAvailable) + (facts.accelerometerAvailable ? follow(facts.orientation, tilt: facts.tilt) : [])
            + change(\.light, to: light, .light, present: \.present)
            + change(\.proximity, to: proximity, .proximity, present: \.present)
            + change(\.compass, to: compass, .compass, present: \.present)
    }

    private mutating func accelerometer(present: Bool) -> [Action] {
        guard present != accelerometer.present else { return [] }
        let previous = accelerometer
        accelerometer = ProxyAccelerometer()
        accelerometer.present = present
        return signals(.accelerometer, presenceChanged: true, from: previous) + (present ? [] : gone(.accelerometer))
    }

    private mutating func follow(_ orientation: Orientation, tilt: DeviceTilt) -> [Action] {
        var next = accelerometer
        next.follow(orientation, tilt: tilt)
        guard next != accelerometer else { return [] }
        let previous = accelerometer
        accelerometer = next
        return signals(.accelerometer, presenceChanged: false, from: previous)
    }

    /// An ambient sensor's properties now `new`: the signals for what changed.
    private mutating func change<Value: Equatable>(_ path: WritableKeyPath<SensorProxyState, Value>, to new: Value,
                                                   _ sensor: HubSensor, present: KeyPath<Value, Bool>) -> [Action] {
        let old = self[keyPath: path]
        self[keyPath: path] = new
        return changed(sensor, presence: old[keyPath: present] != new[keyPath: present], values: old != new, present: new[keyPath: present])
    }

    // MARK: Calls

    private mutating func called(_ request: ProxyRequest, at time: Double) -> [Action] {
        // A call that changes nothing (a claim of what one holds, a release of what one does not)
        // costs polkit nothing; nor does the compass.
        let changes = request.claiming != holds(request.sender, request.sensor)
        guard checksPolkit, request.sensor != .compass, changes else { return perform(request, at: time) }
        let asked = polkitQuestions.values.filter { $0.request.sender == request.sender }.count
        guard polkitQuestions.count < limits.polkitQuestions, asked < limits.polkitQuestionsPerClient else {
            return [.refuse(request.call, .tooManyPolkitQuestions)]
        }
        precondition(polkitQuestions[request.call] == nil, "call \(request.call) asked of polkit twice")
        polkitQuestions[request.call] = PolkitQuestion(request: request)
        return [.askPolkit(request.call)]
    }

    private mutating func polkitAnswered(_ call: ProxyCall, _ answer: PolkitAnswer, at time: Double) -> [Action] {
        guard let question = polkitQuestions.removeValue(forKey: call) else {
            assertionFailure("polkit answered about call \(call), which it was not asked about")
            return []
        }
        guard !question.vanished else { return [.forget(call)] }
        switch answer {
        case .authorized:
            return reachability(true, "") + perform(question.request, at: time)
        case .denied:
            return reachability(true, "") + [.refuse(call, .notAuthorized("Sensor claim not allowed"))]
        case .unreachable(let why):
            return reachability(false, why) + [.refuse(call, .notAuthorized(why))]
        case .failed(let why):
            return [.refuse(call, .notAuthorized(why))]
        }
    }

    private mutating func reachability(_ reachable: Bool, _ reason: String) -> [Action] {
        guard reachable != polkitAnswers else { return [] }
        polkitAnswers = reachable
        return [.polkitReachable(reachable, reason: reason)]
    }

    private mutating func perform(_ request: ProxyRequest, at time: Double) -> [Action] {
        request.claiming ? claim(request, at: time) : release(request)
    }

    private mutating func claim(_ request: ProxyRequest, at time: Double) -> [Action] {
        let sensor = request.sensor
        var actions: [Action] = []
        let newcomer = !holds(request.sender, sensor)
        if let index = claimers.firstIndex(where: { $0.name == request.sender }) {
            claimers[index].sensors.insert(sensor)
        } else {
            guard claimers.count < limits.claimers else { return [.refuse(request.call, .tooManyClaimers)] }
            claimers.append((request.sender, [sensor]))
        }
        everClaimed.insert(sensor)
        if newcomer {
            // The client may have cached the values before any claim, when they read as the
            // defaults (GDBus proxies cache them): it is told what they are, one property a
            // signal, as changes are told. A value still at its default needs no word.
            let shown = ProxyProperty.allCases.filter { $0.sensor == sensor && !$0.isPresence && stored($0) != Self.unclaimed.stored($0) }
            actions += shown.map { .emit(ProxySignal([$0], to: [request.sender])) }
        }
        if claims[sensor, default: .unclaimed] == .unclaimed {
            claims[sensor] = .awaitingReading(held: [], settleBy: nil)
            actions.append(.holdSensor(sensor))
        }
        switch claims[sensor, default: .unclaimed] {
        case .unclaimed:
            preconditionFailure("the \(sensor) was claimed just now")
        case .current:
            actions.append(.reply(request.call))
        case .awaitingReading(var held, let settleBy):
            if !isPresent(sensor) || held.count >= limits.heldClaims {
                actions.append(.reply(request.call))
            } else {
                // The hub is asked once; every claim held waits for the same answer.
                if askedHub.insert(sensor).inserted { actions.append(.awaitFresh(sensor)) }
                held.append(HeldClaim(call: request.call, sender: request.sender))
                claims[sensor] = .awaitingReading(held: held, settleBy: settleBy ?? time + limits.settleAfter)
            }
        }
        return actions
    }

    private mutating func release(_ request: ProxyRequest) -> [Action] {
        dropClaim(of: request.sender, on: request.sensor) + [.reply(request.call)]
    }

    /// `sender` no longer claims `sensor`; the last claim lets the sensor go, answering the claims
    /// still held for it (a client that released before its answer still gets one).
    private mutating func dropClaim(of sender: String, on sensor: HubSensor) -> [Action] {
        guard let index = claimers.firstIndex(where: { $0.name == sender }), claimers[index].sensors.contains(sensor) else { return [] }
        claimers[index].sensors.remove(sensor)
        if claimers[index].sensors.isEmpty { claimers.remove(at: index) }
        guard claimers.allSatisfy({ !$0.sensors.contains(sensor) }) else { return [] }
        let held = heldClaims(of: sensor)
        claims[sensor] = .unclaimed
        return held.map { .reply($0.call) } + [.releaseSensor(sensor)]
    }

    private mutating func clientLeft(_ name: String) -> [Action] {
        for (call, question) in polkitQuestions where question.request.sender == name {
            polkitQuestions[call]?.vanished = true
        }
        var actions: [Action] = []
        for sensor in HubSensor.allCases {
            // Its claims waiting for a reading go unanswered.
            if case .awaitingReading(let held, let settleBy) = claims[sensor, default: .unclaimed], held.contains(where: { $0.sender == name }) {
                let (theirs, others) = (held.filter { $0.sender == name }, held.filter { $0.sender != name })
                actions += theirs.map { .forget($0.call) }
                claims[sensor] = .awaitingReading(held: others, settleBy: others.isEmpty ? nil : settleBy)
            }
            actions += dropClaim(of: name, on: sensor)
        }
        return actions
    }

    private func holds(_ sender: String, _ sensor: HubSensor) -> Bool {
        claimers.contains { $0.name == sender && $0.sensors.contains(sensor) }
    }

    private func heldClaims(of sensor: HubSensor) -> [HeldClaim] {
        if case .awaitingReading(let held, _) = claims[sensor, default: .unclaimed] { return held }
        return []
    }

    // MARK: Properties

    /// Whether orientd has the sensor now (its `Has…` property).
    public func isPresent(_ sensor: HubSensor) -> Bool {
        switch sensor {
        case .accelerometer: accelerometer.present
        case .light: light.present
        case .proximity: proximity.present
        case .compass: compass.present
        }
    }

    /// A sensor went away: the claims waiting for it are answered (with `Has…` false), and a
    /// claim made after it comes back waits for its first reading again.
    private mutating func gone(_ sensor: HubSensor) -> [Action] {
        guard claims[sensor, default: .unclaimed] != .unclaimed else { return [] }
        let held = heldClaims(of: sensor)
        claims[sensor] = .awaitingReading(held: [], settleBy: nil)
        return held.map { .reply($0.call) }
    }

    private mutating func changed(_ sensor: HubSensor, presence: Bool, values: Bool, present: Bool) -> [Action] {
        guard values else { return [] }
        return signals(sensor, presenceChanged: presence, from: nil) + (presence && !present ? gone(sensor) : [])
    }

    /// The signals that tell the sensor's claimers of a change, in iio-sensor-proxy's order: on
    /// the sensor's coming, its presence and values together; on its going, its presence alone;
    /// else the values that changed (the accelerometer's orientation in a signal of its own:
    /// iio-sway and iio-hyprland read only a signal's first property).
    private func signals(_ sensor: HubSensor, presenceChanged: Bool, from previous: ProxyAccelerometer?) -> [Action] {
        let destinations = claimers(of: sensor)
        guard !destinations.isEmpty else { return [] }
        let properties = ProxyProperty.allCases.filter { $0.sensor == sensor }
        let (presence, values) = (properties[0], Array(properties.dropFirst()))
        let lists: [[ProxyProperty]]
        if presenceChanged {
            lists = [isPresent(sensor) ? properties : [presence]]
        } else if let previous {
            lists = [previous.orientation != accelerometer.orientation ? [.accelerometerOrientation] : [],
                     previous.tilt != accelerometer.tilt ? [.accelerometerTilt] : []]
        } else {
            lists = [values]
        }
        return lists.filter { !$0.isEmpty }.map { .emit(ProxySignal($0, to: destinations)) }
    }
}
