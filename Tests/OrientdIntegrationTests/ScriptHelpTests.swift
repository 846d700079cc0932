import Foundation
import Testing

/// Every script in scripts/ answers --help, as a new user tries it first, with what it does and
/// nothing done: no package installed, nothing built, tested or run.
@Suite("Scripts' --help")
struct ScriptHelpTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path

    /// Every executable file in scripts/ (not the files they source, nor a directory).
    static var scripts: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root + "/scripts")) ?? []
        return names.filter { name in
            var isDirectory: ObjCBool = false
            guard !name.contains("."), FileManager.default.fileExists(atPath: root + "/scripts/" + name, isDirectory: &isDirectory),
                  !isDirectory.boolValue else { return false }
            return FileManager.default.isExecutableFile(atPath: root + "/scripts/" + name)
        }.sorted()
    }

    /// Programs a script's work would start with: each stand-in records that it was called.
    static let tools = ["apt-get", "sudo", "swift", "dpkg-deb", "umockdev-run", "systemctl", "udevadm", "make", "orientd"]

    /// The suite's output starts with the tests, not XCTest's "Executed 0 tests" (there are none).
    @Test func theTestScriptRunsOnlySwiftTesting() throws {
        let script = try String(contentsOfFile: Self.root + "/scripts/test", encoding: .utf8)
        #expect(script.contains("swift test --disable-xctest"))
        let xctests = try run(executable: "/bin/grep", ["-rlE", "^import XCTest", Self.root + "/Tests"])
        #expect(xctests.standardOutput.isEmpty, "XCTest cases would not run: \(xctests.standardOutput)")
    }

    @Test("the scripts are found")
    func scriptsAreFound() {
        #expect(Self.scripts.count >= 14, "\(Self.scripts)")
    }

    @Test("--help says what the script does and does nothing else", arguments: scripts)
    func helpDoesNothingElse(script: String) throws {
        let scratch = makeScratchDirectory()
        let bin = scratch + "/bin", calls = scratch + "/calls"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for tool in Self.tools {
            try "#!/bin/sh\necho \"\(tool) $*\" >> \(calls)\nexit 1\n".write(toFile: bin + "/" + tool, atomically: true, encoding: .utf8)
            chmod(bin + "/" + tool, 0o755)
        }
        for flag in ["--help", "-h"] {
            let result = try run(executable: Self.root + "/scripts/" + script, [flag],
                                 environment: ["PATH": bin + ":/usr/bin:/bin"])
            #expect(result.status == 0, "\(script) \(flag): \(result.standardError)")
            let firstLine = result.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
            #expect(firstLine.count > 20 && !firstLine.hasPrefix("#") && !firstLine.hasPrefix("set "), "\(script) \(flag) began with '\(firstLine)'")
            #expect(!result.standardOutput.contains("set -euo pipefail"), "\(script) \(flag) printed its code")
        }
        let called = (try? String(contentsOfFile: calls, encoding: .utf8)) ?? ""
        #expect(called.isEmpty, "\(script) --help ran: \(called)")
    }
}
