import Foundation
import ProcessHarness
import OrientationCore
import Testing

/// The config file and the flags as the real orientd reads them.
extension IntegrationTests {
    @Suite struct ConfigurationDaemonTests {
        private func writeConfig(_ text: String) throws -> String {
            let path = makeScratchDirectory() + "/orientd.conf"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        @Test func aConfigWithProblemsIsRefusedNamingEachLine() throws {
            let config = try writeConfig("[Daemon]\nrate=25\nrat=30\n[Classifier]\nsettle-ms=soon\n")
            let daemon = try Daemon(sensor: nil, arguments: ["--config", config], waitForSocket: false)
            #expect(waitUntil(timeout: 10) { !daemon.process.isRunning })
            #expect(daemon.stop() == 78)  // EX_CONFIG: systemd does not restart it
            #expect(daemon.log.contains("orientd: error: \(config):3: unknown key 'rat' in [Daemon]; did you mean 'rate'?"), "\(daemon.log)")
            #expect(daemon.log.contains("orientd: error: \(config):5: settle-ms: expected milliseconds from 0 to 5000, got 'soon'"))
            #expect(daemon.log.contains("refusing to start"))
            #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
            // Checking the file, nothing was going to start: the last line says only what is wrong.
            let checked = try run("orientd", ["--config", config, "--print-config"])
            #expect(checked.status == 78 && checked.standardOutput.isEmpty)
            #expect(checked.standardError.hasSuffix("orientd: error: the configuration has problems; fix the problems above\n"), "\(checked.standardError)")
        }

        @Test func aMissingExplicitConfigIsAnError() throws {
            let result = try run("orientd", ["--config", "/nonexistent/orientd.conf", "--print-config"])
            #expect(result.status == 78)
            #expect(result.standardError.contains("orientd: error: /nonexistent/orientd.conf: no such file"))
        }

        /// `--config` naming a FIFO with no writer: refused at once (before, orientd waited for
        /// a writer for ever), as are other files that are not regular files.
        @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
            let fifo = makeScratchDirectory() + "/orientd.conf"
            #expect(mkfifo(fifo, 0o600) == 0)
            let log = makeScratchDirectory() + "/stderr"
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Products.path("orientd"))
            process.arguments = ["--print-config", "--config", fifo]
            process.standardError = FileHandle(forWritingAtPath: log)
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let finished = waitUntil(timeout: 20) { !process.isRunning }
            if !finished { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            #expect(finished, "orientd --print-config --config FIFO still ran after 20 s")
            #expect(process.terminationStatus == 78)
            let output = try String(contentsOfFile: log, encoding: .utf8)
            #expect(output.contains("orientd: error: \(fifo): not a regular file but a FIFO (named pipe); a config file is a regular file or a link to one"), "\(output)")
        }

        /// The YAML file of orientd 0.1, kept over an upgrade: orientd refuses to start, and its
        /// log says how to convert the file, with the converted text.
        @Test func anOldYAMLFileIsRefusedWithItsConversion() throws {
            let config = try writeConfig("# kept from 0.1\nrate: 20\nclassifier:\n  settle-ms: 80\n")
            let daemon = try Daemon(sensor: nil, arguments: ["--config", config], waitForSocket: false)
            #expect(waitUntil(timeout: 10) { !daemon.process.isRunning })
            #expect(daemon.stop() == 78)
            #expect(daemon.log.contains("orientd: error: \(config):2: this is the YAML format of orientd 0.1; the config file is now INI"), "\(daemon.log)")
            #expect(daemon.log.contains("This file converted:\n    [Daemon]\n    rate=20\n\n    [Classifier]\n    settle-ms=80\n"), "\(daemon.log)")
        }

        /// The drop-ins of the file the daemon is given override it, in order of name, and a flag
        /// overrides them all.
        @Test func dropInsOverrideTheFileAndFlagsOverrideBoth() throws {
            let config = try writeConfig("[Daemon]\nrate=20\nmax-clients=16\n[Classifier]\nsettle-ms=80\n")
            try FileManager.default.createDirectory(atPath: config + ".d", withIntermediateDirectories: true)
            try "[Daemon]\nrate=30\n[Classifier]\nsettle-ms=90\n".write(toFile: config + ".d/10-first.conf", atomically: true, encoding: .utf8)
            try "[Daemon]\nrate=40\n".write(toFile: config + ".d/20-second.conf", atomically: true, encoding: .utf8)
            let result = try run("orientd", ["--config", config, "--print-config", "--settle-ms", "100"])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardOutput.contains("\nrate=40\n") && result.standardOutput.contains("\nmax-clients=16\n"), "\(result.standardOutput)")
            #expect(result.standardOutput.contains("\nsettle-ms=100\n"), "\(result.standardOutput)")
        }

        /// Every key of the config file is also a flag, and `--print-config` shows the flag won.
        @Test func everyKeyIsSettableByFlagOverTheFile() throws {
            let config = try writeConfig("[Daemon]\nrate=20\n[Classifier]\nsettle-ms=80\n")
            let defaults = try run("orientd", ["--config", config, "--print-config"])
            #expect(defaults.status == 0, "\(defaults.standardError)")
            #expect(defaults.standardOutput.contains("\nrate=20\n"))
            #expect(defaults.standardOutput.contains("\nsettle-ms=80\n"))
            #expect(defaults.standardOutput.contains("\n#max-clients=1024\n"))

            let values = [
                "uri": "ip:192.0.2.1", "socket": "/tmp/elsewhere.sock", "max-clients": "7",
                "log-level": "debug", "rate": "33", "max-clients-per-user": "5",
                "state-file": "/tmp/orientd-state.json", "lock-group": "adm",
            ]
            // Key lines are "name=value", or "#name=value" for a default; prose is "# ...". The
            // [Device] example at the end holds no setting.
            let keys = defaults.standardOutput.split(separator: "\n").prefix { !$0.contains("[Device") }
                .compactMap { $0.wholeMatch(of: /#?([a-z][a-z-]*)=(.*)/).map { (String($0.1), String($0.2)) } }
            #expect(keys.count == 41)
            for (name, current) in keys {
                // On/off keys are --name and --no-name: each turns its key the other way.
                if current == "true" || current == "false" {
                    let (flag, value) = current == "false" ? ("--\(name)", "true") : ("--no-\(name)", "false")
                    let result = try run("orientd", ["--config", config, "--print-config", flag])
                    #expect(result.status == 0 && result.standardOutput.contains("\n\(name)=\(value)\n"), "\(flag): \(result.standardError)")
                    continue
                }
                let value = values[name] ?? String(Int(Double(current)!.rounded(.down)) + 1)
                let result = try run("orientd", ["--config", config, "--print-config", "--\(name)", value])
                #expect(result.status == 0, "--\(name) \(value): \(result.standardError)")
                #expect(result.standardOutput.contains("\n\(name)=\(value)\n"), "--\(name) \(value)")
            }
        }

        /// One rule for the socket however it is given: a relative path is refused from
        /// $ORIENTD_SOCKET as from --socket, each naming where it came from; --socket overrides it.
        @Test func aRelativeSocketIsRefusedFromTheEnvironmentAsFromTheFlag() throws {
            let fromEnvironment = try run("orientd", ["--config", "/dev/null", "--print-config"], environment: ["ORIENTD_SOCKET": "rel.sock"])
            #expect(fromEnvironment.status != 0)
            #expect(fromEnvironment.standardError.contains("$ORIENTD_SOCKET: expected an absolute path, got 'rel.sock'"), "\(fromEnvironment.standardError)")
            let fromFlag = try run("orientd", ["--config", "/dev/null", "--print-config", "--socket", "rel.sock"])
            #expect(fromFlag.status == fromEnvironment.status)
            #expect(fromFlag.standardError.contains("--socket: expected an absolute path, got 'rel.sock'"), "\(fromFlag.standardError)")
            let overridden = try run("orientd", ["--config", "/dev/null", "--print-config", "--socket", "/tmp/abs.sock"],
                                     environment: ["ORIENTD_SOCKET": "rel.sock"])
            #expect(overridden.status == 0, "\(overridden.standardError)")
        }

        @Test func theSampleConfigIsTheDefaults() throws {
            let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../config/orientd.conf").standardized.path
            let printed = try run("orientd", ["--config", "/dev/null", "--print-config"], environment: ["ORIENTD_SOCKET": ""])
            #expect(printed.status == 0, "\(printed.standardError)")
            #expect(try String(contentsOfFile: sample, encoding: .utf8) == printed.standardOutput,
                    "config/orientd.conf is stale: regenerate it with 'orientd --config /dev/null --print-config'")
        }

        /// A classifier constant from the config file reaches the running judge: with a face delay
        /// longer than the time spent lying flat, faceUp is never published.
        @Test func theClassifierUsesTheConfiguredConstants() throws {
            var lines: [String] = []
            for step in 0..<200 {  // 2 s upright, then 2 s flat, at 50 Hz
                let time = Double(step) * 0.02
                lines.append(time < 2 ? "\(time) 0 -9.80665 0" : "\(time) 0 0 9.80665")
            }
            let trace = makeScratchDirectory() + "/flat.trace"
            try (lines.joined(separator: "\n") + "\n").write(toFile: trace, atomically: true, encoding: .utf8)

            func published(config: String) throws -> [String] {
                let daemon = try Daemon(sensor: nil, arguments: ["--config", try writeConfig(config), "--replay", trace, "--fast"], waitForSocket: false)
                #expect(waitUntil(timeout: 10) { !daemon.process.isRunning })
                #expect(daemon.log.contains("finished"))
                return daemon.log.split(separator: "\n").compactMap { line in
                    guard line.contains(" → ") else { return nil }
                    return line.components(separatedBy: " → ").last?.split(separator: " ").first.map(String.init)
                }
            }
            #expect(try published(config: "") == ["portrait", "faceUp"])
            #expect(try published(config: "[Classifier]\nface-delay-ms=3000\n") == ["portrait"])
        }
    }
}
