import AccelerometerIO
import OrientationCore
@testable import OrientdConfiguration
import Testing

let defaults = DaemonSettings(socketPath: "/run/orientd.sock")

/// Reads `text` as the file "orientd.conf" over the defaults.
func read(_ text: String) throws(ConfigurationProblems) -> DaemonSettings {
    var settings = defaults
    try ConfigurationFile.apply(text: text, file: "orientd.conf", to: &settings)
    return settings
}

/// The problems reading `text` reports, as "file:line: reason" lines.
func problems(_ text: String) -> [String] {
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
        #expect(try read("# nothing set\n; nor here\n\n   \n") == defaults)
        #expect(try read("[Classifier]\n") == defaults)
        #expect(try read("[Daemon]\n#rate=50\n[Classifier]\n").rate == 25)
    }

    @Test func valuesAreReadIntoTheirSettings() throws {
        let settings = try read("""
            [Daemon]
            uri=ip:192.0.2.7:30431
            socket = /run/user/1000/orientd.sock
            rate= 25
            max-clients =16
            \tlog-level\t=\tdebug\t
            [Classifier]
            settle-ms=60
            hysteresis-degrees=15.5
            gravity=9.81
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

    /// As in systemd's files: a section may come back, a later assignment wins, CRLF line ends
    /// and a last line without one are read alike, and '=' in a value is part of it.
    @Test func laterAssignmentsWinAndSectionsMayRepeat() throws {
        let settings = try read("[Daemon]\r\nrate=10\r\n[Classifier]\r\nsettle-ms=60\r\n[Daemon]\r\nrate=20\r\nstate-file=/tmp/a=b.json")
        #expect(settings.rate == 20)
        #expect(settings.classifier.settleMs == 60)
        #expect(settings.stateFile == "/tmp/a=b.json")
    }

    /// `key=` sets the key back to its default, whatever an earlier line said.
    /// Group names as useradd(8) takes them (a trailing `$` for Samba machine accounts).
    @Test func lockGroupNamesAreCheckedAsUseraddDoes() throws {
        for name in ["adm", "_orientd", "plugdev", "a.b-c_9", "machine$"] {
            #expect(try read("[Daemon]\nlock-group=\(name)\n").lockGroup == name)
        }
        for name in ["9adm", "$", "a$b", "-x", "wheel group", "gr\u{00FC}n"] {
            #expect(problems("[Daemon]\nlock-group=\(name)\n").first?.hasSuffix("expected a group name, got '\(name)'") == true, "\(name)")
        }
        #expect(problems("[Daemon]\nstate-file=/var/lib/x ;old\n").first?.contains("looks like a path with a comment after it") == true)
        #expect(try read("[Daemon]\nstate-file=/var/lib/a#b;c\n").stateFile == "/var/lib/a#b;c")
    }

    @Test func anEmptyAssignmentRestoresTheDefault() throws {
        let settings = try read("[Daemon]\nrate=10\nrate=\nlock-group=adm\nlock-group=\n[Classifier]\nsettle-ms=60\nsettle-ms=\n")
        #expect(settings == defaults)
    }

    @Test func theTemplateReadsBackToTheSettingsItWasWrittenFrom() throws {
        #expect(try read(ConfigurationTemplate.render(defaults, defaults: defaults)) == defaults)
        var changed = defaults
        changed.uris = ["ip:board.local", "local:"]
        changed.socketPath = "/tmp/a \"quoted\"#name;x.sock"
        changed.rate = 12.5
        changed.lockGroup = "adm"
        changed.sensorProxy = true
        changed.logLevel = .trace
        changed.classifier.faceDelayMs = 750
        changed.classifier.turnInProgressDegreesPerSecond = 400
        changed.devices = [
            "ip:board.local/accel_3d-base": DeviceSettings(mountMatrix: try MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, -1"), location: .base),
            "ip:board.local": DeviceSettings(mountMatrix: try MountMatrix(parsing: "-1, 0, 0; 0, -1, 0; 0, 0, 1")),
            "local:/accel_3d": DeviceSettings(location: .display),
        ]
        let printed = ConfigurationTemplate.render(changed, defaults: defaults)
        #expect(try read(printed) == changed, "\(printed)")
        // Printed again, the same text: nothing is lost or reordered on the way.
        #expect(ConfigurationTemplate.render(try read(printed), defaults: defaults) == printed)
    }

    @Test func theTemplateListsEveryKeyOnceInItsSectionAndCommentsOutDefaults() {
        var changed = defaults
        changed.rate = 10
        changed.classifier.settleMs = 90
        let template = ConfigurationTemplate.render(changed, defaults: defaults)
        var section = ""
        var seen: [String: (section: String, commented: Bool)] = [:]
        for line in template.split(separator: "\n") {
            if line.hasPrefix("[") { section = String(line) }
            guard let match = line.wholeMatch(of: /(#?)([a-z][a-z-]*)=(.*)/) else { continue }
            let name = String(match.2)
            guard SettingKey.named(name) != nil else { continue }  // the [Device] example
            #expect(seen[name] == nil, "\(name) twice")
            seen[name] = (section, !match.1.isEmpty)
        }
        for key in SettingKey.all {
            #expect(seen[key.name]?.section == "[\(key.section.title)]", "\(key.name)")
            #expect(seen[key.name]?.commented == !["rate", "settle-ms"].contains(key.name), "\(key.name)")
        }
        #expect(template.contains("\n[Daemon]\n"))
        #expect(template.contains("\nrate=10\n"))
        #expect(template.contains("\nsettle-ms=90\n"))
        #expect(template.contains("\n#[Device \"ip:192.0.2.7/accel_3d\"]\n"))
    }

    /// A remote board has no udev hwdb on orientd's side: `[Device "ID"]` sections give mount
    /// matrices and locations, by accelerometer id or by URI; every mistake is reported on its line.
    @Test func deviceSectionsGiveMountMatricesAndLocations() throws {
        let settings = try read("""
            [Device "ip:192.0.2.7/bmc150_accel"]
            mount-matrix=0, 1, 0; -1, 0, 0; 0, 0, 1
            location=base

            [Device  "ip:192.0.2.8" ]
            mount-matrix = -1, 0, 0; 0, -1, 0; 0, 0, 1
            """)
        #expect(settings.devices["ip:192.0.2.7/bmc150_accel"] == DeviceSettings(
            mountMatrix: try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1"), location: .base))
        #expect(settings.devices["ip:192.0.2.8"] == DeviceSettings(mountMatrix: try MountMatrix(parsing: "-1, 0, 0; 0, -1, 0; 0, 0, 1")))
        #expect(settings.devices.count == 2)
        let reported = problems("""
            [Device "ip:a/accel"]
            mount-matrix=1, 0; 0, 1
            location=lid
            colour=red
            locaton=base
            rate=25
            [Device "ip:b"]
            location=base
            [Device]
            [Device ip:c]
            """)
        #expect(reported.count == 8, "\(reported)")
        #expect(reported[0].hasPrefix("orientd.conf:2: mount-matrix: "))
        #expect(reported[1] == "orientd.conf:3: location: expected display or base, got 'lid'")
        #expect(reported[2] == "orientd.conf:4: unknown key 'colour' in [Device \"ip:a/accel\"]; known keys: mount-matrix, location")
        #expect(reported[3] == "orientd.conf:5: unknown key 'locaton' in [Device \"ip:a/accel\"]; did you mean 'location'?")
        #expect(reported[4] == "orientd.conf:6: 'rate' belongs under [Daemon], not in a [Device] section")
        #expect(reported[5].hasPrefix("orientd.conf:8: location: a location belongs to one accelerometer"))
        #expect(reported[6].hasPrefix("orientd.conf:9: [Device] names its accelerometer by id in quotes"))
        #expect(reported[7].hasPrefix("orientd.conf:10: after the section name comes one name in double quotes"))
    }

    /// A later section for the same accelerometer (in the same file or a drop-in) changes the keys
    /// it gives and keeps the others; an empty value forgets one.
    @Test func aDeviceSectionGivenAgainChangesOnlyItsKeys() throws {
        let settings = try read("""
            [Device "ip:a/accel"]
            mount-matrix=0, 1, 0; -1, 0, 0; 0, 0, 1
            location=base
            [Device "ip:a/accel"]
            location=display
            [Device "ip:b/accel"]
            location=base
            [Device "ip:b/accel"]
            location=
            """)
        #expect(settings.devices["ip:a/accel"] == DeviceSettings(mountMatrix: try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1"), location: .display))
        #expect(settings.devices["ip:b/accel"] == DeviceSettings())
    }

    @Test func anUnknownKeyIsNamedWithItsLineAndANearGuess() {
        #expect(problems("[Daemon]\nrate=25\nrat=30\n") == ["orientd.conf:3: unknown key 'rat' in [Daemon]; did you mean 'rate'?"])
        #expect(problems("[Classifier]\nsettle-msec=60\n")
            == ["orientd.conf:2: unknown key 'settle-msec' in [Classifier]; did you mean 'settle-ms'?"])
        #expect(problems("[Daemon]\ncolour=blue\n").first?.hasPrefix("orientd.conf:2: unknown key 'colour' in [Daemon]; known keys: uri, socket") == true)
    }

    @Test func aKeyInTheWrongSectionSaysWhereItBelongs() {
        #expect(problems("[Daemon]\nsettle-ms=60\n") == ["orientd.conf:2: 'settle-ms' belongs under [Classifier], not [Daemon]"])
        #expect(problems("[Classifier]\nrate=25\n") == ["orientd.conf:2: 'rate' belongs under [Daemon], not [Classifier]"])
        #expect(problems("[Daemon]\nlocation=base\n")
            == ["orientd.conf:2: 'location' belongs under [Device \"ID\"], naming the accelerometer"])
    }

    @Test func aKeyBeforeAnySectionIsRefused() {
        #expect(problems("# settings\nrate=25\n") == ["orientd.conf:2: 'rate' comes before any section; put it under [Daemon]"])
        #expect(problems("settle-ms=60\n") == ["orientd.conf:1: 'settle-ms' comes before any section; put it under [Classifier]"])
        #expect(problems("colour=blue\n") == ["orientd.conf:1: key=value before any section header; start with [Daemon] or [Classifier]"])
    }

    /// An unknown section is named once, with a guess; its keys are not reported one by one.
    @Test func anUnknownSectionIsRefusedWithAGuess() {
        #expect(problems("[daemon]\nrate=25\nrat=30\n") == ["orientd.conf:1: unknown section [daemon]; did you mean [Daemon]?"])
        #expect(problems("[Devices]\n") == ["orientd.conf:1: unknown section [Devices]; did you mean [Device \"ID\"]?"])
        #expect(problems("[Network]\n")
            == ["orientd.conf:1: unknown section [Network]; known sections: [Daemon], [Classifier], [Device \"ID\"]"])
        #expect(problems("[Daemon \"x\"]\n") == ["orientd.conf:1: [Daemon] takes no name in quotes; only [Device \"ID\"] does"])
    }

    @Test func aLineThatIsNoneOfTheFormsIsRefused() {
        #expect(problems("[Daemon]\nrate 25\n")
            == ["orientd.conf:2: expected key=value, a [Section] header or a comment (# or ;), got 'rate 25'"])
        #expect(problems("[Daemon]\n=25\n") == ["orientd.conf:2: expected a key name before '=', got '=25'"])
        #expect(problems("[Daemon\n").first?.hasPrefix("orientd.conf:1: a section header ends with ']'") == true)
        #expect(problems("[Device \"a\"b\"]\n") == ["orientd.conf:1: a quoted name holds no '\"'; got '[Device \"a\"b\"]'"])
    }

    @Test func aBadValueIsRefusedWithWhatIsAccepted() {
        #expect(problems("[Daemon]\nrate=fast\n") == ["orientd.conf:2: rate: expected polls per second from 1 to 1000, got 'fast'"])
        #expect(problems("[Daemon]\nrate=0\n") == ["orientd.conf:2: rate: expected polls per second from 1 to 1000, got '0'"])
        #expect(problems("[Daemon]\nrate=25 # fast\n") == ["orientd.conf:2: rate: expected polls per second from 1 to 1000, got '25 # fast'"])
        #expect(problems("[Classifier]\nsettle-ms=-5\n") == ["orientd.conf:2: settle-ms: expected milliseconds from 0 to 5000, got '-5'"])
        #expect(problems("[Daemon]\nmax-clients=2.5\n") == ["orientd.conf:2: max-clients: expected a whole number from 1 to 1000000, got '2.5'"])
        #expect(problems("[Daemon]\nlog-level=loud\n").first?.hasPrefix("orientd.conf:2: log-level: expected one of trace, debug, info") == true)
        #expect(problems("[Daemon]\nsocket=orientd.sock\n") == ["orientd.conf:2: socket: expected an absolute path, got 'orientd.sock'"])
        #expect(problems("[Daemon]\nsensor-proxy=maybe\n")
                == ["orientd.conf:2: sensor-proxy: expected true or false (or yes/no, on/off, 1/0, as systemd takes them), got 'maybe'"])
        // Quotes are not INI syntax: a quoted value is taken as written, and refused.
        #expect(problems("[Daemon]\nuri=\"local:\"\n") == ["orientd.conf:2: uri: expected 'local:' or 'ip:HOST[:PORT]', got '\"local:\"'"])
    }

    /// A switch takes the words systemd's unit files take, as a systemd user writes them.
    @Test func switchesTakeSystemdsWords() throws {
        for word in ["true", "yes", "Yes", "on", "1", "y", "t", "TRUE"] {
            #expect(try read("[Daemon]\nsensor-proxy=\(word)\n").sensorProxy == true, "\(word)")
        }
        for word in ["false", "no", "off", "0", "n", "f", "No"] {
            #expect(try read("[Daemon]\nsensor-proxy-polkit=\(word)\n").sensorProxyPolkit == false, "\(word)")  // true by default
        }
    }

    @Test func numbersAreDecimalsOnly() throws {
        #expect(try read("[Daemon]\nmax-clients=1e3\n").maxClients == 1000)
        #expect(try read("[Daemon]\nrate=12.5\n").rate == 12.5)
        for text in ["0x10", "inf", ".nan", "1_000", "12,5", "25 Hz"] {
            #expect(problems("[Daemon]\nrate=\(text)\n").count == 1, "\(text)")
        }
    }

    /// A repeated list key adds to the list, `uri=` empties it (the default then applies unless
    /// more follow), and one line may hold several URIs separated by commas, as the flags do.
    @Test func aRepeatedListKeyAppendsAndAnEmptyOneResets() throws {
        #expect(try read("[Daemon]\nuri=ip:192.0.2.7\n").uris == ["ip:192.0.2.7"])
        #expect(try read("[Daemon]\nuri=local:\nuri=ip:192.0.2.7\n").uris == ["local:", "ip:192.0.2.7"])
        #expect(try read("[Daemon]\nuri=ip:a\nuri=\nuri=ip:b\n").uris == ["ip:b"])
        #expect(try read("[Daemon]\nuri=ip:a\nuri=\n").uris == ["local:"])
        #expect(try read("[Daemon]\nuri=ip:a, ip:b\nuri=ip:c\n").uris == ["ip:a", "ip:b", "ip:c"])
        #expect(problems("[Daemon]\nuri=local:\nuri=usb:\n") == ["orientd.conf:3: uri: expected 'local:' or 'ip:HOST[:PORT]', got 'usb:'"])
        #expect(problems("[Daemon]\nuri=ip:a\nuri=ip:a\n") == ["orientd.conf:3: uri: 'ip:a' is given twice; each context is read once"])
        var settings = defaults
        try settings.apply(flags: [("uri", "local:,ip:127.0.0.1:30431")])
        #expect(settings.uris == ["local:", "ip:127.0.0.1:30431"])
    }

    @Test func keysThatDefeatEachOtherAtThisRateAreNamed() throws {
        #expect(defaults.conflicts.isEmpty)
        let slow = try read("[Daemon]\nrate=1\n")
        #expect(slow.conflicts.map(\.description) == [
            "configuration: filter-reset-gap-ms (1000) must be longer than two polls at rate 1 (2000 ms), or every sample restarts the filter",
            "configuration: stale-after-ms (2000) must be longer than two polls at rate 1 (2000 ms), or one slow read makes the orientation unknown",
            "configuration: swing-window-ms (300) must be at least one poll at rate 1 (1000 ms), or no swing is ever seen",
        ])
        #expect(try read("[Daemon]\nrate=1\n[Classifier]\nfilter-reset-gap-ms=2500\nstale-after-ms=5000\nswing-window-ms=1000\n").conflicts.isEmpty)
    }

    @Test func everyProblemIsReportedAndNothingIsApplied() {
        var settings = defaults
        #expect(throws: ConfigurationProblems.self) {
            try ConfigurationFile.apply(text: "[Daemon]\nrate=20\nrat=3\n[Classifier]\nsettle-ms=lots\n", file: "f", to: &settings)
        }
        #expect(settings == defaults)
        #expect(problems("[Daemon]\nrat=3\n[Classifier]\nsettle-ms=lots\n").map { $0.split(separator: ":").prefix(2).joined(separator: ":") }
            == ["orientd.conf:2", "orientd.conf:4"])
    }
}

/// Whatever bytes a file holds, it is refused with a line and a reason, never a crash, and a
/// file of garbage is reported by its first problems, not one line each.
@Suite struct ConfigurationGarbageTests {
    private func problemsOfBytes(_ bytes: [UInt8]) -> [String] {
        var reader = ConfigurationReader(settings: defaults)
        reader.read(bytes, file: "g.conf")
        return reader.problems.map(\.description)
    }

    @Test func aByteOrderMarkIsSkipped() {
        var reader = ConfigurationReader(settings: defaults)
        reader.read([0xEF, 0xBB, 0xBF] + Array("[Daemon]\nrate=30\n".utf8), file: "bom.conf")
        #expect(reader.problems.isEmpty)
        #expect(reader.settings.rate == 30)
    }

    @Test func controlCharactersAreRefusedOnTheirLine() {
        #expect(problems("[Daemon]\nrate=2\u{1B}[2J5\n")
            == ["orientd.conf:2: holds a control character (\\u{1B}); the config file is plain text"])
        #expect(problems("[Daemon]\nrate=25\0\n") == ["orientd.conf:2: holds a NUL byte; is this the config file?"])
    }

    @Test func aHugeLineIsRefusedWithoutEchoingIt() {
        let reported = problems("[Daemon]\nstate-file=/" + String(repeating: "x", count: 60_000) + "\n")
        #expect(reported == ["orientd.conf:2: state-file: a value of 60001 characters; none is longer than 1024"])
        let key = problems("[Daemon]\n" + String(repeating: "k", count: 60_000) + "=1\n")
        #expect(key.count == 1 && key[0].count < 500, "\(key.first?.prefix(500) ?? "")")
    }

    @Test func garbageIsReportedByItsFirstProblems() {
        #expect(problemsOfBytes([0x5B, 0x44, 0xFF, 0xFE, 0x0A]) == ["g.conf:1: not UTF-8 text; is this the config file?"])
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let reported = problemsOfBytes(bytes)
            #expect(!reported.isEmpty)
            #expect(reported.count <= 21)
        }
        // Text made of the format's own characters: whatever it parses to, at most 20 problems and a count.
        let alphabet = Array("[]=#;:\"- \tabcDevice\n\r-".utf8)
        for _ in 0..<200 {
            let bytes = (0..<2048).map { _ in alphabet.randomElement(using: &generator)! }
            #expect(problemsOfBytes(bytes).count <= 21)
        }
        let lines = problems(String(repeating: "garbage\n", count: 5000))
        #expect(lines.count == 21)
        #expect(lines.last == "orientd.conf: 4980 more problems not shown; fix the ones above first")
    }
}

/// A `#` comment after a path (allowed in 0.1's YAML) would silently name another file.
@Test func aPathWithATrailingCommentIsRefused() {
    let refused = problems("[Daemon]\nstate-file=/var/lib/orientd/state.json  # the lock\nsocket=/run/orientd.sock ; default\n")
    #expect(refused.count == 2, "\(refused)")
    #expect(refused.allSatisfy { $0.contains("looks like a path with a comment after it") }, "\(refused)")
    #expect(problems("[Daemon]\nstate-file=/var/lib/orientd#1/state.json\n").isEmpty)
}
