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

        /// Temporaries a save left when orientd was killed before renaming are removed at start:
        /// only regular files named exactly like the store's own (`state.json.` and six letters
        /// or digits), never a link nor what it points to.
        @Test func temporariesOfAnInterruptedSaveAreRemovedAtStart() throws {
            let directory = makeScratchDirectory()
            let outside = makeScratchDirectory() + "/state.json.Target"
            let stale = ["state.json.AbC123", "state.json.zz9Zz9"]
            let kept = ["state.json.toolong", "state.json.abc", "other.json.AbC123", "state.jsonXAbC12", "state.json.ab-123"]
            for name in stale + kept { _ = FileManager.default.createFile(atPath: "\(directory)/\(name)", contents: Data("{}".utf8)) }
            _ = FileManager.default.createFile(atPath: outside, contents: Data("precious".utf8))
            #expect(symlink(outside, directory + "/state.json.Link01") == 0)

            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(), arguments: ["--state-file", directory + "/state.json"])
            #expect(daemon.log.contains("removed 2 temporary files (state.json.XXXXXX) left in \(directory)"), "\(daemon.log)")
            let left = Set(try FileManager.default.contentsOfDirectory(atPath: directory))
            for name in stale { #expect(!left.contains(name), "\(name)") }
            for name in kept + ["state.json.Link01"] { #expect(left.contains(name), "\(name)") }
            #expect(try String(contentsOfFile: outside, encoding: .utf8) == "precious")
            #expect(try daemon.client().call("lock")["persisted"] == .bool(true))
            // A save leaves no temporary of its own behind.
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: directory)) == left.union(["state.json"]))
        }

        /// A state.json planted as a link to a root-only file: orientd neither follows it nor
        /// tells the log anything of what the target holds; the next lock replaces the link.
        @Test func aStateFileThatIsALinkIsNotFollowedNorShown() throws {
            let directory = makeScratchDirectory()
            let secret = makeScratchDirectory() + "/shadow"
            let secretText = "root:$6$SECRETHASHxyz:19000:0:99999:7:::"
            try secretText.write(toFile: secret, atomically: true, encoding: .utf8)
            chmod(secret, 0o600)
            #expect(symlink(secret, directory + "/state.json") == 0)

            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(.landscapeLeft), arguments: ["--state-file", directory + "/state.json"])
            #expect(daemon.log.contains("ignoring the rotation-lock state in \(directory)/state.json: it is a symbolic link"), "\(daemon.log)")
            #expect(!daemon.log.contains("SECRET"), "\(daemon.log)")
            #expect(!daemon.log.contains("root:"), "\(daemon.log)")
            #expect(try daemon.client().call("status")["locked"] == .bool(false))

            #expect(try daemon.client().call("lock")["persisted"] == .bool(true))
            #expect(try String(contentsOfFile: secret, encoding: .utf8) == secretText)
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/state.json")) == nil)
            #expect(try String(contentsOfFile: directory + "/state.json", encoding: .utf8) == #"{"locked":true,"orientation":"landscapeLeft"}"# + "\n")
        }

        /// Garbage in the state file is reported by its size, never echoed.
        @Test func aCorruptStateFileIsNotEchoedIntoTheLog() throws {
            let state = makeScratchDirectory() + "/state.json"
            try "password=hunter2".write(toFile: state, atomically: true, encoding: .utf8)
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(), arguments: ["--state-file", state])
            #expect(daemon.log.contains("ignoring the rotation-lock state in \(state): it is not valid JSON (16 bytes)"), "\(daemon.log)")
            #expect(!daemon.log.contains("hunter2"), "\(daemon.log)")
        }

        /// A state directory that is a link is refused (writes would follow it anywhere): the log
        /// says why, and the lock still works, unsaved.
        @Test func aStateDirectoryThatIsALinkIsRefused() throws {
            let real = makeScratchDirectory()
            let link = makeScratchDirectory() + "/state"
            #expect(symlink(real, link) == 0)
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(), arguments: ["--state-file", link + "/state.json"])
            #expect(daemon.log.contains("its directory \(link) is a symbolic link, which orientd does not follow"), "\(daemon.log)")
            let result = try daemon.client().call("lock")
            #expect(result["locked"] == .bool(true))
            #expect(result["persisted"] == .bool(false))
            #expect(daemon.log.contains("the rotation lock holds until orientd restarts"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: real).isEmpty)
            #expect(try daemon.client().call("status")["locked"] == .bool(true))
        }

        /// Nor is one that other users may write to without the sticky bit: they could swap the file.
        @Test func aStateDirectoryOthersMayWriteIsRefused() throws {
            let directory = makeScratchDirectory()
            chmod(directory, 0o777)
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(), arguments: ["--state-file", directory + "/state.json"])
            let result = try daemon.client().call("lock")
            #expect(result["persisted"] == .bool(false))
            #expect(daemon.log.contains("its directory \(directory) is writable by other users and has no sticky bit"), "\(daemon.log)")
            #expect(!FileManager.default.fileExists(atPath: directory + "/state.json"))
        }

        /// In a sticky directory (like /tmp) another user may plant a state file: it is not trusted.
        @Test func aStateFileAnotherUserPlantedIsIgnored() throws {
            let directory = makeScratchDirectory()
            chmod(directory, 0o1777)
            let state = directory + "/state.json"
            try #"{"locked":true,"orientation":"landscapeLeft"}"#.write(toFile: state, atomically: true, encoding: .utf8)
            #expect(chown(state, 65534, 65534) == 0)
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(), arguments: ["--state-file", state])
            #expect(daemon.log.contains("it belongs to uid 65534, not to orientd's user"), "\(daemon.log)")
            #expect(try daemon.client().call("status")["locked"] == .bool(false))
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
