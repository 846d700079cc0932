import OrientationCore

/// What the readings of one context mean for its hub, as a pure state machine: readings in,
/// actions out (publish a change, the angles, the hinge; tell the hub the sensor opened, slept,
/// was lost or was read; say what the log should say). It holds the classifier, the tablet-mode
/// detector and which accelerometer is the display's and which the base's; it never logs, locks
/// or reads a clock: the times are the readings'.
///
/// When the sensor sleeps for want of demand, or is (re)opened, whatever the device did meanwhile
/// is unknown: the first reading after decides afresh.
public struct ReadingPipeline: Sendable {
    public enum Action: Equatable, Sendable {
        /// The sensor sleeps: the hub's orientation may go stale.
        case sensorPaused
        /// The sensor opened with these accelerometers, the display one first.
        case sensorOpened([SensorInfo])
        case sensorLost(reason: String)
        /// How the still display accelerometer is watched, in words (for `status`).
        case stillWatch(StillDeviceWatch)
        case hinge(TabletModeDetector.State)
        /// `raw`: the sample before the mount matrix, where known.
        case angles(OrientationAngles, acceleration: Vector3, raw: Vector3?, time: Double)
        case orientationChanged(OrientationChange)
        /// The display's tilt step changed (`DeviceTilt`): unknown when the orientation is.
        case tiltChanged(DeviceTilt)
        /// The display accelerometer was read (or tried): whoever waits for a fresh reading may be
        /// answered. Always the last action of a display reading.
        case sensorRead
        /// Readings started failing; the orientation held meanwhile.
        case readingsFailing(error: String, holding: Orientation)
        case readingsRecovered(failures: Int, after: Double)
        /// The display accelerometer reads `readsAtRest` m/s² at rest, far from 1 g: its driver's
        /// scale is wrong (orientation still works: the judge gates in its units). Once per device.
        case scaleWrong(readsAtRest: Double)
    }

    /// At rest, a correct driver reads 1 g within these factors; beyond them its scale is wrong.
    public static let plausibleScale = 0.8...1.25

    public private(set) var settings: ClassifierSettings
    private var classifier: Classifier
    private var tilt = DeviceTilt.unknown
    private var scaleReported = false
    private var tabletMode = TabletModeDetector()
    /// The accelerometers opened: the display one drives the screen; a base one the hinge.
    private var display: String?
    private var base: String?
    private var failingSince: Double?
    private var failures = 0

    public init(settings: ClassifierSettings = ClassifierSettings()) {
        self.settings = settings
        classifier = Classifier(settings: settings)
    }

    public var orientation: Orientation { classifier.orientation }

    /// Whether the classifier waits on a decision that needs readings at the full rate
    /// (`SamplingPace`).
    public var isDeciding: Bool { classifier.isDeciding }

    /// What `reading` means; `wantsAngles`: whether any client wants angle samples.
    public mutating func handle(_ reading: Reading, wantsAngles: Bool) -> [Action] {
        switch reading {
        case .sample(let sample, let device) where device == display:
            return displaySample(sample, wantsAngles: wantsAngles)
        case .sample(let sample, let device):
            // Another accelerometer: the base one feeds the hinge angle.
            guard device == base, let hinge = tabletMode.base(sample) else { return [] }
            return [.hinge(hinge)]
        case .failure(let error, let time, let device) where device == display:
            return displayFailure(error, at: time)
        case .failure(let error, _, let device):
            guard device == base, let hinge = tabletMode.unreadable(because: "cannot read the base accelerometer: \(error)") else { return [] }
            return [.hinge(hinge)]
        case .paused:
            // After a pause the filters restart by themselves; the hinge angle's history (what
            // tells 0° from 360°) is kept.
            classifier.resume()
            return [.sensorPaused]
        case .opened(let devices):
            display = devices.first?.id
            base = devices.dropFirst().first { $0.location == .base }?.id
            tabletMode.reset()
            // Perhaps another device: its 1 g is learnt afresh.
            classifier.forgetDevice()
            scaleReported = false
            let problem = base == nil ? "no base accelerometer: the hinge angle needs one in the display and one in the base" : "waiting for readings"
            return [.sensorPaused, .sensorOpened(devices), .hinge(TabletModeDetector.State(problem: problem))]
        case .stillWatch(let watch):
            return [.stillWatch(watch)]
        case .watchEnded(let time, let byMotion):
            if byMotion { classifier.wokenByMotion(at: time) } else { classifier.wasStill(until: time) }
            return []
        case .lost(let reason):
            // The hub now says unknown; so must the classifier, to announce the next decision.
            classifier = Classifier(settings: settings)
            scaleReported = false
            let tiltLost = tiltBecomes(.unknown)
            failingSince = nil
            failures = 0
            base = nil
            tabletMode.reset()
            return [.sensorLost(reason: reason)] + tiltLost
                + [.hinge(TabletModeDetector.State(problem: "the accelerometers are unavailable: \(reason)"))]
        }
    }

    /// New classifier constants (a reloaded config): the orientation decided so far stands until
    /// they decide otherwise.
    public mutating func adopt(_ settings: ClassifierSettings) {
        self.settings = settings
        classifier.adopt(settings)
    }

    private mutating func displaySample(_ sample: AccelerometerSample, wantsAngles: Bool) -> [Action] {
        var actions: [Action] = []
        if let since = failingSince {
            actions.append(.readingsRecovered(failures: failures, after: sample.time - since))
            failingSince = nil
            failures = 0
        }
        let change = classifier.classify(sample)
        if base != nil, let hinge = tabletMode.display(sample) { actions.append(.hinge(hinge)) }
        if wantsAngles, let angles = classifier.angles {
            actions.append(.angles(angles, acceleration: sample.acceleration, raw: sample.raw, time: sample.time))
        }
        if let change { actions.append(.orientationChanged(change)) }
        // Said only once three runs at rest agree (their median): one odd run (a device held
        // against something, a driver's half-written axes) must not brand the scale wrong.
        if !scaleReported, classifier.runsAtRest >= 3, let atRest = classifier.gravityAtRest,
           !Self.plausibleScale.contains(atRest / settings.gravity) {
            scaleReported = true
            actions.append(.scaleWrong(readsAtRest: atRest))
        }
        if change?.orientation == .unknown {
            actions += tiltBecomes(.unknown)
        } else if let angles = classifier.angles {
            actions += tiltBecomes(DeviceTilt(tiltDegrees: angles.tilt))
        }
        // After the change, so whoever waited for a fresh reading is told of it.
        actions.append(.sensorRead)
        return actions
    }

    private mutating func displayFailure(_ error: SensorReadError, at time: Double) -> [Action] {
        var actions: [Action] = []
        if failingSince == nil {
            failingSince = time
            actions.append(.readingsFailing(error: "\(error)", holding: classifier.orientation))
        }
        failures += 1
        if let change = classifier.noteMissingReading(at: time) {
            actions.append(.orientationChanged(change))
            if change.orientation == .unknown { actions += tiltBecomes(.unknown) }
        }
        // A failed read counts as fresh: the sensor was tried just now, and the classifier holds
        // the last orientation on purpose until readings have failed for its stale time.
        actions.append(.sensorRead)
        return actions
    }

    private mutating func tiltBecomes(_ newTilt: DeviceTilt) -> [Action] {
        guard newTilt != tilt else { return [] }
        tilt = newTilt
        return [.tiltChanged(newTilt)]
    }
}
