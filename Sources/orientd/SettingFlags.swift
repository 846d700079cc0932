import ArgumentParser
import OrientdConfiguration
import OrientdProtocol

/// The flags that mirror config-file keys, one per `SettingKey`, with the same name. Values stay
/// text here and are checked by the key itself, so a flag and a file line are judged alike.
/// A number's value is taken as given even when it starts with '-' (`--settle-ms -5` is refused
/// as out of range, not as a missing value).
struct DaemonFlags: ParsableArguments {
    @Option(help: help("uri")) var uri: [String] = []
    @Option(help: help("socket")) var socket: String?
    @Option(parsing: .unconditional, help: help("rate")) var rate: String?
    @Option(parsing: .unconditional, help: help("still-rate")) var stillRate: String?
    @Option(parsing: .unconditional, help: help("motion-threshold")) var motionThreshold: String?
    @Option(parsing: .unconditional, help: help("still-after-ms")) var stillAfterMs: String?
    @Option(parsing: .unconditional, help: help("dormant-rate")) var dormantRate: String?
    @Option(parsing: .unconditional, help: help("dormant-after-ms")) var dormantAfterMs: String?
    @Option(parsing: .unconditional, help: help("safety-read-seconds")) var safetyReadSeconds: String?
    @Option(parsing: .unconditional, help: help("keep-reading-ms")) var keepReadingMs: String?
    @Option(parsing: .unconditional, help: help("max-clients")) var maxClients: String?
    @Option(parsing: .unconditional, help: help("max-clients-per-user")) var maxClientsPerUser: String?
    @Option(help: help("state-file")) var stateFile: String?
    @Option(help: help("lock-group")) var lockGroup: String?
    @Option(help: help("log-level")) var logLevel: String?
    @Flag(inversion: .prefixedNo, help: switchHelp("sensor-proxy")) var sensorProxy: Bool?
    @Flag(inversion: .prefixedNo, help: switchHelp("sensor-proxy-polkit")) var sensorProxyPolkit: Bool?

    var given: [(key: String, value: String?)] {
        [("uri", uri.isEmpty ? nil : uri.joined(separator: ",")), ("socket", socket), ("rate", rate), ("still-rate", stillRate),
         ("motion-threshold", motionThreshold), ("still-after-ms", stillAfterMs),
         ("dormant-rate", dormantRate), ("dormant-after-ms", dormantAfterMs), ("safety-read-seconds", safetyReadSeconds), ("keep-reading-ms", keepReadingMs), ("max-clients", maxClients),
         ("max-clients-per-user", maxClientsPerUser), ("state-file", stateFile), ("lock-group", lockGroup),
         ("log-level", logLevel), ("sensor-proxy", sensorProxy.map { String($0) }),
         ("sensor-proxy-polkit", sensorProxyPolkit.map { String($0) })]
    }
}

struct ClassifierFlags: ParsableArguments {
    @Option(parsing: .unconditional, help: help("filter-time-constant-ms")) var filterTimeConstantMs: String?
    @Option(parsing: .unconditional, help: help("carried-filter-time-constant-ms")) var carriedFilterTimeConstantMs: String?
    @Option(parsing: .unconditional, help: help("carried-motion")) var carriedMotion: String?
    @Option(parsing: .unconditional, help: help("filter-reset-gap-ms")) var filterResetGapMs: String?
    @Option(parsing: .unconditional, help: help("free-fall-magnitude")) var freeFallMagnitude: String?
    @Option(parsing: .unconditional, help: help("gravity")) var gravity: String?
    @Option(parsing: .unconditional, help: help("acceleration-tolerance")) var accelerationTolerance: String?
    @Option(parsing: .unconditional, help: help("acceleration-lockout-ms")) var accelerationLockoutMs: String?
    @Option(parsing: .unconditional, help: help("flat-tilt-degrees")) var flatTiltDegrees: String?
    @Option(parsing: .unconditional, help: help("face-hysteresis-degrees")) var faceHysteresisDegrees: String?
    @Option(parsing: .unconditional, help: help("face-delay-ms")) var faceDelayMs: String?
    @Option(parsing: .unconditional, help: help("flat-minimum-ms")) var flatMinimumMs: String?
    @Option(parsing: .unconditional, help: help("flat-ended-lockout-ms")) var flatEndedLockoutMs: String?
    @Option(parsing: .unconditional, help: help("swing-tilt-degrees")) var swingTiltDegrees: String?
    @Option(parsing: .unconditional, help: help("swing-window-ms")) var swingWindowMs: String?
    @Option(parsing: .unconditional, help: help("swing-lockout-ms")) var swingLockoutMs: String?
    @Option(parsing: .unconditional, help: help("portrait-tilt-limit-degrees")) var portraitTiltLimitDegrees: String?
    @Option(parsing: .unconditional, help: help("landscape-tilt-limit-degrees")) var landscapeTiltLimitDegrees: String?
    @Option(parsing: .unconditional, help: help("upside-down-tilt-limit-degrees")) var upsideDownTiltLimitDegrees: String?
    @Option(parsing: .unconditional, help: help("rest-ms")) var restMs: String?
    @Option(parsing: .unconditional, help: help("hysteresis-degrees")) var hysteresisDegrees: String?
    @Option(parsing: .unconditional, help: help("settle-ms")) var settleMs: String?
    @Option(parsing: .unconditional, help: help("turn-in-progress-degrees-per-second")) var turnInProgressDegreesPerSecond: String?
    @Option(parsing: .unconditional, help: help("stale-after-ms")) var staleAfterMs: String?

    var given: [(key: String, value: String?)] {
        [
            ("filter-time-constant-ms", filterTimeConstantMs), ("carried-filter-time-constant-ms", carriedFilterTimeConstantMs),
            ("carried-motion", carriedMotion), ("filter-reset-gap-ms", filterResetGapMs),
            ("free-fall-magnitude", freeFallMagnitude), ("gravity", gravity),
            ("acceleration-tolerance", accelerationTolerance), ("acceleration-lockout-ms", accelerationLockoutMs),
            ("flat-tilt-degrees", flatTiltDegrees), ("face-hysteresis-degrees", faceHysteresisDegrees), ("face-delay-ms", faceDelayMs),
            ("flat-minimum-ms", flatMinimumMs), ("flat-ended-lockout-ms", flatEndedLockoutMs),
            ("swing-tilt-degrees", swingTiltDegrees), ("swing-window-ms", swingWindowMs),
            ("swing-lockout-ms", swingLockoutMs), ("portrait-tilt-limit-degrees", portraitTiltLimitDegrees),
            ("landscape-tilt-limit-degrees", landscapeTiltLimitDegrees),
            ("upside-down-tilt-limit-degrees", upsideDownTiltLimitDegrees),
            ("rest-ms", restMs), ("hysteresis-degrees", hysteresisDegrees), ("settle-ms", settleMs),
            ("turn-in-progress-degrees-per-second", turnInProgressDegreesPerSecond), ("stale-after-ms", staleAfterMs),
        ]
    }
}

/// The help line of a flag: the key's summary and what it accepts, from the one table.
private func help(_ name: String) -> ArgumentHelp {
    guard let key = SettingKey.named(name) else { preconditionFailure("no setting named \(name)") }
    let defaults = DaemonSettings(socketPath: Wire.defaultSocketPath)
    let value = key.value(in: defaults).text
    let shown = key.name == "socket" ? "" : "; default \(value.isEmpty ? "none" : value)"
    return ArgumentHelp("\(key.summary) (\(key.accepts)\(shown))", valueName: "value")
}

/// The help line of an on/off flag (`--x` / `--no-x`).
private func switchHelp(_ name: String) -> ArgumentHelp {
    guard let key = SettingKey.named(name) else { preconditionFailure("no setting named \(name)") }
    let value = key.value(in: DaemonSettings(socketPath: Wire.defaultSocketPath)).text
    return ArgumentHelp("\(key.summary) (default: \(value == "true" ? "on" : "off"))")
}
