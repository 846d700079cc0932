import Logging
import OrientationCore

/// One configurable setting: its name (the same in the config file and as a flag), what it means,
/// what it accepts, and how a value given as text is checked and stored. The table `SettingKey.all`
/// is the single source for the file reader, the flags, `--print-config` and the documentation.
public struct SettingKey: Sendable {
    public enum Section: String, Sendable, CaseIterable {
        /// Keys under `[Daemon]`: how the daemon reads and serves.
        case daemon
        /// Keys under `[Classifier]`: the constants of the orientation judge.
        case classifier

        /// The section's name in the config file: `Daemon`, written `[Daemon]`.
        public var title: String {
            switch self {
            case .daemon: "Daemon"
            case .classifier: "Classifier"
            }
        }
    }

    public let name: String
    public let section: Section
    public let summary: String
    /// What a valid value looks like, in words ("milliseconds, 0 to 5000").
    public let accepts: String
    /// Whether the config file may give a list: each assignment of the key adds to it, an empty
    /// one clears it. The items are handed to the key joined with commas.
    public var takesList = false
    private let store: @Sendable (String, inout DaemonSettings) -> String?
    private let read: @Sendable (DaemonSettings) -> SettingText

    /// Checks `text` and stores it; returns why it was refused, or nil.
    public func apply(_ text: String, to settings: inout DaemonSettings) -> String? {
        store(text, &settings)
    }

    /// The current value, as it would be written in the config file.
    public func value(in settings: DaemonSettings) -> SettingText { read(settings) }

    /// The flag that sets this key.
    public var flag: String { "--\(name)" }

    public static func named(_ name: String) -> SettingKey? { all.first { $0.name == name } }
}

/// A value as text, as the config file and the flags write it; `isString` tells text from numbers
/// and switches.
public struct SettingText: Equatable, Sendable {
    public let text: String
    public let isString: Bool
}

/// A path followed by blanks and `#` or `;` is almost surely a comment at the end of the line,
/// which the INI format (like systemd's) does not have: refused, where it would name a file.
private func trailingComment(in path: String) -> String? {
    let characters = Array(path)
    let commentStarts = zip(characters, characters.dropFirst()).contains { blank, mark in
        (blank == " " || blank == "\t") && (mark == "#" || mark == ";")
    }
    guard commentStarts else { return nil }
    return "'\(path)' looks like a path with a comment after it; comments go on lines of their own (a '#' or ';' after a value is part of it)"
}

/// A group name as useradd(8) accepts it: `[A-Za-z_][A-Za-z0-9_.-]*`, then an optional `$`.
/// (Checked by hand, as every text in the daemon is: a regex brings the regex engine's code in.)
private func isGroupName(_ name: String) -> Bool {
    var scalars = Substring(name).unicodeScalars
    if scalars.last == "$" { scalars.removeLast() }
    guard let first = scalars.first, first == "_" || first.isASCIILetter else { return false }
    return scalars.dropFirst().allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || "_.-".unicodeScalars.contains($0) }
}

extension SettingKey {
    public static let all: [SettingKey] = daemonKeys + classifierKeys

    static let daemonKeys: [SettingKey] = [
        uriList,
        text("socket", \.socketPath, accepts: "an absolute path, at most 107 bytes",
             "Unix socket to serve; by default $ORIENTD_SOCKET, else /run/orientd.sock.") { path in
            if !path.hasPrefix("/") { return "expected an absolute path, got '\(path)'" }
            if let comment = trailingComment(in: path) { return comment }
            if path.utf8.count > 107 { return "a Unix socket path holds at most 107 bytes; this one has \(path.utf8.count)" }
            return nil
        },
        number("rate", \.rate, unit: "polls per second", range: 1...1000,
               "Polls of the accelerometer per second."),
        number("still-rate", \.sampling.stillRate, unit: "polls per second", range: 1...1000,
               "Polls per second while the device is still (nothing moved for still-after-ms): the first sample that moves brings back the full rate. 3 costs two to five times iio-sensor-proxy's CPU (still, about 0.05 s a minute; scripts/bench) and still sees a sudden jump within 333 ms. A value at or above rate polls at rate all the time."),
        number("motion-threshold", \.sampling.motionThreshold, unit: "m/s²", range: 0.01...20,
               "How far a sample must be from the still device's averaged vector to count as motion. 1 is 6° of gravity and five times the noise of a noisy accelerometer (0.2 m/s²)."),
        number("still-after-ms", \.sampling.stillAfterMs, unit: "milliseconds", range: 0...60000,
               "After this long without motion, and with nothing left for the classifier to decide, the sensor goes back to still-rate. 1500 keeps the full rate through the pauses of one gesture and costs at most 1.5 s of full-rate reads per motion."),
        number("dormant-rate", \.sampling.dormantRate, unit: "polls per second", range: 0.1...1000,
               "Polls per second once the device has been still for dormant-after-ms (where no motion event watches it): a device left lying is read about as often as iio-sensor-proxy reads it (1.4 times a second), a device just put down at still-rate. A value at or above still-rate is never dormant. Its poll must be shorter than filter-reset-gap-ms."),
        number("dormant-after-ms", \.sampling.dormantAfterMs, unit: "milliseconds", range: 0...3_600_000,
               "How long the device must be still before dormant-rate. A turn from a device still this long is seen one dormant poll later (0.8 s at most at 1.25), as iio-sensor-proxy sees every turn; one from a device still for less, as fast as ever."),
        number("safety-read-seconds", \.sampling.safetyReadSeconds, unit: "seconds", range: 0...3600,
               "Where the accelerometer's driver has a motion event (an interrupt on motion), a still device is not read at all: orientd sleeps on the event, and reads it once every this many seconds all the same, in case an interrupt was lost or the driver forgot its event across a suspend. 20 costs 0.05 wake-ups a second. 0 never sleeps on the event: a still device is read still-rate times a second."),
        number("keep-reading-ms", \.keepReadingMs, unit: "milliseconds", range: 0...600_000,
               "After the last client that needed a sensor lets go (a subscriber leaves, a get is answered, a D-Bus claim is released), the sensor is still read this long: a burst of requests reads it once, and a client back at once finds it read. Then nothing is read until a client needs it."),
        wholeNumber("max-clients", \.maxClients, range: 1...1_000_000,
                    "Clients served at once; more are refused with an error."),
        wholeNumber("max-clients-per-user", \.maxClientsPerUser, range: 1...1_000_000,
                    "Clients of one user (other than root) served at once, so no user can take every place."),
        text("state-file", \.stateFile, accepts: "an absolute path",
             "Where the rotation lock is kept across restarts (written atomically).") { path in
            path.hasPrefix("/") ? trailingComment(in: path) : "expected an absolute path, got '\(path)'"
        },
        text("lock-group", \.lockGroup, accepts: "a group name, or empty for root only",
             "Members of this group may lock and unlock the rotation; root always may.") { name in
            name.isEmpty || isGroupName(name) ? nil : "expected a group name, got '\(name)'"
        },
        SettingKey(
            name: "log-level", section: .daemon,
            summary: "Least severe messages to log.",
            accepts: Logger.Level.allCases.map(\.rawValue).joined(separator: ", "),
            store: { text, settings in
                guard let level = Logger.Level(rawValue: text) else {
                    return "expected one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'"
                }
                settings.logLevel = level
                return nil
            },
            read: { SettingText(text: $0.logLevel.rawValue, isString: false) }),
        boolean("sensor-proxy", \.sensorProxy,
                "Also serve iio-sensor-proxy's D-Bus interface (net.hadess.SensorProxy on the system bus, or the bus $DBUS_SYSTEM_BUS_ADDRESS names), so GNOME, KDE and phosh use orientd unchanged."),
        boolean("sensor-proxy-polkit", \.sensorProxyPolkit,
                "Ask polkit (action net.hadess.SensorProxy.claim-sensor) before a D-Bus client may claim or release a sensor, as iio-sensor-proxy 3.4 and later do; with false any local user may."),
    ]

    static let classifierKeys: [SettingKey] = [
        judge("filter-time-constant-ms", \.filterTimeConstantMs, unit: "milliseconds", range: 0...2000,
              "Time constant of the low-pass filter on the acceleration vector; 0 turns the filter off. Longer smooths more and follows turns later."),
        judge("carried-filter-time-constant-ms", \.carriedFilterTimeConstantMs, unit: "milliseconds", range: 0...5000,
              "While the device is carried (walking, in a bag: its magnitude swings by more than carried-motion over the last second), the time constant of the filter instead: each step's bounce cannot tip the vector over a border, and a turn made on the move is decided that much later. 0: the same filter always."),
        judge("carried-motion", \.carriedMotion, unit: "g (RMS)", range: 0.01...10,
              "How much the magnitude must swing around the device's 1 g (RMS over the last second, in g) for it to count as carried. Also, just after a still-rate read, how much it may change from one read to the next before the read counts as part of a motion (no decision then)."),
        judge("filter-reset-gap-ms", \.filterResetGapMs, unit: "milliseconds", range: 10...60000,
              "A gap between samples longer than this (suspend/resume) restarts the filter from the next sample."),
        judge("free-fall-magnitude", \.freeFallMagnitude, unit: "m/s²", range: 0...9,
              "Below this magnitude there is no usable gravity (free fall, a dead sensor) and nothing is decided."),
        judge("gravity", \.gravity, unit: "m/s²", range: 1...20,
              "The magnitude of gravity as this sensor reports it at rest."),
        judge("acceleration-tolerance", \.accelerationTolerance, unit: "m/s²", range: 0.5...20,
              "How far the magnitude may stray from gravity before the device counts as shaken or bumped."),
        judge("acceleration-lockout-ms", \.accelerationLockoutMs, unit: "milliseconds", range: 0...5000,
              "After a shake or bump, how long nothing new is decided."),
        judge("flat-tilt-degrees", \.flatTiltDegrees, unit: "degrees", range: 45...90,
              "Tilt at which the device counts as lying flat (faceUp/faceDown) rather than upright."),
        judge("face-hysteresis-degrees", \.faceHysteresisDegrees, unit: "degrees", range: 0...35,
              "A device at rest (rest-ms) leaves faceUp or faceDown below flat-tilt-degrees less this, so one resting at the border does not flap. In motion it leaves them at the tilt limit of the orientation it goes to."),
        judge("face-delay-ms", \.faceDelayMs, unit: "milliseconds", range: 0...10000,
              "How long the device must lie flat before faceUp or faceDown is published."),
        judge("flat-minimum-ms", \.flatMinimumMs, unit: "milliseconds", range: 0...10000,
              "Lying flat at least this long arms the lockout below when the device is picked up."),
        judge("flat-ended-lockout-ms", \.flatEndedLockoutMs, unit: "milliseconds", range: 0...5000,
              "After picking the device up from flat, how long a new in-plane orientation waits (returning to the one it was put down in does not wait)."),
        judge("swing-tilt-degrees", \.swingTiltDegrees, unit: "degrees", range: 1...90,
              "A tilt towards flat by this much within swing-window-ms counts as putting the device down."),
        judge("swing-window-ms", \.swingWindowMs, unit: "milliseconds", range: 10...5000,
              "The time window of swing-tilt-degrees."),
        judge("swing-lockout-ms", \.swingLockoutMs, unit: "milliseconds", range: 0...5000,
              "After a swing towards flat, how long nothing new is decided."),
        judge("portrait-tilt-limit-degrees", \.portraitTiltLimitDegrees, unit: "degrees", range: 10...90,
              "Largest tilt (either side) at which portrait may be decided."),
        judge("landscape-tilt-limit-degrees", \.landscapeTiltLimitDegrees, unit: "degrees", range: 10...90,
              "Largest tilt (either side) at which landscapeLeft or landscapeRight may be decided."),
        judge("upside-down-tilt-limit-degrees", \.upsideDownTiltLimitDegrees, unit: "degrees", range: 10...90,
              "Largest tilt (either side) at which portraitUpsideDown may be decided."),
        judge("rest-ms", \.restMs, unit: "milliseconds", range: 0...60000,
              "Once the device has held still this long, the tilt limits above no longer apply: an in-plane orientation is decided up to flat-tilt-degrees (a pocket as its owner sits or lies down, a tablet propped low). 0: the limits always apply."),
        judge("hysteresis-degrees", \.hysteresisDegrees, unit: "degrees", range: 0...44,
              "How far past the 45° border the in-plane angle must go to leave the published orientation (22.5: leave portrait at 67.5°, return at 22.5°)."),
        judge("settle-ms", \.settleMs, unit: "milliseconds", range: 0...5000,
              "How long a new orientation must be proposed without interruption before it is published."),
        judge("turn-in-progress-degrees-per-second", \.turnInProgressDegreesPerSecond, unit: "degrees per second", range: 10...10000,
              "While the filtered in-plane angle turns faster than this, nothing new is published (a fast 180° flip does not flash landscape). For one filter time constant after a still-rate read, the unfiltered angle's pace counts too."),
        judge("stale-after-ms", \.staleAfterMs, unit: "milliseconds", range: 100...60000,
              "Without a reliable reading for this long, the orientation becomes unknown."),
    ]

    /// One URI, or several separated by commas (a repeated key in the file, a repeated flag); the first
    /// one's display accelerometer drives the screen.
    private static let uriList: SettingKey = {
        var key = SettingKey(
            name: "uri", section: .daemon,
            summary: "libiio contexts to read: 'local:' for this machine, 'ip:HOST[:PORT]' for a board running iiod. Several may be given (repeat the flag, or the key in the file; an empty uri= clears the list); the display accelerometer of local: (else of the first) drives the screen.",
            accepts: "libiio URIs",
            store: { text, settings in
                let uris = text.split(separator: ",").map { String(trimmingBlanks($0)) }
                if uris.isEmpty { return "expected at least one URI, 'local:' or 'ip:HOST[:PORT]'" }
                for uri in uris where !(uri == "local:" || (uri.hasPrefix("ip:") && uri.count > 3)) {
                    return "expected 'local:' or 'ip:HOST[:PORT]', got '\(uri)'"
                }
                if let twice = uris.first(where: { uri in uris.filter { $0 == uri }.count > 1 }) {
                    return "'\(twice)' is given twice; each context is read once"
                }
                settings.uris = uris
                return nil
            },
            read: { SettingText(text: $0.uris.joined(separator: ", "), isString: true) })
        key.takesList = true
        return key
    }()

    private static func text(
        _ name: String, _ keyPath: WritableKeyPath<DaemonSettings, String> & Sendable, accepts: String, _ summary: String,
        check: @escaping @Sendable (String) -> String?
    ) -> SettingKey {
        SettingKey(
            name: name, section: .daemon, summary: summary, accepts: accepts,
            store: { text, settings in
                if let problem = check(text) { return problem }
                settings[keyPath: keyPath] = text
                return nil
            },
            read: { SettingText(text: $0[keyPath: keyPath], isString: true) })
    }

    private static func boolean(
        _ name: String, _ keyPath: WritableKeyPath<DaemonSettings, Bool> & Sendable, _ summary: String
    ) -> SettingKey {
        SettingKey(
            name: name, section: .daemon, summary: summary, accepts: "true or false (or yes/no, on/off, 1/0)",
            store: { text, settings in
                // The words systemd's unit files take for a switch (parse_boolean), in any case.
                switch text.lowercased() {
                case "true", "yes", "y", "on", "t", "1": settings[keyPath: keyPath] = true
                case "false", "no", "n", "off", "f", "0": settings[keyPath: keyPath] = false
                default: return "expected true or false (or yes/no, on/off, 1/0, as systemd takes them), got '\(text)'"
                }
                return nil
            },
            read: { SettingText(text: $0[keyPath: keyPath] ? "true" : "false", isString: false) })
    }

    private static func wholeNumber(
        _ name: String, _ keyPath: WritableKeyPath<DaemonSettings, Int> & Sendable, range: ClosedRange<Int>, _ summary: String
    ) -> SettingKey {
        let bounds = "\(range.lowerBound) to \(range.upperBound)"
        return SettingKey(
            name: name, section: .daemon, summary: summary, accepts: "a whole number, \(bounds)",
            store: { text, settings in
                guard let number = decimalNumber(text), let count = Int(exactly: number), range.contains(count) else {
                    return "expected a whole number from \(bounds), got '\(text)'"
                }
                settings[keyPath: keyPath] = count
                return nil
            },
            read: { SettingText(text: String($0[keyPath: keyPath]), isString: false) })
    }

    private static func number(
        _ name: String, _ keyPath: WritableKeyPath<DaemonSettings, Double> & Sendable,
        unit: String, range: ClosedRange<Double>, _ summary: String
    ) -> SettingKey {
        number(name, section: .daemon, unit: unit, range: range, summary,
               get: { $0[keyPath: keyPath] }, set: { $0[keyPath: keyPath] = $1 })
    }

    private static func judge(
        _ name: String, _ keyPath: WritableKeyPath<ClassifierSettings, Double> & Sendable,
        unit: String, range: ClosedRange<Double>, _ summary: String
    ) -> SettingKey {
        number(name, section: .classifier, unit: unit, range: range, summary,
               get: { $0.classifier[keyPath: keyPath] }, set: { $0.classifier[keyPath: keyPath] = $1 })
    }

    private static func number(
        _ name: String, section: Section, unit: String, range: ClosedRange<Double>, _ summary: String,
        get: @escaping @Sendable (DaemonSettings) -> Double,
        set: @escaping @Sendable (inout DaemonSettings, Double) -> Void
    ) -> SettingKey {
        let bounds = "\(formatDecimal(range.lowerBound)) to \(formatDecimal(range.upperBound))"
        return SettingKey(
            name: name, section: section, summary: summary, accepts: "\(unit), \(bounds)",
            store: { text, settings in
                guard let value = decimalNumber(text), range.contains(value) else {
                    return "expected \(unit) from \(bounds), got '\(text)'"
                }
                set(&settings, value)
                return nil
            },
            read: { SettingText(text: formatDecimal(get($0)), isString: false) })
    }

    /// orientd's one number grammar (`parseDecimal`): plain decimals ("25", "12.5", "-3",
    /// "1e3"), nothing else: no hex, no "inf" or "nan".
    static func decimalNumber(_ text: String) -> Double? { parseDecimal(text) }
}
