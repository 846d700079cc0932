import Foundation
import OrientdConfiguration
import Testing

/// A scratch directory for one test, removed with everything in it.
final class ScratchDirectory {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "orientd-config-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `contents` at `name` (a path under the directory) and returns its full path.
    @discardableResult
    func write(_ name: String, _ contents: String) throws -> String {
        try write(name, Data(contents.utf8))
    }

    @discardableResult
    func write(_ name: String, _ contents: Data) throws -> String {
        let file = path + "/" + name
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try contents.write(to: URL(fileURLWithPath: file))
        return file
    }
}

/// Reads the config at `path` with its drop-ins; the settings, or the problems as lines.
private func load(_ path: String, required: Bool = true) -> Result<DaemonSettings, ConfigurationProblems> {
    var settings = defaults
    do {
        try ConfigurationFile.apply(path: path, required: required, to: &settings)
        return .success(settings)
    } catch {
        return .failure(error)
    }
}

private func refusal(_ path: String) -> String? {
    guard case .failure(let problems) = load(path) else { return nil }
    return problems.description
}

@Suite struct ConfigurationFileOnDiskTests {
    @Test func aMissingDefaultFileMeansDefaults() throws {
        var settings = defaults
        let read = try ConfigurationFile.apply(path: "/nonexistent/orientd.conf", required: false, to: &settings)
        #expect(!read)
        #expect(settings == defaults)
    }

    @Test func aMissingExplicitFileIsAnError() {
        #expect(refusal("/nonexistent/orientd.conf") == "/nonexistent/orientd.conf: no such file")
    }

    @Test func aFileIsReadWithItsPathInProblems() throws {
        let scratch = ScratchDirectory()
        let path = try scratch.write("orientd.conf", "[Daemon]\nrate=20\n[Classifier]\nface-delay-ms=x\n")
        #expect(refusal(path) == "\(path):4: face-delay-ms: expected milliseconds from 0 to 10000, got 'x'")
    }

    @Test func aHugeOrBinaryFileIsRefusedWithoutReadingItAll() throws {
        let scratch = ScratchDirectory()
        let huge = try scratch.write("huge.conf", Data(repeating: UInt8(ascii: "#"), count: 1 << 20))
        let binary = try scratch.write("binary.conf", Data([0xff, 0xfe, 0x01, 0x80]))
        let nul = try scratch.write("nul.conf", Data("[Daemon]\nrate=2\05\n".utf8))
        #expect(refusal(huge) == "\(huge): larger than 64 KiB; is this the config file?")
        #expect(refusal(binary) == "\(binary):1: not UTF-8 text; is this the config file?")
        #expect(refusal(nul) == "\(nul):2: holds a NUL byte; is this the config file?")
    }

    /// Read in-process too: before the check, opening a FIFO with no writer waited for ever.
    @Test func aFIFOOrADirectoryIsRefusedWithoutWaiting() throws {
        let scratch = ScratchDirectory()
        let fifo = scratch.path + "/orientd.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(refusal(fifo) == "\(fifo): not a regular file but a FIFO (named pipe); a config file is a regular file or a link to one")
        #expect(refusal(scratch.path) == "\(scratch.path): not a regular file but a directory; a config file is a regular file or a link to one")
    }

    @Test func devNullIsAnEmptyConfigAndALinkIsFollowed() throws {
        #expect(try load("/dev/null").get() == defaults)
        let scratch = ScratchDirectory()
        let target = try scratch.write("target.conf", "[Daemon]\nrate=20\n")
        let link = scratch.path + "/orientd.conf"
        #expect(symlink(target, link) == 0)
        #expect(try load(link).get().rate == 20)
    }

    /// The size is judged from the file's own metadata before reading: a sparse 1 GiB file is
    /// refused as quickly as a small one.
    @Test func aSparseHugeFileIsRefusedBySize() throws {
        let scratch = ScratchDirectory()
        let huge = try scratch.write("huge.conf", "")
        #expect(truncate(huge, 1 << 30) == 0)
        #expect(refusal(huge) == "\(huge): larger than 64 KiB; is this the config file?")
    }
}

/// `<config>.d/*.conf`, read after the config file in order of name; a later assignment wins.
@Suite struct DropInTests {
    @Test func aDropInOverridesTheMainFile() throws {
        let scratch = ScratchDirectory()
        let main = try scratch.write("orientd.conf", "[Daemon]\nrate=20\nmax-clients=16\n[Classifier]\nsettle-ms=60\n")
        try scratch.write("orientd.conf.d/50-faster.conf", "[Daemon]\nrate=50\n")
        let settings = try load(main).get()
        #expect(settings.rate == 50)
        #expect(settings.maxClients == 16)
        #expect(settings.classifier.settleMs == 60)
    }

    /// Two drop-ins apply in the byte order of their names (not the order they were written),
    /// and whatever does not end in .conf is ignored, as systemd does.
    @Test func dropInsApplyInOrderOfName() throws {
        let scratch = ScratchDirectory()
        let main = try scratch.write("orientd.conf", "[Daemon]\nrate=20\nuri=local:\n")
        try scratch.write("orientd.conf.d/20-second.conf", "[Daemon]\nrate=40\n[Classifier]\nsettle-ms=90\n")
        try scratch.write("orientd.conf.d/10-first.conf", "[Daemon]\nrate=30\nuri=ip:192.0.2.7\n[Classifier]\nsettle-ms=70\nface-delay-ms=100\n")
        try scratch.write("orientd.conf.d/a-lower.conf", "[Daemon]\nmax-clients=6\n")
        try scratch.write("orientd.conf.d/Z-upper.conf", "[Daemon]\nmax-clients=5\n")
        try scratch.write("orientd.conf.d/90-last.conf.disabled", "[Daemon]\nrate=99\n")
        try scratch.write("orientd.conf.d/30-notes.txt", "not a config at all")
        try scratch.write("orientd.conf.d/.40-hidden.conf", "[Daemon]\nrate=98\n")
        try scratch.write("orientd.conf.d/README", "[Daemon]\nrate=97\n")
        let settings = try load(main).get()
        #expect(settings.rate == 40)
        #expect(settings.classifier.settleMs == 90)
        #expect(settings.classifier.faceDelayMs == 100)
        // A list key in a drop-in adds to the main file's list.
        #expect(settings.uris == ["local:", "ip:192.0.2.7"])
        // Bytes, not a locale's order: 'Z' (0x5A) comes before 'a' (0x61).
        #expect(settings.maxClients == 6)
    }

    @Test func dropInsApplyWithoutTheMainFileAndAnEmptyListKeyResetsIt() throws {
        let scratch = ScratchDirectory()
        let main = scratch.path + "/orientd.conf"
        try scratch.write("orientd.conf.d/10-board.conf", "[Daemon]\nuri=local:\nuri=ip:a\n")
        try scratch.write("orientd.conf.d/20-only.conf", "[Daemon]\nuri=\nuri=ip:b\n")
        var settings = defaults
        #expect(try ConfigurationFile.apply(path: main, required: false, to: &settings))
        #expect(settings.uris == ["ip:b"])
    }

    @Test func aProblemInADropInNamesItsFileAndNothingIsApplied() throws {
        let scratch = ScratchDirectory()
        let main = try scratch.write("orientd.conf", "[Daemon]\nrate=20\n")
        let bad = try scratch.write("orientd.conf.d/10-bad.conf", "[Daemon]\nrat=30\n")
        let yaml = try scratch.write("orientd.conf.d/20-old.conf", "rate: 30\n")
        #expect(throws: ConfigurationProblems.self) { try load(main).get() }
        guard case .failure(let problems) = load(main) else { return }
        let lines = problems.problems.map(\.description)
        #expect(lines.count == 2)
        #expect(lines.first == "\(bad):2: unknown key 'rat' in [Daemon]; did you mean 'rate'?")
        #expect(lines.last?.hasPrefix("\(yaml):1: this is the YAML format") == true)
    }

    /// A directory named x.conf, a link to nothing, an unreadable file: each refused by name,
    /// never a crash; no drop-in directory, or /dev/null.d, means no drop-ins.
    @Test func whatIsNotARegularFileIsRefusedByName() throws {
        let scratch = ScratchDirectory()
        let main = try scratch.write("orientd.conf", "[Daemon]\nrate=20\n")
        try FileManager.default.createDirectory(atPath: scratch.path + "/orientd.conf.d/10-dir.conf", withIntermediateDirectories: true)
        #expect(symlink(scratch.path + "/nowhere", scratch.path + "/orientd.conf.d/20-dangling.conf") == 0)
        let problems = refusal(main)?.split(separator: "\n").map(String.init) ?? []
        #expect(problems == [
            "\(scratch.path)/orientd.conf.d/10-dir.conf: not a regular file but a directory; a config file is a regular file or a link to one",
            "\(scratch.path)/orientd.conf.d/20-dangling.conf: cannot read it: it is gone (a link to nothing?)",
        ])
        let notADirectory = ScratchDirectory()
        let other = try notADirectory.write("orientd.conf", "[Daemon]\nrate=20\n")
        try notADirectory.write("orientd.conf.d", "a file where the directory would be")
        #expect(refusal(other) == "\(other).d: cannot read the drop-ins: not a directory; drop-ins go in a directory of this name")
        #expect(try load("/dev/null").get() == defaults)
    }

    /// A drop-in that cannot be opened is refused with the system's reason. A link to itself
    /// fails to open for root too (a file without read permission would not: CI runs as root).
    @Test func aDropInThatCannotBeOpenedIsRefusedWithTheReason() throws {
        let scratch = ScratchDirectory()
        let main = try scratch.write("orientd.conf", "[Daemon]\nrate=20\n")
        _ = try scratch.write("orientd.conf.d/00-first.conf", "[Daemon]\nrate=30\n")
        let loop = scratch.path + "/orientd.conf.d/10-loop.conf"
        #expect(symlink(loop, loop) == 0)
        #expect(refusal(main) == "\(loop): cannot read it: \(String(cString: strerror(ELOOP)))")
    }

    @Test func theDropInDirectoryIsTheFileNameWithD() {
        #expect(ConfigurationFile.dropInDirectory(for: "/etc/orientd.conf") == "/etc/orientd.conf.d")
    }
}
