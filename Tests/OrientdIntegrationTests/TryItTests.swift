import Foundation
import ProcessHarness
import Testing

extension IntegrationTests {
    /// The README's try-it path: scripts/try keeps orientd on an emulated accelerometer at a
    /// known socket and says how to reach it; scripts/turn-emulated-device turns it from another
    /// terminal; Ctrl-C (here SIGTERM) takes both down.
    @Suite struct TryItTests {
        static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized.path

        @Test func tryItRunsOrientdToTurnFromAnotherTerminal() throws {
            let state = makeScratchDirectory() + "/try"
            // With the signal mask of a shell in a terminal (the test runner's blocks SIGTERM), so
            // that stopping it is the Ctrl-C a user gives.
            let unblocked = "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, set()); os.execv(sys.argv[1], sys.argv[1:])"
            let tryIt = try ChildProcess("/usr/bin/python3", ["-c", unblocked, Self.root + "/scripts/try", "--no-build", "--state", state])
            defer { tryIt.stop() }
            try #require(waitUntil(timeout: 30) { tryIt.output.contains { $0.text.hasPrefix("Ctrl-C here stops") } },
                         "scripts/try said: \(tryIt.output.map(\.text))")
            let said = tryIt.output.map(\.text).joined(separator: "\n")
            #expect(said.contains("export ORIENTD_SOCKET=\(state)/orientd.sock PATH="), "\(said)")
            // The turn command as printed works as it is: it names a --state that is not the default.
            #expect(said.contains("scripts/turn-emulated-device --state \(state) landscapeLeft"), "\(said)")
            let socket = ["ORIENTD_SOCKET": state + "/orientd.sock"]
            let get = { (try? run("orientctl", ["get"], environment: socket).standardOutput) ?? "" }
            #expect(get() == "portrait\n")

            let turn = { (arguments: [String]) in try run(executable: Self.root + "/scripts/turn-emulated-device", ["--state", state] + arguments) }
            #expect(try turn(["landscapeLeft"]).status == 0)
            #expect(waitUntil(timeout: 10) { get() == "landscapeLeft\n" }, "\(get())")
            #expect(try turn(["0", "0", "256"]).status == 0)
            #expect(waitUntil(timeout: 10) { get() == "faceUp\n" }, "\(get())")
            // A second scripts/try on the same state directory is refused, and the first goes on.
            let second = try run(executable: Self.root + "/scripts/try", ["--no-build", "--state", state])
            #expect(second.status == 1)
            #expect(second.standardError.contains("another scripts/try is running with \(state)"), "\(second.standardError)")
            // --state may also follow the pose.
            #expect(try run(executable: Self.root + "/scripts/turn-emulated-device", ["landscapeRight", "--state", state]).status == 0)
            #expect(waitUntil(timeout: 10) { get() == "landscapeRight\n" }, "\(get())")
            // Its rotation lock stays in the state directory, not in this machine's /var/lib/orientd.
            if getuid() == 0 {
                #expect(try run("orientctl", ["lock"], environment: socket).status == 0)
                #expect(FileManager.default.fileExists(atPath: state + "/state.json"))
            }

            let wrong = try turn(["sideways"])
            #expect(wrong.status == 2)
            #expect(wrong.standardError.contains("expected an orientation"))

            tryIt.stop()
            #expect(waitUntil(timeout: 10) { !FileManager.default.fileExists(atPath: state + "/orientd.sock") })
            // Nothing of the emulated device is left to point at.
            #expect(waitUntil(timeout: 10) { !FileManager.default.fileExists(atPath: state + "/sysfs") })
            #expect(!FileManager.default.fileExists(atPath: state + "/bin"))
            let gone = try turn(["portrait"])
            #expect(gone.status == 1)
            #expect(gone.standardError.contains("start one with scripts/try"), "\(gone.standardError)")
        }

        /// `scripts/try --sensor-proxy` serves the D-Bus face on a private system bus, and the
        /// line it prints points a D-Bus client there, as pasted; this machine's bus is untouched.
        @Test func tryItServesTheSensorProxyOnAPrivateBus() throws {
            let state = makeScratchDirectory() + "/try"
            let unblocked = "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, set()); os.execv(sys.argv[1], sys.argv[1:])"
            let tryIt = try ChildProcess("/usr/bin/python3", ["-c", unblocked, Self.root + "/scripts/try", "--no-build", "--sensor-proxy", "--state", state])
            defer { tryIt.stop() }
            try #require(waitUntil(timeout: 30) { tryIt.output.contains { $0.text.hasPrefix("Ctrl-C here stops") } },
                         "scripts/try said: \(tryIt.output.map(\.text))")
            let line = try #require(tryIt.output.map(\.text).first { $0.contains("export DBUS_SYSTEM_BUS_ADDRESS=") })
            let address = String(try #require(line.split(separator: "=", maxSplits: 1).last))
            #expect(address == "unix:path=\(state)/system_bus_socket", "\(line)")
            let asked = try run(executable: "/usr/bin/busctl", ["--system", "get-property", "net.hadess.SensorProxy", "/net/hadess/SensorProxy",
                                                                 "net.hadess.SensorProxy", "HasAccelerometer"],
                                environment: ["DBUS_SYSTEM_BUS_ADDRESS": address])
            #expect(asked.standardOutput == "b true\n", "\(asked.standardOutput)\(asked.standardError)")
            tryIt.stop()
            #expect(waitUntil(timeout: 10) { !FileManager.default.fileExists(atPath: state + "/system_bus_socket") })
        }

        /// A state directory another user made first (in a shared /tmp, with links in it) is not
        /// written through: both scripts refuse it before doing anything.
        @Test(.enabled(if: getuid() == 0, "only root can hand a directory to another user"))
        func anotherUsersStateDirectoryIsRefused() throws {
            let state = makeScratchDirectory() + "/theirs"
            try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false)
            #expect(chown(state, 65534, 65534) == 0)
            try FileManager.default.createSymbolicLink(atPath: state + "/bin", withDestinationPath: "/etc/orientd-try-victim")
            for (script, arguments) in [("try", ["--no-build", "--state", state]), ("turn-emulated-device", ["--state", state, "portrait"])] {
                let result = try run(executable: Self.root + "/scripts/" + script, arguments)
                #expect(result.status == 1, "\(script): \(result.standardError)")
                #expect(result.standardError.contains("is not a directory of yours"), "\(script): \(result.standardError)")
            }
            #expect(!FileManager.default.fileExists(atPath: "/etc/orientd-try-victim"))
        }
    }
}
