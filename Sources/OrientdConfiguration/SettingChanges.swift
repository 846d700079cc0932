extension SettingKey {
    /// Whether a running orientd takes a new value of this key when it reloads its config
    /// (SIGHUP): the log level and the classifier's constants (and the `[Device]` sections, which
    /// reopen the sensor). The others (where it reads, where it serves, the rate, the lock's file
    /// and group) wait for a restart.
    public var appliesLive: Bool { section == .classifier || name == "log-level" }

    /// The key with its section unless that is [Daemon], for a log line: "rate", "[Classifier] settle-ms".
    public var qualifiedName: String { section == .classifier ? "[Classifier] \(name)" : name }
}

/// What a reloaded configuration changes against the settings in force.
public struct SettingChanges: Equatable, Sendable {
    /// Keys whose new value takes effect now, with that value ("[Classifier] settle-ms 60").
    public var applied: [String] = []
    /// Keys whose new value waits for a restart.
    public var needRestart: [String] = []
    /// The settings in force after the reload: the running ones, with the new values of the keys
    /// that apply live.
    public var inForce: DaemonSettings

    public init(from running: DaemonSettings, to reloaded: DaemonSettings) {
        inForce = running
        inForce.logLevel = reloaded.logLevel
        inForce.classifier = reloaded.classifier
        inForce.devices = reloaded.devices
        for key in SettingKey.all {
            let new = key.value(in: reloaded)
            guard new != key.value(in: running) else { continue }
            if key.appliesLive {
                applied.append("\(key.qualifiedName) \(new.text)")
            } else {
                needRestart.append(key.qualifiedName)
            }
        }
        // A [Device] section is a pure value (mount matrix, location): the sensor is reopened with it.
        if running.devices != reloaded.devices { applied.append("[Device] sections (reopening the accelerometers)") }
    }

    public var isEmpty: Bool { applied.isEmpty && needRestart.isEmpty }
}
