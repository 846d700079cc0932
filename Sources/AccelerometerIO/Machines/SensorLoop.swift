import OrientationCore

/// What the sensor thread does next, as a pure state machine: the poller (SensorPoller) tells it
/// what happened (the sources opened or failed to, a read finished, udev reported a device, the
/// demand for readings) and asks `next(at:)` what to do; the machine never reads, sleeps, logs or
/// takes a lock, and its clock is the time it is given.
///
/// The sources are closed (none yet, or lost) and opened again with a delay that doubles up to
/// `longestReopenDelay`, at once when udev adds a device; open, they are read every `period`
/// while someone needs readings (the first reading is taken regardless, so the orientation is
/// known at start), and the thread sleeps without reading while nobody does. A display
/// accelerometer whose reads fail for `reopenAfter` seconds is closed and reopened. A heartbeat
/// is due every `heartbeatInterval`, asleep or not.
///
/// With a `pace`, the period follows the device's motion (`SamplingPace`, told every reading of
/// the display accelerometer): `stillPeriod` while it is still, `period` from the read that saw
/// it move on. The pace starts afresh (at the full rate) whenever the sources open or reading
/// resumes.
///
/// Where the display accelerometer can raise its own motion interrupt (`MotionWakeUp`), a still
/// device is not read at all: the loop arms the event (`armMotionWatch`) and sleeps on it
/// (`waitForMotion`) until it fires, a client asks for a fresh reading, or a safety read is due
/// every `safetyReadPeriod` (a lost interrupt, a driver that forgot its event across suspend).
/// Motion brings back the full rate at once; a safety read that finds the device still arms it
/// again. A safety read that finds it moved without its event firing counts a miss; after
/// `missesBeforePolling` misses since the sources opened, whatever fired between them (an event
/// wired to no interrupt line; a threshold that a slow turn never crosses), the device is read at
/// the still rate instead: a missed turn costs at most one safety-read period, and only that many
/// times. So is it read when the watch fails, until the sources reopen. A HID sensor hub told to
/// report only changes is watched the same way, its buffer's reports standing for the event.
///
/// Every effect on the watch is an action: release the buffers (`releaseCapture`), arm it, wait on
/// it, end it without its signal (`interruptWatch`), drop it for good (`dropWatch`); the poller
/// performs them and reports back. The time given is the clock that counts suspend
/// (CLOCK_BOOTTIME), so a safety read due during a suspend is due at the resume; `systemResumed`
/// ends a watch and reads at once at the full rate (a convertible may have been turned while
/// asleep).
public struct SensorLoop: Sendable {
    public struct Settings: Sendable {
        /// Seconds between reads (while the device moves, with a `pace`).
        public var period: Double
        /// When the still rate will do; nil reads every `period` all the time.
        public var pace: SamplingPace.Settings?
        public var reopenAfter = Settings.reopenAfter
        public var firstReopenDelay = 1.0
        public var longestReopenDelay = Settings.longestReopenDelay
        /// Seconds of failed reads of the display accelerometer before it is closed and reopened.
        public static let reopenAfter = 2.0
        /// The longest wait between attempts to open a sensor.
        public static let longestReopenDelay = 10.0
        public var heartbeatInterval: Double?

        public init(period: Double, pace: SamplingPace.Settings? = nil, heartbeatInterval: Double? = nil) {
            self.period = period
            self.pace = pace
            self.heartbeatInterval = heartbeatInterval
        }

        /// Seconds between reads while the device is still: never shorter than `period`.
        public var stillPeriod: Double {
            guard let pace, pace.stillRate > 0 else { return period }
            return max(period, 1 / pace.stillRate)
        }

        /// Seconds between reads once the device has been still for long: never shorter than
        /// `stillPeriod`.
        public var dormantPeriod: Double {
            guard let pace, pace.dormantRate > 0 else { return stillPeriod }
            return max(stillPeriod, 1 / pace.dormantRate)
        }

        /// Seconds between reads at `rate`.
        public func period(at rate: SamplingPace.Rate) -> Double {
            switch rate {
            case .full: period
            case .still: stillPeriod
            case .dormant: dormantPeriod
            }
        }

        /// Whether the period ever changes.
        public var isAdaptive: Bool { stillPeriod > period }

        /// Seconds between safety reads of a still device watched by its motion event; nil when a
        /// still device is never watched that way (no pace, or `safetyReadSeconds` 0).
        public var safetyReadPeriod: Double? {
            guard isAdaptive, let seconds = pace?.safetyReadSeconds, seconds > 0 else { return nil }
            return max(seconds, stillPeriod)
        }
    }

    /// Why the sources are closed.
    public enum CloseCause: Equatable, Sendable {
        /// udev removed the only accelerometer.
        case removed(sysname: String)
        /// udev removed or changed one of several, or added one: reopen to take the change in.
        case udev(HotplugEvent.Action, sysname: String)
        /// The display accelerometer's reads failed for `reopenAfter` seconds.
        case failingReads(String)
        /// The configured device settings (mount matrix, location) changed on reload.
        case reconfigured
    }

    public enum Action: Equatable, Sendable {
        case beat
        /// Open the sources, then report `opened` or `openFailed`.
        case open
        /// Read every source, then report `readFinished`.
        case read
        /// Ask the demand whether readings are needed (it goes idle if not), then report `demand`.
        case checkDemand
        /// Nobody needs readings: release the buffers and tell the pipeline the sensor sleeps.
        case pause
        /// Someone needs readings again.
        case resume
        /// Drop the sources; with `announce`, tell the pipeline the sensor is lost.
        case close(CloseCause, announce: Bool)
        /// Opening failed: with `announce`, tell the pipeline the sensor is lost; with `log`, the log.
        case openFailed(reason: String, announce: Bool, log: Bool)
        /// The first attempt is over: whoever waits for the start may go on.
        case announceStart(opened: Bool)
        /// Sleep until then (`.infinity`: until woken), or until woken; report `woken` if woken.
        case sleep(until: Double)
        /// The read period changed with the device's motion (worth a debug line).
        case paceChanged(SamplingPace.Rate)
        /// A safety read found the device moved though its motion event never fired (not yet
        /// `missesBeforePolling` times: it is watched again once still).
        case motionEventMissed
        /// The device was watched still until `at`: tell the pipeline, which takes the next
        /// reading as continuing the last one, not as after a gap (that would decide on it at
        /// once); `byMotion`: the motion event fired then (the filters start afresh from it).
        case watchEnded(at: Double, byMotion: Bool)
        /// Release the display accelerometer's buffer before arming: an event descriptor is
        /// asked of /dev/iio:deviceN, which a capturing buffer holds (the kernel lets one opener
        /// have it). Capture starts again at the next read.
        case releaseCapture
        /// The device is still: arm the watch (enable the motion event, set the hub's
        /// sensitivity), then report `motionWatchArmed` or `motionWatchFailed`.
        case armMotionWatch
        /// Sleep on the watch until then, or until woken; report `motionSeen` when it fired,
        /// `woken` (and `readingRequested` if a client asked) when woken.
        case waitForMotion(until: Double)
        /// The watch ends without its signal (a safety read, a client's request, a resume):
        /// disarm it, so that what the read finds reaches orientd as any motion would; with
        /// `readRaw`, the next read of the display accelerometer reads its raw attributes (a
        /// hub's buffer holds only changes). Report `motionWatchFailed` if disarming fails.
        case interruptWatch(readRaw: Bool)
        /// Stop watching for good (until the sources reopen): close the watch; a still device is
        /// read at the still rate.
        case dropWatch(WatchDrop)
        /// The system resumed from a suspend: the sensor is read afresh (worth a log line).
        case systemResumed
    }

    /// Why the watch was given up.
    public enum WatchDrop: Equatable, Sendable {
        /// Arming, waiting on or disarming it failed.
        case failed(reason: String)
        /// Safety reads found the device moved unseen `missesBeforePolling` times.
        case keepsMissing
        /// The watch woke orientd `quietWakesBeforePolling` times in a row and no sample moved
        /// after it: a hub that ignores its change sensitivity, a threshold under the vibrations
        /// of where the device lies. Read at the still rate, it costs less than waking at each.
        case wakesWithoutMotion
    }

    /// What the loop must know of how the still device is watched, to order the I/O around it.
    public struct WatchTraits: Equatable, Sendable {
        /// Its buffer is released before arming (`releaseCapture`): a motion event's descriptor is
        /// asked of the device node a capturing buffer holds. A hub keeps its buffer: its reports
        /// arrive there.
        public var releasesCapture: Bool
        /// A read the watch did not ask for (a safety read, a client's, a resume) reads the raw
        /// attributes: a hub's buffer holds only changes, so an empty one says nothing of now.
        public var readsRawWhenAsked: Bool

        public init(releasesCapture: Bool, readsRawWhenAsked: Bool) {
            self.releasesCapture = releasesCapture
            self.readsRawWhenAsked = readsRawWhenAsked
        }

        /// An IIO motion event.
        public static let motionEvent = WatchTraits(releasesCapture: true, readsRawWhenAsked: true)
        /// A HID hub's change reports: its buffer keeps capturing, and holds only changes.
        public static let hubReports = WatchTraits(releasesCapture: false, readsRawWhenAsked: true)
    }

    /// How a still display accelerometer's motion is noticed.
    private enum MotionWatch: Equatable, Sendable {
        /// By reading it at the still rate: it has no watch, or its watch failed or kept missing.
        case unavailable
        /// It has a watch, not armed now (the device moves, or was just read).
        case disarmed(WatchTraits)
        /// Armed: nothing is read until the watch fires, a reading is asked for, or then.
        case armed(WatchTraits, safetyReadAt: Double)
        /// The safety read is being taken.
        case safetyRead(WatchTraits)
    }

    /// Safety reads that find the device moved without its event, since the sources opened,
    /// before it is polled.
    public static let missesBeforePolling = 2
    /// Wakes in a row with no sample moving after them before the watch is given up.
    public static let quietWakesBeforePolling = 5

    /// What the loop knows while the sources are closed: when to try again, and what it said of
    /// the last failures (so each is logged once, and the loss announced once).
    private struct Closed: Equatable, Sendable {
        var reopenAt: Double
        var reopenDelay: Double
        var lastFailure: String?
        /// The next failed open adds no log line: its cause was just logged.
        var quietNextFailure: Bool
        var lostAnnounced: Bool
    }

    /// What the loop knows while the sources are open.
    private struct Open: Equatable, Sendable {
        /// The kernel names of the sources open (nil for a remote one), the display one first.
        var sysnames: [String?]
        var nextReadAt: Double
        /// Since when the display accelerometer's reads fail, while they do.
        var failingSince: Double?
        var watch = MotionWatch.unavailable
        /// Safety reads that found the device moved unseen since the sources opened.
        var misses = 0
        /// When the watch last woke orientd, until the device is still again.
        var wokenAt: Double?
        /// Wakes in a row after which no sample moved.
        var quietWakes = 0
    }

    private enum Phase: Equatable, Sendable {
        case closed(Closed)
        case open(Open)
        /// Open, but nobody needs readings: asleep until woken.
        case idle(Open)
    }

    /// The start is announced once, after the first attempt to open, saying whether it opened.
    private enum Start: Equatable, Sendable {
        case notYet
        case due(opened: Bool)
        case announced
    }

    public let settings: Settings
    private var phase: Phase
    private var start = Start.notYet
    private var lastBeat = -Double.infinity
    private var lastResume = -Double.infinity
    /// Seconds within which a second word of a resume is the same resume.
    static let oneResume = 2.0
    /// Whether the demand must be asked before what comes next.
    private var demandUnknown = true
    /// Actions an event caused, done before anything else.
    private var pending: [Action] = []
    private var pace: SamplingPace?
    /// The pace of the period last scheduled.
    public private(set) var rate = SamplingPace.Rate.full

    public init(settings: Settings) {
        self.settings = settings
        phase = .closed(Closed(reopenAt: -.infinity, reopenDelay: settings.firstReopenDelay, lastFailure: nil,
                               quietNextFailure: false, lostAnnounced: false))
        if settings.isAdaptive, let paceSettings = settings.pace { pace = SamplingPace(settings: paceSettings) }
    }

    // MARK: Events

    /// The sources opened; returns whether they had been announced lost (worth a log line).
    /// `watch`: how the display accelerometer can be watched while still, if it can.
    @discardableResult
    public mutating func opened(sysnames: [String?], watch traits: WatchTraits? = nil, at time: Double) -> Bool {
        guard case .closed(let closed) = phase else {
            assertionFailure("the sources open only after an .open action, while closed")
            return false
        }
        let watch: MotionWatch = if let traits, settings.safetyReadPeriod != nil { .disarmed(traits) } else { .unavailable }
        phase = .open(Open(sysnames: sysnames, nextReadAt: time, watch: watch))
        demandUnknown = true
        restartPace()
        return closed.lostAnnounced
    }

    public mutating func openFailed(reason: String, at time: Double) {
        guard case .closed(var closed) = phase else {
            assertionFailure("opening fails only after an .open action, while closed")
            return
        }
        let log = reason != closed.lastFailure && !closed.quietNextFailure
        pending.append(.openFailed(reason: reason, announce: !closed.lostAnnounced, log: log))
        closed.lostAnnounced = true
        closed.quietNextFailure = false
        closed.lastFailure = reason
        closed.reopenAt = time + closed.reopenDelay
        closed.reopenDelay = min(closed.reopenDelay * 2, settings.longestReopenDelay)
        phase = .closed(closed)
        if start == .notYet { start = .due(opened: false) }
    }

    /// One sample of the display accelerometer (each of a buffer's, in order), told before
    /// `readFinished`; `deciding`: whether the classifier, having seen it, waits on a decision.
    public mutating func displaySample(_ acceleration: Vector3, at time: Double, deciding: Bool) {
        pace?.note(acceleration, at: time, deciding: deciding)
    }

    /// A read of the display accelerometer failed, or gave what cannot be an acceleration.
    public mutating func displayFailure(at time: Double) {
        pace?.noteFailure(at: time)
    }

    /// Every source was read (or captured from); `displayFailure` is why the display
    /// accelerometer could not be, if it could not.
    public mutating func readFinished(displayFailure: String?, at time: Double) {
        guard case .open(var open) = phase else {
            assertionFailure("a read finishes only after a .read action, while open")
            return
        }
        demandUnknown = true
        if start == .notYet { start = .due(opened: true) }
        let newRate = pace?.rate ?? .full
        if newRate != rate {
            rate = newRate
            pending.append(.paceChanged(newRate))
        }
        // Keep to the period's grid (the next read one period of the new pace after this one's
        // time); after a stall (suspend, slow read) start a new grid from now.
        open.nextReadAt = max(open.nextReadAt + settings.period(at: rate), time)
        if case .safetyRead(let traits) = open.watch {
            open.watch = .disarmed(traits)
            // Moved with no event: a lost interrupt, one that is never raised, or a turn too slow
            // for it. An event since does not excuse it: slow turns would repeat the delay for ever.
            if displayFailure == nil, rate == .full {
                open.misses += 1
                if open.misses >= Self.missesBeforePolling {
                    open.watch = .unavailable
                    pending.append(.dropWatch(.keepsMissing))
                } else {
                    pending.append(.motionEventMissed)
                }
            }
        }
        if rate != .full, let woken = open.wokenAt {
            // Still again after a wake: did anything move after it?
            open.wokenAt = nil
            open.quietWakes = (pace?.lastMovedSample ?? -.infinity) >= woken ? 0 : open.quietWakes + 1
            if open.quietWakes >= Self.quietWakesBeforePolling, open.watch != .unavailable {
                open.watch = .unavailable
                pending.append(.dropWatch(.wakesWithoutMotion))
            }
        }
        guard let displayFailure else {
            open.failingSince = nil
            phase = .open(open)
            if rate != .full, case .disarmed(let traits) = open.watch {
                if traits.releasesCapture { pending.append(.releaseCapture) }
                pending.append(.armMotionWatch)
            }
            return
        }
        let since = open.failingSince ?? time
        open.failingSince = since
        phase = .open(open)
        if time - since >= settings.reopenAfter {
            close(.failingReads(displayFailure), announce: true, reopenAt: time)
        }
    }

    /// The motion event is enabled: sleep on it from now on.
    public mutating func motionWatchArmed(at time: Double) {
        guard case .open(var open) = phase, case .disarmed(let traits) = open.watch, let safetyReadPeriod = settings.safetyReadPeriod else {
            assertionFailure("a watch is armed only after an .armMotionWatch action, while open")
            return
        }
        open.watch = .armed(traits, safetyReadAt: time + safetyReadPeriod)
        phase = .open(open)
    }

    /// Arming, waiting on or disarming the watch failed: it is dropped, and the still device is
    /// read at the still rate from now on (until the sources reopen).
    public mutating func motionWatchFailed(reason: String, at time: Double) {
        guard case .open(var open) = phase, open.watch != .unavailable else { return }
        if case .armed = open.watch { open.nextReadAt = time }
        open.watch = .unavailable
        phase = .open(open)
        pending.append(.dropWatch(.failed(reason: reason)))
    }

    /// The motion event fired: read now, at the full rate.
    public mutating func motionSeen(at time: Double) {
        guard case .open(var open) = phase, case .armed(let traits, _) = open.watch else { return }
        open.watch = .disarmed(traits)
        open.nextReadAt = time
        open.wokenAt = time
        phase = .open(open)
        pending.append(.watchEnded(at: time, byMotion: true))
        pace?.noteMotion(at: time)
        if rate != .full {
            rate = .full
            pending.append(.paceChanged(.full))
        }
    }

    /// A client asked for a fresh reading while the still device is watched: read it once now
    /// (still, it is watched again right after).
    public mutating func readingRequested(at time: Double) {
        guard case .open(var open) = phase, case .armed(let traits, _) = open.watch else { return }
        open.watch = .disarmed(traits)
        open.nextReadAt = time
        phase = .open(open)
        pending += [.interruptWatch(readRaw: traits.readsRawWhenAsked), .watchEnded(at: time, byMotion: false)]
    }

    /// The system resumed from a suspend (logind said so, or the clock that counts suspend ran
    /// ahead of the one that does not): whatever happened while asleep is unknown, so a watch
    /// ends and the device is read now, at the full rate; the pipeline, seeing the gap in time,
    /// decides on it at once. Closed sources are tried again at once (the device may be back);
    /// idle ones wait for someone to need them, and start afresh then.
    public mutating func systemResumed(at time: Double) {
        // logind's word and the clocks' may both tell of one resume.
        guard time - lastResume >= Self.oneResume else { return }
        lastResume = time
        switch phase {
        case .closed(var closed):
            closed.reopenAt = -.infinity
            phase = .closed(closed)
        case .idle:
            break
        case .open(var open):
            pending.append(.systemResumed)
            switch open.watch {
            case .armed(let traits, _), .safetyRead(let traits):
                open.watch = .disarmed(traits)
                pending.append(.interruptWatch(readRaw: traits.readsRawWhenAsked))
            case .disarmed, .unavailable:
                break
            }
            open.nextReadAt = time
            open.wokenAt = nil
            phase = .open(open)
            restartPace()
        }
    }

    /// Whether the loop sleeps on the motion event now.
    public var isWatchingMotion: Bool {
        guard case .open(let open) = phase, case .armed = open.watch else { return false }
        return true
    }

    /// The configured device settings changed (a reload): reopen now to apply them; with none
    /// open, try at once (perhaps the new settings make one usable).
    public mutating func reconfigure(at time: Double) {
        switch phase {
        case .open, .idle:
            close(.reconfigured, announce: false, reopenAt: -.infinity)
        case .closed(var closed):
            closed.reopenAt = -.infinity
            phase = .closed(closed)
        }
    }

    public mutating func hotplug(_ event: HotplugEvent, at time: Double) {
        let sysnames: [String?]
        switch phase {
        case .open(let open), .idle(let open): sysnames = open.sysnames
        case .closed: sysnames = []
        }
        let ours = sysnames.contains(event.sysname)
        switch event.action {
        case .remove where ours && sysnames.count == 1:
            // Not at once: the device may still be half there. udev's `add` reopens it sooner.
            close(.removed(sysname: event.sysname), announce: true, reopenAt: time + settings.firstReopenDelay)
        case .remove where ours, .change where ours:
            close(.udev(event.action, sysname: event.sysname), announce: false, reopenAt: -.infinity)
        case .change, .add:
            if case .closed(var closed) = phase {
                // No sensor open: perhaps one refused for its calibration was fixed, or one came: try it now.
                closed.reopenAt = -.infinity
                phase = .closed(closed)
            } else if event.action == .add {
                // Perhaps the base accelerometer of a convertible: reopen to take it in.
                close(.udev(.add, sysname: event.sysname), announce: false, reopenAt: -.infinity)
            }
        default:
            break
        }
    }

    /// The answer to `checkDemand`.
    public mutating func demand(needed: Bool, at time: Double) {
        demandUnknown = false
        switch (phase, needed) {
        case (.open(var open), false):
            // Pausing releases the motion event with the rest; it is armed again once still.
            switch open.watch {
            case .armed(let traits, _), .disarmed(let traits), .safetyRead(let traits): open.watch = .disarmed(traits)
            case .unavailable: break
            }
            open.wokenAt = nil
            phase = .idle(open)
            pending.append(.pause)
        case (.idle(var open), true):
            open.nextReadAt = time
            phase = .open(open)
            restartPace()
            pending.append(.resume)
        case (.open, true), (.idle, false), (.closed, _):
            break
        }
    }

    /// A sleep ended early: something may need readings now.
    public mutating func woken() {
        demandUnknown = true
    }

    // MARK: What next

    public mutating func next(at now: Double) -> Action {
        if !pending.isEmpty { return pending.removeFirst() }
        // Due every interval, asleep or not; fed early, from half an interval, when the loop is
        // awake anyway, so a still device's safety reads carry the beats and wake it no more often.
        if let interval = settings.heartbeatInterval, now - lastBeat >= interval / 2 {
            lastBeat = now
            return .beat
        }
        if case .due(let opened) = start {
            start = .announced
            return .announceStart(opened: opened)
        }
        switch phase {
        case .closed(let closed):
            return now >= closed.reopenAt ? .open : sleep(until: closed.reopenAt)
        case .open(let open):
            // The first reading is taken whatever the demand, so the orientation is known at start.
            if start == .announced, demandUnknown { return .checkDemand }
            if case .armed(let traits, let safetyReadAt) = open.watch {
                guard now >= safetyReadAt else { return .waitForMotion(until: min(safetyReadAt, nextBeat)) }
                var safetyRead = open
                safetyRead.watch = .safetyRead(traits)
                safetyRead.nextReadAt = now
                phase = .open(safetyRead)
                // If it moved after all (a lost interrupt), the read continues the filters too: the
                // turn is decided as at the full rate, never at once on one sample.
                pending.append(.watchEnded(at: now, byMotion: false))
                return .interruptWatch(readRaw: traits.readsRawWhenAsked)
            }
            return now >= open.nextReadAt ? .read : sleep(until: open.nextReadAt)
        case .idle:
            return demandUnknown ? .checkDemand : sleep(until: .infinity)
        }
    }

    /// The device may have moved unseen: start afresh at the full rate.
    private mutating func restartPace() {
        pace?.reset()
        rate = .full
    }

    private var nextBeat: Double { settings.heartbeatInterval.map { lastBeat + $0 } ?? .infinity }

    private func sleep(until time: Double) -> Action {
        .sleep(until: min(time, nextBeat))
    }

    /// Drops the sources. A loss that is announced makes the next failed open quiet (its cause
    /// was just logged) and is not announced again until the sources open.
    private mutating func close(_ cause: CloseCause, announce: Bool, reopenAt: Double) {
        phase = .closed(Closed(reopenAt: reopenAt, reopenDelay: settings.firstReopenDelay, lastFailure: nil,
                               quietNextFailure: announce, lostAnnounced: announce))
        pending.append(.close(cause, announce: announce))
    }
}
