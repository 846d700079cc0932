import AccelerometerIO
import OrientationCore
@testable import OrientdConfiguration
import Testing

/// The YAML file of orientd 0.1 is refused with what to write instead: the message converts it,
/// and the conversion reads back to what the old reader made of the file.
@Suite struct LegacyYAMLTests {
    /// The sample a user of 0.1 kept, edited: lists, quotes, comments, both blocks.
    static let oldFile = """
        # orientd configuration (YAML). Every key may be left out: it then keeps its default,
        #uri: "local:"
        uri: ["local:", "ip:192.0.2.7"]
        socket: "/run/orientd-test.sock"   # moved
        rate: 50
        #max-clients: 1024
        lock-group: 'adm'
        sensor-proxy: true

        devices:
          "ip:192.0.2.7/accel_3d":
            mount-matrix: "0, -1, 0; 1, 0, 0; 0, 0, 1"
            location: display
          "ip:192.0.2.7/accel_base":
            location: base

        classifier:
          settle-ms: 60
          face-delay-ms: 300
        """

    @Test func theOldFileIsRefusedWithItsConversion() throws {
        let reported = problems(Self.oldFile)
        #expect(reported.count == 1)
        let message = try #require(reported.first)
        #expect(message.hasPrefix("orientd.conf:3: this is the YAML format of orientd 0.1; the config file is now INI, like systemd's"), "\(message)")
        #expect(message.contains("the top-level keys go under [Daemon], the keys of classifier: under [Classifier]"))
        let converted = try #require(message.split(separator: "This file converted:\n", maxSplits: 1).last.map(String.init))
        #expect(converted == """
                [Daemon]
                uri=local:
                uri=ip:192.0.2.7
                socket=/run/orientd-test.sock
                rate=50
                lock-group=adm
                sensor-proxy=true

                [Classifier]
                settle-ms=60
                face-delay-ms=300

                [Device "ip:192.0.2.7/accel_3d"]
                mount-matrix=0, -1, 0; 1, 0, 0; 0, 0, 1
                location=display

                [Device "ip:192.0.2.7/accel_base"]
                location=base
            """)

        // Pasted as it is printed (indented), it reads to what the YAML said.
        var expected = defaults
        expected.uris = ["local:", "ip:192.0.2.7"]
        expected.socketPath = "/run/orientd-test.sock"
        expected.rate = 50
        expected.lockGroup = "adm"
        expected.sensorProxy = true
        expected.classifier.settleMs = 60
        expected.classifier.faceDelayMs = 300
        expected.devices = [
            "ip:192.0.2.7/accel_3d": DeviceSettings(mountMatrix: try MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1"), location: .display),
            "ip:192.0.2.7/accel_base": DeviceSettings(location: .base),
        ]
        #expect(try read(converted) == expected)
    }

    /// A block list, a file with only the classifier block, and the smallest file of all.
    @Test func everyFormTheOldReaderTookIsConverted() throws {
        #expect(converted("uri:\n  - \"local:\"\n  - ip:board:30431\nrate: 25\n") == "[Daemon]\nuri=local:\nuri=ip:board:30431\nrate=25")
        #expect(converted("uri:\n- 'local:'\n") == "[Daemon]\nuri=local:")
        #expect(converted("classifier:\n    gravity: 9.7 # this sensor\n") == "[Classifier]\ngravity=9.7")
        #expect(converted("---\nrate: 10\n...\n") == "[Daemon]\nrate=10")
        #expect(converted("state-file: \"/tmp/a \\\"b\\\" #c.json\"\n") == "[Daemon]\nstate-file=/tmp/a \"b\" #c.json")
        #expect(problems("classifier:\n").first?.hasSuffix("this file sets nothing: empty it or remove it") == true)
    }

    /// What the old reader refused or the subset lacks is not guessed at: the message then says
    /// how to convert by hand.
    @Test func whatCannotBeConvertedIsLeftToTheUser() {
        for text in ["rate: &r 25\n", "classifier:\n  settle-ms: |\n    60\n", "rate: {a: 1}\n", "rate: \"25\n",
                     "classifier:\n  inner:\n    deeper: 1\n", "\trate: 25\n"] {
            let reported = problems(text)
            #expect(reported.count == 1, "\(text)")
            #expect(reported.first?.contains("this is the YAML format") == true, "\(text)")
            #expect(reported.first?.hasSuffix("convert it by hand, or start from 'orientd --config /dev/null --print-config'") == true, "\(text)")
        }
    }

    /// INI files, and files broken in INI's own ways, are not taken for YAML.
    @Test func onlyYAMLIsTakenForYAML() {
        #expect(problems("[Daemon]\nrate: 25\n") == ["orientd.conf:2: expected key=value, a [Section] header or a comment (# or ;), got 'rate: 25'"])
        #expect(problems("rate=25\n") == ["orientd.conf:1: 'rate' comes before any section; put it under [Daemon]"])
        #expect(problems("# rate: 25\n; classifier:\n").isEmpty)
        #expect(problems("- rate\n").first?.hasPrefix("orientd.conf:1: this is the YAML format") == true)
    }

    /// The mapping-key check, done by hand, accepts what its pattern
    /// `"?[A-Za-z][A-Za-z0-9_-]*"?[ \t]*:([ \t].*)?` does, and nothing else.
    @Test func aMappingKeyIsWhatThePatternMatches() {
        let keys = ["rate: 25", "rate:", "\"uri\": x", "still-after-ms:\t1", "a_b9 :", "x:  ", "\"a\":"]
        let others = ["rate:25", ":", "9rate: 1", "\"\": 1", "rate", "ra te: 1", "-rate: 1", "rate=1", "rate\"\": 1", "ratë: 1", "rate: 1\r2"]
        for line in keys { #expect(LegacyYAMLConfiguration.isMappingKey(line[...]), "\(line)") }
        for line in others { #expect(!LegacyYAMLConfiguration.isMappingKey(line[...]), "\(line)") }
        #expect(converted("lock-group: 'it''s'\n") == "[Daemon]\nlock-group=it's")
    }

    private func converted(_ yaml: String) -> String? {
        guard let message = problems(yaml).first, message.contains("this is the YAML format") else { return nil }
        guard let text = message.split(separator: "This file converted:\n", maxSplits: 1).dropFirst().first else { return nil }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasPrefix("    ") ? $0.dropFirst(4) : $0 }.joined(separator: "\n")
    }
}
