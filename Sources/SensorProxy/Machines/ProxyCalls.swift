import OrientdHub

/// A Claim… or Release… call waiting for its answer: the C shim's handle on the message, as a
/// number (unique while the call is unanswered, which is as long as anyone refers to it).
public typealias ProxyCall = UInt

/// One Claim… or Release… call, as the C shim decoded it.
public struct ProxyRequest: Equatable, Sendable {
    public let call: ProxyCall
    /// The caller's unique bus name (":1.42").
    public let sender: String
    public let sensor: HubSensor
    /// Claim (true) or Release (false).
    public let claiming: Bool

    public init(_ call: ProxyCall, from sender: String, claiming: Bool, _ sensor: HubSensor) {
        self.call = call
        self.sender = sender
        self.sensor = sensor
        self.claiming = claiming
    }
}

/// What polkit said to `CheckAuthorization` for a claim or release.
public enum PolkitAnswer: Equatable, Sendable {
    case authorized
    case denied
    /// polkit is not running, or did not answer in time: why.
    case unreachable(String)
    /// polkit answered with an error: which.
    case failed(String)
}

/// Why a call is refused: a D-Bus error name and its message.
public enum ProxyRefusal: Equatable, Sendable {
    /// More clients claim sensors than orientd keeps track of.
    case tooManyClaimers
    /// Too many polkit questions in flight, from all clients or from this one.
    case tooManyPolkitQuestions
    /// polkit said no, or could not be asked: why.
    case notAuthorized(String)

    public var errorName: String {
        switch self {
        case .tooManyClaimers, .tooManyPolkitQuestions: "org.freedesktop.DBus.Error.LimitsExceeded"
        case .notAuthorized: "org.freedesktop.DBus.Error.AccessDenied"
        }
    }

    public var message: String {
        switch self {
        case .tooManyClaimers: "Too many clients claim sensors; try again later"
        case .tooManyPolkitQuestions: "Too many claims waiting for polkit; try again"
        case .notAuthorized(let why): "Not Authorized: \(why)"
        }
    }
}

/// What no local user can make orientd exceed. Past `claimers` clients claiming at once, or past
/// the polkit questions in flight (in all, and of one client), a call is refused with
/// LimitsExceeded: nobody can make orientd hold more, nor make the bus refuse orientd's own calls
/// to polkit. Past `heldClaims` claims of one sensor waiting for its reading, a claim is answered
/// at once (with what is known).
public struct ProxyLimits: Equatable, Sendable {
    public var claimers = 512
    public var heldClaims = 256
    public var polkitQuestions = 64
    public var polkitQuestionsPerClient = 2
    /// Seconds a claim waits for the sensor's reading at most; then it is answered with what is known.
    public var settleAfter = 2.0

    public init() {}
}
