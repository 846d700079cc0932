import OrientationCore

/// What the ambient sensor thread does next, as a pure state machine: `AmbientSensorPoller` tells
/// it what happened (what discovery found, the demand, a read's outcome, a udev event) and asks
/// `next(at:)` what to do; the machine never reads, sleeps or logs, and its clock is the time it
/// is given.
///
/// The sensors are discovered at start, whatever the demand (their presence must be known before
/// anyone asks for them), and again whenever udev adds or changes an IIO device. A sensor that
/// udev removes, or whose file vanishes, is gone at once. Each sensor is read once when it
/// appears, so that what it reads is known from then on (the start is announced after those
/// first reads), as the accelerometer is; after that only while its demand holds: at once when
/// the demand appears, then every interval; with no demand the thread sleeps until woken. A
/// level is reported on the first read after it appears or demand starts, and whenever it
/// changes; a failed read is logged once for each run of failures.
struct AmbientLoop: Sendable {
    /// A sensor discovery found.
    struct Found: Equatable, Sendable {
        /// "iio:device1 (als)".
        var device: String
        /// The kernel's name, by which udev reports a removal; nil for a remote sensor.
        var sysname: String?
        /// Seconds between reads while needed.
        var interval: Double
        /// A proximity sensor's near level.
        var nearLevel: Double?
        /// What a light sensor's level is in.
        var unit: LightUnit = .lux
    }

    /// The outcome of a read: lux (or percent) for a light sensor, the raw value for a proximity sensor,
    /// degrees for a compass.
    enum Reading: Equatable, Sendable {
        case value(Double)
        /// `gone`: the device or its file no longer exists.
        case failed(reason: String, gone: Bool)
    }

    enum Action: Equatable, Sendable {
        /// Open a fresh context, find the sensors, then report `discovered`.
        case discover
        /// Ask every demand whether readings are needed (each goes idle if not), then report `demand`.
        case checkDemand
        /// Read the sensor, then report `readFinished`.
        case read(AmbientSensorKind)
        /// Hand the event to whoever listens (and log an appearance or a departure).
        case report(AmbientEvent)
        /// A warning for the log: a sensor refused, or a read that failed.
        case warn(String)
        /// The first discovery is over and reported: whoever waits for the start may go on.
        case announceStart
        /// Sleep until then (`.infinity`: until woken), or until woken; report `woken` if woken.
        case sleep(until: Double)
    }

    private struct Sensor: Sendable {
        var found: Found
        var needed = false
        /// Read once, needed or not: it has just appeared.
        var firstReadDue = true
        var nextReadAt = -Double.infinity
        /// Report the next level whatever it is: demand has just started.
        var reportNext = true
        var lastReported: AmbientEvent?
        var failing = false
        var detector: ProximityDetector?

        init(_ found: Found) {
            self.found = found
            detector = found.nearLevel.map { ProximityDetector(nearLevel: $0) }
        }
    }

    private var sensors: [AmbientSensorKind: Sensor] = [:]
    private var discoveryDue = true
    /// The start is announced once the first discovery's sensors have each been read once.
    private enum Start: Equatable, Sendable {
        /// The sensors of the first discovery not read yet.
        case awaitingFirstReads(Set<AmbientSensorKind>)
        case announced
    }
    private var start = Start.awaitingFirstReads([])
    private var demandUnknown = true
    /// The refusals of the last discovery, so each is logged once, not at every discovery.
    private var refusals: Set<String> = []
    private var pending: [Action] = []

    // MARK: Events

    /// What discovery found (nil: no such sensor), and why it refused any sensor it saw.
    mutating func discovered(light: Found?, proximity: Found?, compass: Found? = nil, refusals: [String], at time: Double) {
        discoveryDue = false
        demandUnknown = true
        for (kind, found) in [(AmbientSensorKind.light, light), (.proximity, proximity), (.compass, compass)] {
            let old = sensors[kind]
            if let old, let found, old.found.device == found.device, old.found.sysname == found.sysname {
                // The same device, perhaps with a new near level or interval: keep its state.
                sensors[kind]?.found = found
                if let level = found.nearLevel, level != old.detector?.nearLevel {
                    sensors[kind]?.detector = ProximityDetector(nearLevel: level, isNear: old.detector?.isNear ?? false,
                                                                 previousRaw: old.detector?.previousRaw ?? 0)
                }
                continue
            }
            if let old {
                sensors[kind] = nil
                pending.append(.report(kind.gone("\(old.found.device) is no longer found")))
            }
            if let found {
                sensors[kind] = Sensor(found)
                pending.append(.report(kind.appeared(found.device)))
                if case .awaitingFirstReads(let kinds) = start { start = .awaitingFirstReads(kinds.union([kind])) }
            }
        }
        for refusal in refusals where !self.refusals.contains(refusal) { pending.append(.warn(refusal)) }
        self.refusals = Set(refusals)
        announceStartAfterFirstReads()
    }

    /// `kind` was read, or is gone: the start waits for it no more.
    private mutating func firstReadDone(_ kind: AmbientSensorKind) {
        guard case .awaitingFirstReads(let kinds) = start else { return }
        start = .awaitingFirstReads(kinds.subtracting([kind]))
        announceStartAfterFirstReads()
    }

    private mutating func announceStartAfterFirstReads() {
        guard start == .awaitingFirstReads([]) else { return }
        start = .announced
        pending.append(.announceStart)
    }

    /// The answer to `checkDemand`: which sensors someone needs read.
    mutating func demand(light: Bool, proximity: Bool, compass: Bool = false, at time: Double) {
        demandUnknown = false
        for (kind, needed) in [(AmbientSensorKind.light, light), (.proximity, proximity), (.compass, compass)] {
            guard var sensor = sensors[kind] else { continue }
            if needed, !sensor.needed {
                sensor.nextReadAt = time
                sensor.reportNext = true
            }
            sensor.needed = needed
            sensors[kind] = sensor
        }
    }

    mutating func readFinished(_ kind: AmbientSensorKind, _ reading: Reading, at time: Double) {
        defer {
            firstReadDone(kind)
        }
        guard var sensor = sensors[kind] else { return }
        sensor.firstReadDue = false
        // Keep to the interval's grid; after a stall (suspend, a slow read) start a new one from now.
        sensor.nextReadAt = max(sensor.nextReadAt + sensor.found.interval, time)
        switch reading {
        case .failed(let reason, gone: true):
            sensors[kind] = nil
            pending.append(.report(kind.gone(reason)))
            return
        case .failed(let reason, gone: false):
            if !sensor.failing { pending.append(.warn(reason)) }
            sensor.failing = true
        case .value(let value):
            sensor.failing = false
            let event: AmbientEvent
            switch kind {
            case .light:
                event = .lightLevel(value, unit: sensor.found.unit)
            case .proximity:
                var detector = sensor.detector ?? ProximityDetector(nearLevel: .infinity)
                event = .proximity(near: detector.update(raw: value))
                sensor.detector = detector
            case .compass:
                event = .compassHeading(value)
            }
            if sensor.reportNext || event != sensor.lastReported { pending.append(.report(event)) }
            sensor.reportNext = false
            sensor.lastReported = event
        }
        sensors[kind] = sensor
    }

    mutating func hotplug(_ event: HotplugEvent, at time: Double) {
        switch event.action {
        case .remove:
            // Gone at once, without a discovery that could still see the device half there;
            // udev's `add` brings it back.
            for kind in AmbientSensorKind.allCases where sensors[kind]?.found.sysname == event.sysname {
                sensors[kind] = nil
                pending.append(.report(kind.gone("\(event.sysname) was removed")))
                firstReadDone(kind)
            }
        case .add, .change:
            // A new sensor, or a hwdb update (a PROXIMITY_NEAR_LEVEL set at last): look again.
            discoveryDue = true
        }
    }

    /// A sleep ended early: the demand may have changed.
    mutating func woken() { demandUnknown = true }

    // MARK: What next

    mutating func next(at now: Double) -> Action {
        if !pending.isEmpty { return pending.removeFirst() }
        if discoveryDue { return .discover }
        if demandUnknown { return .checkDemand }
        for kind in AmbientSensorKind.allCases {
            if let sensor = sensors[kind], sensor.needed || sensor.firstReadDue, now >= sensor.nextReadAt { return .read(kind) }
        }
        let wake = sensors.values.filter { $0.needed || $0.firstReadDue }.map(\.nextReadAt).min() ?? .infinity
        // Time passes in the sleep: the demand is asked again before the next read.
        demandUnknown = true
        return .sleep(until: wake)
    }
}
