import EmulatedSensor
import Foundation
import OrientationCore
import OrientdProtocol
import ProcessHarness
import Testing

extension IntegrationTests {
    @Suite struct RotationLockTests {
        /// Runs orientctl as `nobody`, with `groups` as its supplementary groups. A copy of it, in a
        /// directory anyone may enter: the checkout may live where `nobody` cannot.
        static func orientctlAsNobody(_ arguments: [String], groups: [String] = []) throws -> Finished {
            let copy = try copyOfOrientctl()
            let privileges = ["--reuid=nobody", "--regid=nogroup"] + (groups.isEmpty ? ["--clear-groups"] : ["--groups=\(groups.joined(separator: ","))"])
            return try run(executable: "/usr/bin/setpriv", privileges + [copy] + arguments)
        }

        /// orientctl copied where any user may run it.
        static func copyOfOrientctl() throws -> String {
            let directory = makeScratchDirectory()
            chmod(directory, 0o755)
            let copy = directory + "/orientctl"
            try FileManager.default.copyItem(atPath: Products.path("orientctl"), toPath: copy)
            return copy
        }

        /// A daemon whose socket another user can reach.
        static func daemonOpenToOtherUsers(_ arguments: [String] = []) throws -> Daemon {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(.portrait), arguments: arguments)
            chmod(daemon.directory, 0o755)
            return daemon
        }

        @Test func anotherUserMayReadButNotLock() throws {
            let daemon = try Self.daemonOpenToOtherUsers()
            let get = try Self.orientctlAsNobody(["get", "--socket", daemon.socketPath])
            #expect(get.status == 0, "\(get.standardError)")
            #expect(get.standardOutput == "portrait\n")

            let lock = try Self.orientctlAsNobody(["lock", "--socket", daemon.socketPath])
            #expect(lock.status != 0)
            #expect(lock.standardError.contains("permission-denied"))
            #expect(lock.standardError.contains("only root may change the rotation lock"))
            #expect(daemon.log.contains("refused to lock the rotation"))
            #expect(try daemon.client().call("status")["locked"] == .bool(false))
            #expect(!FileManager.default.fileExists(atPath: daemon.directory + "/state.json"))
        }

        @Test func membersOfTheLockGroupMayLock() throws {
            let daemon = try Self.daemonOpenToOtherUsers(["--lock-group", "users"])
            let outsider = try Self.orientctlAsNobody(["unlock", "--socket", daemon.socketPath])
            #expect(outsider.status != 0)
            #expect(outsider.standardError.contains("members of group 'users'"))

            let member = try Self.orientctlAsNobody(["lock", "--socket", daemon.socketPath], groups: ["users"])
            #expect(member.status == 0, "\(member.standardError)")
            #expect(member.standardOutput == "rotation locked\n")
            #expect(try daemon.client().call("status")["locked"] == .bool(true))
        }

        /// The lock survives a restart; a corrupt state file is reported and ignored.
        @Test func theLockSurvivesARestartAndACorruptFileIsIgnored() throws {
            let state = makeScratchDirectory() + "/state.json"
            let sensor = try EmulatedAccelerometer.standard(.landscapeLeft)
            do {
                let daemon = try Daemon(sensor: sensor, arguments: ["--state-file", state])
                #expect(try daemon.client().call("lock")["persisted"] == .bool(true))
                #expect(daemon.stop() == 0)
            }
            let saved = try String(contentsOfFile: state, encoding: .utf8)
            #expect(saved == #"{"locked":true,"orientation":"landscapeLeft"}"# + "\n")

            // The device is portrait now, but interfaces stay locked in landscapeLeft's.
            sensor.turn(to: .portrait)
            do {
                let daemon = try Daemon(sensor: sensor, arguments: ["--state-file", state])
                #expect(daemon.log.contains("the rotation lock is on"))
                let client = try daemon.client()
                let result = try client.call("subscribe", ["events": .array([.string("interfaceOrientationDidChange")])])
                #expect(result["orientation"] == .string("portrait"))
                #expect(result["locked"] == .bool(true))
                #expect(result["interfaceOrientation"] == .string("landscapeRight"))
                daemon.stop()
            }

            try Data(#"{"locked":tr"#.utf8).write(to: URL(fileURLWithPath: state))
            let daemon = try Daemon(sensor: sensor, arguments: ["--state-file", state])
            #expect(daemon.log.contains("ignoring the rotation-lock state in \(state)"))
            #expect(try daemon.client().call("status")["locked"] == .bool(false))
            #expect(try daemon.client().call("lock")["locked"] == .bool(true))
            #expect(try String(contentsOfFile: state, encoding: .utf8).hasPrefix(#"{"locked":true"#))
        }

        /// An unwritable state file does not stop the lock; the reply and the log say it is not kept.
        @Test func anUnwritableStateFileIsReportedNotFatal() throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(), arguments: ["--state-file", "/proc/orientd/state.json"])
            let result = try daemon.client().call("lock")
            #expect(result["locked"] == .bool(true))
            #expect(result["persisted"] == .bool(false))
            #expect(daemon.log.contains("the rotation lock holds until orientd restarts"))
            #expect(try daemon.client().call("status")["locked"] == .bool(true))
        }
    }
}
