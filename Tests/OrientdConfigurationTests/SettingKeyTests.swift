import AccelerometerIO
import OrientationCore
import OrientdConfiguration
import Testing

@Suite struct SettingKeyTests {
    @Test func namesAreUniqueAndTheDefaultsAreValid() {
        #expect(Set(SettingKey.all.map(\.name)).count == SettingKey.all.count)
        for key in SettingKey.all {
            var settings = defaults
            #expect(key.apply(key.value(in: defaults).text, to: &settings) == nil, "\(key.name)")
            #expect(settings == defaults)
        }
    }

    @Test func everyClassifierConstantHasAKey() {
        // Changing one key must change ClassifierSettings, and each key a different constant.
        var seen: [ClassifierSettings] = []
        for key in SettingKey.all where key.section == .classifier {
            var settings = defaults
            let current = Double(key.value(in: settings).text)!
            let other = key.apply(String(current + 1), to: &settings) == nil ? current + 1 : current - 1
            #expect(key.apply(String(other), to: &settings) == nil, "\(key.name)")
            #expect(settings.classifier != defaults.classifier, "\(key.name)")
            #expect(!seen.contains(settings.classifier), "\(key.name)")
            seen.append(settings.classifier)
        }
        #expect(Mirror(reflecting: ClassifierSettings()).children.count == seen.count)
    }

    /// A key's section is where the file takes it: each key, set in its own section, reads back.
    @Test func everyKeyIsReadInItsSection() throws {
        for key in SettingKey.all {
            var changed = defaults
            let value = key.value(in: defaults).text
            let other = key.name == "uri" ? "ip:192.0.2.1" : Double(value).map { formatDecimal($0 + 1) } ?? (value == "true" ? "false" : value == "false" ? "true" : nil)
            guard let other, key.apply(other, to: &changed) == nil else { continue }
            #expect(try read("[\(key.section.title)]\n\(key.name)=\(other)\n") == changed, "\(key.name)")
        }
    }
}

/// What a reload (SIGHUP) applies at once and what waits for a restart.
@Suite struct SettingChangesTests {
    @Test func liveKeysApplyAndTheOthersWaitForARestart() throws {
        var running = defaults
        running.rate = 50
        var reloaded = defaults
        reloaded.rate = 30
        reloaded.logLevel = .debug
        reloaded.classifier.faceDelayMs = 3000
        reloaded.socketPath = "/tmp/other.sock"
        reloaded.devices["local:"] = DeviceSettings()
        let changes = SettingChanges(from: running, to: reloaded)
        #expect(changes.applied == ["log-level debug", "[Classifier] face-delay-ms 3000", "[Device] sections (reopening the accelerometers)"])
        #expect(changes.needRestart == ["socket", "rate"])
        var expected = running
        expected.logLevel = .debug
        expected.classifier.faceDelayMs = 3000
        expected.devices["local:"] = DeviceSettings()
        #expect(changes.inForce == expected)
        #expect(SettingChanges(from: running, to: running).isEmpty)
    }

    @Test func everyClassifierKeyAndTheLogLevelApplyLive() {
        #expect(SettingKey.all.filter(\.appliesLive).map(\.name)
            == ["log-level"] + SettingKey.all.filter { $0.section == .classifier }.map(\.name))
    }
}
