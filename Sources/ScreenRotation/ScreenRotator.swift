import OrientationCore

/// The decisions of `orientctl rotate`, as a pure state machine: orientd's news and the
/// compositor's answers go in, with the time; what to do comes out. The loop around it turns the
/// screen, runs the hook and wakes up at `wakeUpTime` for a retry.
///
/// The rotation lock and the supported orientations need nothing here: orientd applies both to the
/// interface orientation it sends (no change while locked, only supported orientations).
public struct ScreenRotator: Sendable {
    public struct Settings: Sendable {
        /// Turn only while the convertible is a tablet; otherwise keep the panel upright.
        public var tabletModeOnly: Bool
        /// The first wait before trying a failed turn again; it doubles up to `longestRetryDelay`.
        public var firstRetryDelay: Double
        public var longestRetryDelay: Double

        public init(tabletModeOnly: Bool = false, firstRetryDelay: Double = 0.25, longestRetryDelay: Double = 2) {
            self.tabletModeOnly = tabletModeOnly
            self.firstRetryDelay = firstRetryDelay
            self.longestRetryDelay = longestRetryDelay
        }
    }

    public enum Event: Equatable, Sendable {
        /// A (new) subscription to orientd: the interface orientation and tablet mode it starts from.
        case subscribed(InterfaceOrientation, tabletMode: Bool?)
        case interfaceOrientationChanged(InterfaceOrientation)
        case tabletModeChanged(Bool)
        /// The connection to orientd broke: the screen stays as it is until it is back.
        case orientdGone(reason: String)
        /// The last `.turn` worked.
        case turned(PanelRotation)
        /// The last `.turn` failed; `compositorGone` when the compositor could not be reached.
        case turnFailed(reason: String, compositorGone: Bool)
        /// The compositor says what the panel shows now (nil: something the rotator never sets,
        /// such as a flipped transform), for example after its outputs changed.
        case compositorShows(PanelRotation?)
        /// The compositor went away (it quit or restarted): what it will show is unknown.
        case compositorGone(reason: String)
        /// The compositor answers (again): if turning it failed, try at once.
        case compositorBack
        /// The compositor went back to its configuration (sway's `reload`): the panel's transform
        /// and the touch mapping are whatever the config says, so turn it again.
        case compositorReset
        /// Time passed (the loop woke up at `wakeUpTime`).
        case tick
    }

    public enum Action: Equatable, Sendable {
        /// Turn the panel, then report `.turned` or `.turnFailed`.
        case turn(PanelRotation)
        /// Run the user's hook: the panel now shows this rotation.
        case runHook(PanelRotation)
        /// A line for the log.
        case log(String)
    }

    public let settings: Settings
    /// The interface orientation orientd sends; nil before the first subscription.
    public private(set) var interfaceOrientation: InterfaceOrientation?
    /// Whether the convertible is a tablet; nil while orientd cannot tell.
    public private(set) var tabletMode: Bool?
    /// What the panel shows, as far as the rotator knows; nil when unknown.
    public private(set) var shown: PanelRotation?
    /// When to try a failed turn again; nil when no retry is pending.
    public private(set) var wakeUpTime: Double?
    private var retryDelay: Double
    /// Why turning fails, while it does (said once, not at every retry).
    private var failure: String?

    public init(settings: Settings = Settings()) {
        self.settings = settings
        retryDelay = settings.firstRetryDelay
    }

    /// The rotation the panel should show: orientd's interface orientation, or upright when
    /// `tabletModeOnly` and the convertible is not (known to be) a tablet. nil before orientd spoke.
    public var wanted: PanelRotation? {
        guard let interfaceOrientation else { return nil }
        if settings.tabletModeOnly && tabletMode != true { return .upright }
        return PanelRotation(interfaceOrientation)
    }

    public mutating func handle(_ event: Event, at time: Double) -> [Action] {
        var actions: [Action] = []
        switch event {
        case .subscribed(let interface, let tablet):
            interfaceOrientation = interface
            tabletMode = tablet
        case .interfaceOrientationChanged(let interface):
            interfaceOrientation = interface
        case .tabletModeChanged(let tablet):
            tabletMode = tablet
        case .orientdGone(let reason):
            actions.append(.log("lost orientd (\(reason)); the screen stays as it is until orientd is back"))
            return actions
        case .turned(let rotation):
            shown = rotation
            wakeUpTime = nil
            retryDelay = settings.firstRetryDelay
            if failure != nil {
                actions.append(.log("the compositor answers again: screen turned to \(rotation)"))
                failure = nil
            }
            actions.append(.runHook(rotation))
            return actions
        case .turnFailed(let reason, let compositorGone):
            shown = nil
            if failure != reason {
                let waiting = compositorGone ? "waiting for it: " : ""
                actions.append(.log("could not turn the screen: \(reason); \(waiting)trying again in \(formatDecimal(retryDelay)) s, "
                    + "then every \(formatDecimal(settings.longestRetryDelay)) s at most"))
            }
            failure = reason
            wakeUpTime = time + retryDelay
            retryDelay = min(retryDelay * 2, settings.longestRetryDelay)
            return actions
        case .compositorShows(let rotation):
            shown = rotation
        case .compositorGone(let reason):
            shown = nil
            if failure == nil {
                actions.append(.log("the compositor went away (\(reason)); turning the screen again when it is back"))
                failure = reason
            }
            return actions
        case .compositorBack:
            guard failure != nil else { return actions }
            shown = nil
            wakeUpTime = nil
            retryDelay = settings.firstRetryDelay
        case .compositorReset:
            shown = nil
            wakeUpTime = nil
        case .tick:
            break
        }
        guard let wanted else { return actions }
        if wanted == shown {
            // Shown after all (a turn that timed out but took effect): nothing left to retry.
            if failure != nil { actions.append(.log("the screen shows \(wanted) now")) }
            failure = nil
            wakeUpTime = nil
            retryDelay = settings.firstRetryDelay
        } else if wakeUpTime.map({ time >= $0 }) ?? true {
            wakeUpTime = nil
            actions.append(.turn(wanted))
        }
        return actions
    }
}
