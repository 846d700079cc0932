import EmulatedSensor
import Foundation
import ProcessHarness
import Testing

extension IntegrationTests {
    @Suite struct OrientctlTests {
        @Test func getPrintsTheNameOrTheResultObject() throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(.portraitUpsideDown))
            // Every local user may use the socket.
            let mode = try FileManager.default.attributesOfItem(atPath: daemon.socketPath)[.posixPermissions] as? Int
            #expect(mode == 0o666)
            let plain = try run("orientctl", ["get", "--socket", daemon.socketPath])
            #expect(plain.status == 0)
            #expect(plain.standardOutput == "portraitUpsideDown\n")
            let json = try run("orientctl", ["get", "--json"], environment: ["ORIENTD_SOCKET": daemon.socketPath])
            #expect(json.status == 0)
            #expect(json.standardOutput == #"{"orientation":"portraitUpsideDown"}"# + "\n")
            // systemctl's and git's order: the socket before the command, in both spellings.
            for arguments in [["--socket", daemon.socketPath, "get"], ["--socket=\(daemon.socketPath)", "get", "--json"]] {
                let before = try run("orientctl", arguments)
                #expect(before.status == 0, "\(arguments): \(before.standardError)")
                #expect(before.standardOutput.contains("portraitUpsideDown"), "\(arguments)")
            }
        }

        /// Issue 44: unknown is no answer for a script: `orientctl get` prints it, says why on
        /// standard error, and exits 3 (1 is orientd unreachable).
        @Test func getExitsThreeWithUnknown() throws {
            let daemon = try Daemon(sensor: nil)
            let unknown = try run("orientctl", ["get", "--socket", daemon.socketPath])
            #expect(unknown.status == 3, "\(unknown.standardError)")
            #expect(unknown.standardOutput == "unknown\n")
            #expect(unknown.standardError.hasPrefix("orientctl: orientd has no reading from an accelerometer"), "\(unknown.standardError)")
            let unreachable = try run("orientctl", ["get", "--socket", daemon.directory + "/nothing.sock"])
            #expect(unreachable.status == 1)
            #expect(unreachable.standardError.hasPrefix("orientctl: "), "\(unreachable.standardError)")
        }

        /// A negative number is a value out of range, not a missing one (the argument parser takes
        /// '-5' for an option unless told otherwise).
        @Test("a negative number is refused as out of range", arguments: [
            (["orientctl", "angles", "--rate", "-5"], "--rate must be above 0"),
            (["orientctl", "record", "x.trace", "--duration", "-1"], "--duration must be above 0"),
            (["orientd", "--settle-ms", "-5"], "--settle-ms: expected milliseconds from 0 to 5000, got '-5'"),
        ])
        func negativeNumbers(command: [String], refusal: String) throws {
            let result = try run(command[0], Array(command.dropFirst()))
            #expect(result.status != 0)
            #expect(result.standardError.contains(refusal), "\(result.standardError)")
        }

        @Test("a misspelt command gets a guess and a usage error", arguments: [["gte"], ["help", "gte"], ["--socket", "/x", "gte"]])
        func misspeltCommand(arguments: [String]) throws {
            let result = try run("orientctl", arguments)
            #expect(result.status == 64)
            // Every error in one style: "orientctl: …".
            #expect(result.standardError.hasPrefix("orientctl: Unknown command 'gte'; did you mean 'get'?"), "\(result.standardError)")
            #expect(result.standardOutput.isEmpty)
        }

        @Test("only the commands that can print JSON offer --json", arguments: ["watch", "record"])
        func noJSONWhereItIsRefused(command: String) throws {
            let help = try run("orientctl", [command, "--help"])
            #expect(help.status == 0)
            #expect(!help.standardOutput.contains("--json"))
            #expect(try run("orientctl", ["get", "--help"]).standardOutput.contains("--json"))
        }

        /// A command fails with where it looked and how to start orientd; monitor says the same
        /// and waits (--no-reconnect fails as the others do).
        @Test func unreachableDaemonSaysWhereItLookedAndHowToStartIt() throws {
            let directory = makeScratchDirectory()
            let missing = directory + "/nobody.sock"
            for command in [["get"], ["monitor", "--no-reconnect"]] {
                let result = try run("orientctl", command + ["--socket", missing])
                #expect(result.status != 0)
                #expect(result.standardOutput.isEmpty)
                #expect(result.standardError.contains(missing))
                #expect(result.standardError.contains("systemctl start orientd"))
            }
            let errors = directory + "/monitor.err"
            let monitor = try ChildProcess(Products.path("orientctl"), ["monitor", "--socket", missing], standardError: errors)
            defer { monitor.stop() }
            let said = { (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "" }
            #expect(waitUntil(timeout: 10) { said().contains("waiting for orientd to start") }, "\(said())")
            #expect(said().contains(missing) && said().contains("systemctl start orientd"), "\(said())")
            #expect(monitor.isRunning && monitor.output.isEmpty)
        }

        @Test("--help explains every command", arguments: [["--help"], ["get", "--help"], ["monitor", "--help"]])
        func helpForEveryCommand(arguments: [String]) throws {
            let result = try run("orientctl", arguments)
            #expect(result.status == 0)
            #expect(result.standardOutput.contains("USAGE:"))
            #expect(result.standardOutput.contains("--socket") || arguments == ["--help"])
        }

        @Test func orientdHelpNamesItsOptions() throws {
            let result = try run("orientd", ["--help"])
            #expect(result.status == 0)
            for option in ["--uri", "--socket", "--rate", "ORIENTD_SOCKET"] {
                #expect(result.standardOutput.contains(option))
            }
        }
    }
}

import OrientdClient

/// "Not running" is nothing listening (no socket, or refused); anything else (permissions) is
/// another failure, which monitor does not wait through.
@Suite struct NotRunningTests {
    @Test func onlyAMissingOrRefusedSocketIsNotRunning() throws {
        let missing = makeScratchDirectory() + "/nobody.sock"
        #expect(throws: OrientdClientError.self) { _ = try OrientdClient(socketPath: missing) }
        do {
            _ = try OrientdClient(socketPath: missing)
        } catch {
            #expect(error.isNotRunning, "\(error)")
        }
        for (code, notRunning) in [(ENOENT, true), (ECONNREFUSED, true), (EACCES, false), (ENAMETOOLONG, false)] {
            let error = OrientdClientError.unreachable(socketPath: "/run/orientd.sock", reason: String(cString: strerror(code)))
            #expect(error.isNotRunning == notRunning, "\(error)")
            #expect(error.description.contains("systemctl start orientd") == notRunning, "\(error)")
        }
    }

    /// The hint to start orientd names a path orientd takes (absolute, in a directory that
    /// exists); a file of another kind in the socket's place is named for what it is.
    @Test func theHintFitsThePath() throws {
        let directory = makeScratchDirectory()
        func failure(_ path: String) -> String {
            do {
                _ = try OrientdClient(socketPath: path)
                return "connected"
            } catch {
                return error.description
            }
        }
        #expect(failure(directory + "/nobody.sock").contains("'orientd --socket \(directory)/nobody.sock'"))
        #expect(failure(directory + "/missing/nobody.sock").contains("orientd --socket") == false)
        let relative = "orientd-test-\(getpid())-nobody.sock"  // in the current directory, which exists
        let here = FileManager.default.currentDirectoryPath
        #expect(failure(relative).contains("'orientd --socket \(here)/\(relative)'"), "\(failure(relative))")
        #expect(FileManager.default.createFile(atPath: directory + "/file.sock", contents: Data()))
        let inTheWay = failure(directory + "/file.sock")
        #expect(inTheWay.contains("it is not a socket but a file of another kind") && !inTheWay.contains("systemctl start"), "\(inTheWay)")
    }
}
