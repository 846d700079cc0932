import Foundation
import AccelerometerIO
import OrientationCore
import OrientdConfiguration
import Testing

private let defaults = DaemonSettings(socketPath: "/run/orientd.sock")

/// Reads `text` as the file "orientd.conf" over the defaults.
private func read(_ text: String) throws(ConfigurationProblems) -> DaemonSettings {
    var settings = defaults
    try ConfigurationFile.apply(text: text, file: "orientd.conf", to: &settings)
    return settings
}

/// The problems reading `text` reports, as "file:line: reason" lines.
private func problems(_ text: String) -> [String] {
    do {
        _ = try read(text)
        return []
    } catch {
        return error.problems.map(\.description)
    }
}

@Suite struct ConfigurationFileTests {
    @Test func anEmptyOrCommentOnlyFileKeepsTheDefaults() throws {
        #expect(try read("") == defaults)
        #expect(try read("# nothing set\n\n") == defaults)
        #expect(try read("classifier:\n") == defaults)
    }

    @Test func valuesAreReadIntoTheirSettings() throws {
        let settings = try read("""
            uri: "ip:192.0.2.7:30431"
            socket: /run/user/1000/orientd.sock
            rate: 25
            max-clients: 16
            log-level: debug
            classifier:
              settle-ms: 60
              hysteresis-degrees: 15.5
              gravity: 9.81
            """)
        var expected = defaults
        expected.uris = ["ip:192.0.2.7:30431"]
        expected.socketPath = "/run/user/1000/orientd.sock"
        expected.rate = 25
        expected.maxClients = 16
        expected.logLevel = .debug
        expected.classifier.settleMs = 60
        expected.classifier.hysteresisDegrees = 15.5
        expected.classifier.gravity = 9.81
        #expect(settings == expected)
    }

    @Test func theTemplateReadsBackToTheSettingsItWasWrittenFrom() throws {
        #expect(try read(ConfigurationTemplate.render(defaults, defaults: defaults)) == defaults)
        var changed = defaults
        changed.uris = ["ip:board.local"]
        changed.socketPath = "/tmp/a \"quoted\" name.sock"
        changed.rate = 12.5
        changed.classifier.faceDelayMs = 750
        changed.classifier.turnInProgressDegreesPerSecond = 400
        changed.devices = [
            "ip:board.local/accel_3d-base": DeviceSettings(mountMatrix: try MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, -1"), location: .base),
            "ip:board.local": DeviceSettings(mountMatrix: try MountMatrix(parsing: "-1, 0, 0; 0, -1, 0; 0, 0, 1")),
        ]
        #expect(try read(ConfigurationTemplate.render(changed, defaults: defaults)) == changed)
    }

    /// A remote board has no udev hwdb on orientd's side: the file gives mount matrices and
    /// locations, by accelerometer id or by URI; every mistake is reported on its line.
    @Test func devicesGiveMountMatricesAndLocations() throws {
        let settings = try read("""
            devices:
              "ip:192.0.2.7/bmc150_accel":
                mount-matrix: "0, 1, 0; -1, 0, 0; 0, 0, 1"
                location: base
              "ip:192.0.2.8":
                mount-matrix: "-1, 0, 0; 0, -1, 0; 0, 0, 1"
            """)
        #expect(settings.devices["ip:192.0.2.7/bmc150_accel"] == DeviceSettings(
            mountMatrix: try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1"), location: .base))
        #expect(settings.devices["ip:192.0.2.8"]?.mountMatrix == (try MountMatrix(parsing: "-1, 0, 0; 0, -1, 0; 0, 0, 1")))
        let reported = problems("""
            devices:
              "ip:a/accel":
                mount-matrix: "1, 0; 0, 1"
                location: lid
                colour: red
              "ip:b":
                location: base
            """)
        #expect(reported.count == 4, "\(reported)")
        #expect(reported[0].hasPrefix("orientd.conf:3: devices.ip:a/accel.mount-matrix: "))
        #expect(reported[1] == "orientd.conf:4: devices.ip:a/accel.location: expected display or base, got 'lid'")
        #expect(reported[2] == "orientd.conf:5: devices.ip:a/accel: unknown key 'colour'; known keys: mount-matrix, location")
        #expect(reported[3].hasPrefix("orientd.conf:7: devices.ip:b.location: a location belongs to one accelerometer"))
    }

    @Test func theTemplateListsEveryKeyOnceAndCommentsOutDefaults() {
        var changed = defaults
        changed.rate = 10
        let template = ConfigurationTemplate.render(changed, defaults: defaults)
        for key in SettingKey.all {
            let lines = template.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                $0.hasPrefix("\(key.name):") || $0.hasPrefix("#\(key.name):")
            }
            #expect(lines.count == 1, "\(key.name)")
            #expect(lines.first?.hasPrefix("#") == (key.name != "rate"), "\(key.name)")
        }
        #expect(template.contains("\nrate: 10\n"))
    }

    @Test func anUnknownKeyIsNamedWithItsLineAndANearGuess() {
        #expect(problems("rate: 25\nrat: 30\n") == ["orientd.conf:2: unknown key 'rat'; did you mean 'rate'?"])
        #expect(problems("classifier:\n  settle-msec: 60\n")
            == ["orientd.conf:2: unknown key 'settle-msec' under 'classifier:'; did you mean 'settle-ms'?"])
        #expect(problems("colour: blue\n").first?.hasPrefix("orientd.conf:1: unknown key 'colour'; known keys: uri, socket") == true)
    }

    @Test func aKeyInTheWrongSectionSaysWhereItBelongs() {
        #expect(problems("settle-ms: 60\n") == ["orientd.conf:1: 'settle-ms' belongs under 'classifier:'"])
        #expect(problems("classifier:\n  rate: 25\n")
            == ["orientd.conf:2: 'rate' is a top-level key, not one under 'classifier:'"])
    }

    @Test func aBadValueIsRefusedWithTheReason() {
        #expect(problems("rate: fast\n") == ["orientd.conf:1: rate: expected polls per second from 1 to 1000, got 'fast'"])
        #expect(problems("rate: 0\n") == ["orientd.conf:1: rate: expected polls per second from 1 to 1000, got '0'"])
        #expect(problems("rate: .nan\n") == ["orientd.conf:1: rate: expected polls per second from 1 to 1000, got '.nan'"])
        #expect(problems("classifier:\n  settle-ms: -5\n")
            == ["orientd.conf:2: classifier.settle-ms: expected milliseconds from 0 to 5000, got '-5'"])
        #expect(problems("max-clients: 2.5\n")
            == ["orientd.conf:1: max-clients: expected a whole number from 1 to 1000000, got '2.5'"])
        #expect(problems("log-level: loud\n").first?.hasPrefix("orientd.conf:1: log-level: expected one of trace, debug, info") == true)
        #expect(problems("socket: orientd.sock\n") == ["orientd.conf:1: socket: expected an absolute path, got 'orientd.sock'"])
        #expect(problems("uri: usb\n") == ["orientd.conf:1: uri: expected 'local:' or 'ip:HOST[:PORT]', got 'usb'"])
    }

    @Test func numbersAreDecimalsOnly() throws {
        #expect(try read("max-clients: 1e3\n").maxClients == 1000)
        #expect(try read("rate: 12.5\n").rate == 12.5)
        for text in ["0x10", "inf", "1_000", "12,5", "25 Hz"] {
            #expect(problems("rate: \(text)\n").count == 1, "\(text)")
        }
        #expect(problems("uri: \"usb:\"\n") == ["orientd.conf:1: uri: expected 'local:' or 'ip:HOST[:PORT]', got 'usb:'"])
    }

    /// Several contexts: a YAML list, or one string with commas (what repeated flags become).
    @Test func severalURIs() throws {
        #expect(try read("uri: [\"local:\", \"ip:192.0.2.7\"]\n").uris == ["local:", "ip:192.0.2.7"])
        #expect(try read("uri:\n  - \"local:\"\n  - \"ip:board:30431\"\n").uris == ["local:", "ip:board:30431"])
        #expect(try read("uri: \"ip:a, ip:b\"\n").uris == ["ip:a", "ip:b"])
        #expect(problems("uri: [\"local:\", \"usb:\"]\n") == ["orientd.conf:1: uri: expected 'local:' or 'ip:HOST[:PORT]', got 'usb:'"])
        #expect(problems("uri: [\"ip:a\", \"ip:a\"]\n") == ["orientd.conf:1: uri: 'ip:a' is given twice; each context is read once"])
        #expect(problems("uri: []\n") == ["orientd.conf:1: uri: expected a list of libiio URIs, got a list"])
        var settings = defaults
        try settings.apply(flags: [("uri", "local:,ip:127.0.0.1:30431")])
        #expect(settings.uris == ["local:", "ip:127.0.0.1:30431"])
    }

    @Test func aValueOnLaterLinesIsReportedOnItsKeysLine() {
        #expect(problems("classifier:\n  settle-ms: |\n    lots\n")
            == ["orientd.conf:2: classifier.settle-ms: expected milliseconds from 0 to 5000, got 'lots\n'"])
    }

    @Test func keysThatDefeatEachOtherAtThisRateAreNamed() throws {
        #expect(defaults.conflicts.isEmpty)
        let slow = try read("rate: 1\n")
        #expect(slow.conflicts.map(\.description) == [
            "configuration: filter-reset-gap-ms (1000) must be longer than two polls at rate 1 (2000 ms), or every sample restarts the filter",
            "configuration: stale-after-ms (2000) must be longer than two polls at rate 1 (2000 ms), or one slow read makes the orientation unknown",
            "configuration: swing-window-ms (300) must be at least one poll at rate 1 (1000 ms), or no swing is ever seen",
        ])
        #expect(try read("rate: 1\nclassifier:\n  filter-reset-gap-ms: 2500\n  stale-after-ms: 5000\n  swing-window-ms: 1000\n").conflicts.isEmpty)
    }

    @Test func aMissingOrStructuredValueIsRefused() {
        #expect(problems("rate:\n") == ["orientd.conf:1: rate: expected polls per second, 1 to 1000, got nothing"])
        #expect(problems("rate: [1, 2]\n") == ["orientd.conf:1: rate: expected polls per second, 1 to 1000, got a list"])
        #expect(problems("classifier: 5\n")
            == ["orientd.conf:1: 'classifier' holds the judge's keys, one per line, indented under it; got '5'"])
        #expect(problems("- rate\n- 25\n") == ["orientd.conf:1: expected 'key: value' lines, got a list"])
    }

    @Test func brokenYAMLGivesTheLineOfTheBreak() throws {
        let reported = problems("rate: 25\nclassifier:\n  settle-ms: 60\n    face-delay-ms: 10\n")
        #expect(reported.count == 1)
        #expect(reported.first?.hasPrefix("orientd.conf:4: not valid YAML: ") == true)
        // An unquoted "local:" is YAML for a nested key; the line says so rather than guess.
        let unquoted = problems("uri: local:\n")
        #expect(unquoted.count == 1)
        #expect(unquoted.first?.hasPrefix("orientd.conf:1: ") == true)
    }

    @Test func aKeyGivenTwiceIsRefused() {
        #expect(problems("rate: 25\nrate: 30\n") == ["orientd.conf:1: 'rate' given more than once; keep one"])
    }

    /// "Billion laughs": nine anchors, each a list of nine aliases of the one before, the last
    /// used as a mapping key. Composing it hashes 9^9 nodes; it is refused before that, at once.
    @Test func anAliasBombIsRefusedBeforeItIsExpanded() {
        var lines = [#"a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]"#]
        let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
        for (previous, name) in zip(names, names.dropFirst()) {
            lines.append("\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ", ") + "]")
        }
        lines += ["? *i", ": boom"]
        let started = ContinuousClock.now
        let reported = problems(lines.joined(separator: "\n") + "\n")
        // Milliseconds in fact; before the check, minutes at 100 % CPU.
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(reported.first == "orientd.conf:1: '&a' is a YAML anchor; orientd's config takes no anchors or aliases: write the value out")
        #expect(reported.count == 6)
        #expect(reported.last == "orientd.conf: 77 more anchors or aliases; the config has no use for any")
    }

    @Test func anchorsAndAliasesAreRefusedWithTheirLines() {
        #expect(problems("rate: &r 25\nclassifier:\n  settle-ms: *r\n") == [
            "orientd.conf:1: '&r' is a YAML anchor; orientd's config takes no anchors or aliases: write the value out",
            "orientd.conf:3: '*r' is a YAML alias; orientd's config takes no anchors or aliases: write the value out",
        ])
        // An alias with no anchor is refused the same way, not as Yams' "undefined alias".
        #expect(problems("rate: *nowhere\n")
            == ["orientd.conf:1: '*nowhere' is a YAML alias; orientd's config takes no anchors or aliases: write the value out"])
    }

    /// '*' and '&' inside quotes, comments and block scalars are text, not references.
    @Test func starsAndAmpersandsInTextAreNotReferences() throws {
        let settings = try read("""
            socket: "/tmp/*a &b.sock"   # *c &d
            state-file: '/tmp/&x/*'
            uri: ip:a*b&c
            """)
        #expect(settings.socketPath == "/tmp/*a &b.sock")
        #expect(settings.stateFile == "/tmp/&x/*")
        #expect(settings.uris == ["ip:a*b&c"])
        #expect(problems("classifier:\n  settle-ms: |\n    *lots &more\n")
            == ["orientd.conf:2: classifier.settle-ms: expected milliseconds from 0 to 5000, got '*lots &more\n'"])
    }

    @Test func everyProblemIsReportedAndNothingIsApplied() {
        var settings = defaults
        #expect(throws: ConfigurationProblems.self) {
            try ConfigurationFile.apply(text: "rate: 25\nrat: 3\nclassifier:\n  settle-ms: lots\n", file: "f", to: &settings)
        }
        #expect(settings == defaults)
        #expect(problems("rat: 3\nclassifier:\n  settle-ms: lots\n").map { $0.split(separator: ":").prefix(2).joined(separator: ":") }
            == ["orientd.conf:1", "orientd.conf:3"])
    }
}

@Suite struct ConfigurationFileOnDiskTests {
    func temporaryFile(_ contents: Data) throws -> String {
        let path = NSTemporaryDirectory() + "orientd-config-\(UUID().uuidString).conf"
        try contents.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aMissingDefaultFileMeansDefaults() throws {
        var settings = defaults
        let read = try ConfigurationFile.apply(path: "/nonexistent/orientd.conf", required: false, to: &settings)
        #expect(!read)
        #expect(settings == defaults)
    }

    @Test func aMissingExplicitFileIsAnError() {
        var settings = defaults
        #expect {
            try ConfigurationFile.apply(path: "/nonexistent/orientd.conf", required: true, to: &settings)
        } throws: { error in
            (error as? ConfigurationProblems)?.description == "/nonexistent/orientd.conf: no such file"
        }
    }

    @Test func aFileIsReadWithItsPathInProblems() throws {
        let path = try temporaryFile(Data("rate: 20\nclassifier:\n  face-delay-ms: x\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var settings = defaults
        #expect {
            try ConfigurationFile.apply(path: path, required: true, to: &settings)
        } throws: { error in
            (error as? ConfigurationProblems)?.description
                == "\(path):3: classifier.face-delay-ms: expected milliseconds from 0 to 10000, got 'x'"
        }
    }

    @Test func aHugeOrBinaryFileIsRefusedWithoutReadingItAll() throws {
        let huge = try temporaryFile(Data(repeating: UInt8(ascii: "#"), count: 1 << 20))
        let binary = try temporaryFile(Data([0xff, 0xfe, 0x00, 0x80]))
        defer {
            try? FileManager.default.removeItem(atPath: huge)
            try? FileManager.default.removeItem(atPath: binary)
        }
        var settings = defaults
        #expect {
            try ConfigurationFile.apply(path: huge, required: true, to: &settings)
        } throws: { error in
            (error as? ConfigurationProblems)?.description == "\(huge): larger than 64 KiB; is this the config file?"
        }
        #expect {
            try ConfigurationFile.apply(path: binary, required: true, to: &settings)
        } throws: { error in
            (error as? ConfigurationProblems)?.description == "\(binary): not UTF-8 text"
        }
    }
}

extension ConfigurationFileOnDiskTests {
    private func refusal(_ path: String) -> String? {
        var settings = defaults
        do {
            try ConfigurationFile.apply(path: path, required: true, to: &settings)
            return nil
        } catch {
            return error.description
        }
    }

    /// Read in-process too: before the check, opening a FIFO with no writer waited for ever.
    @Test func aFIFOOrADirectoryIsRefusedWithoutWaiting() throws {
        let fifo = NSTemporaryDirectory() + "orientd-config-\(UUID().uuidString).fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        #expect(refusal(fifo) == "\(fifo): not a regular file but a FIFO (named pipe); name the YAML config file itself")
        let directory = NSTemporaryDirectory()
        #expect(refusal(directory) == "\(directory): not a regular file but a directory; name the YAML config file itself")
    }

    @Test func devNullIsAnEmptyConfigAndALinkIsFollowed() throws {
        var settings = defaults
        #expect(try ConfigurationFile.apply(path: "/dev/null", required: true, to: &settings))
        #expect(settings == defaults)

        let target = try temporaryFile(Data("rate: 20\n".utf8))
        let link = target + ".link"
        #expect(symlink(target, link) == 0)
        defer {
            unlink(link)
            unlink(target)
        }
        #expect(try ConfigurationFile.apply(path: link, required: true, to: &settings))
        #expect(settings.rate == 20)
    }

    /// The size is judged from the file's own metadata before reading: a sparse 1 GiB file is
    /// refused as quickly as a small one.
    @Test func aSparseHugeFileIsRefusedBySize() throws {
        let huge = try temporaryFile(Data())
        defer { unlink(huge) }
        #expect(truncate(huge, 1 << 30) == 0)
        #expect(refusal(huge) == "\(huge): larger than 64 KiB; is this the config file?")
    }
}

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
        #expect(changes.applied == ["log-level debug", "classifier.face-delay-ms 3000"])
        #expect(changes.needRestart == ["socket", "rate", "devices"])
        var expected = running
        expected.logLevel = .debug
        expected.classifier.faceDelayMs = 3000
        #expect(changes.inForce == expected)
        #expect(SettingChanges(from: running, to: running).isEmpty)
    }

    @Test func everyClassifierKeyAndTheLogLevelApplyLive() {
        #expect(SettingKey.all.filter(\.appliesLive).map(\.name)
            == ["log-level"] + SettingKey.all.filter { $0.section == .classifier }.map(\.name))
    }
}
