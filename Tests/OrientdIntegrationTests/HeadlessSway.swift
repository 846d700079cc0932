import Foundation
import OrientdProtocol
import ProcessHarness

/// A real sway with no screen (wlroots' headless backend, pixman renderer, no input devices): one
/// output, HEADLESS-1. sway refuses to run as root, so under root it runs as the user nobody.
final class HeadlessSway: @unchecked Sendable {
    /// `$SWAYSOCK` as given to it: sway takes it as its path when nothing is there, so a sway
    /// restarted with it listens where the first one did.
    let configuredSocketPath: String
    /// Where it listens now: `configuredSocketPath`, or after `start(namingItsOwnSocket: true)`
    /// `sway-ipc.UID.PID.sock`, as a sway started without `$SWAYSOCK` names it.
    private(set) var socketPath: String
    /// Its `$XDG_RUNTIME_DIR`, owned by the user it runs as.
    let directory: String
    private var process: ChildProcess?

    init() throws {
        directory = makeScratchDirectory()
        configuredSocketPath = directory + "/sway.sock"
        socketPath = configuredSocketPath
        // Xwayland is not installed, and not needed.
        try "xwayland disable\n".write(toFile: directory + "/config", atomically: true, encoding: .utf8)
        if getuid() == 0 {
            chmod(directory, 0o700)
            chown(directory, Self.nobody, Self.nobody)
        }
    }

    deinit { stop() }

    private static let nobody: UInt32 = 65534

    /// `command` run as the user sway runs as.
    static func asSwayUser(_ command: [String]) -> [String] {
        getuid() == 0 ? ["setpriv", "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "--"] + command : command
    }

    /// Starts sway and waits until it answers on its socket.
    func start(namingItsOwnSocket: Bool = false) throws {
        var environment = [
            "XDG_RUNTIME_DIR": directory, "HOME": directory, "SWAYSOCK": namingItsOwnSocket ? "" : configuredSocketPath,
            "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
            "WAYLAND_DISPLAY": "", "DISPLAY": "",
        ]
        if namingItsOwnSocket { environment["SWAYSOCK"] = nil }
        // env -u: a SWAYSOCK of the test's own environment must not reach it either.
        let arguments = (namingItsOwnSocket ? ["-u", "SWAYSOCK"] : []) + Self.asSwayUser(["sway", "-c", directory + "/config"])
        let sway = try ChildProcess("/usr/bin/env", arguments, environment: environment, standardError: directory + "/sway.log")
        process = sway
        socketPath = namingItsOwnSocket ? directory + "/sway-ipc.\(getuid() == 0 ? Self.nobody : getuid()).\(sway.pid).sock" : configuredSocketPath
        guard waitUntil(timeout: 20, every: 0.05, { transform(of: "HEADLESS-1") != nil }) else {
            let log = (try? String(contentsOfFile: directory + "/sway.log", encoding: .utf8)) ?? ""
            throw TestFailure("headless sway did not answer on \(socketPath) within 20 s; its log:\n\(log.suffix(2000))")
        }
    }

    /// Ends sway with SIGTERM; it removes its socket as it goes.
    func stop() {
        process?.stop()
        process = nil
        unlink(socketPath)
    }

    /// Runs `swaymsg` with `arguments`; its standard output, nil when it failed.
    func message(_ arguments: [String]) -> String? {
        guard let reply = try? run(executable: "/usr/bin/swaymsg", ["-s", socketPath] + arguments), reply.status == 0 else { return nil }
        return reply.standardOutput
    }

    /// The output's `transform` as `swaymsg -t get_outputs` shows it ("normal", "90", ...), nil
    /// when sway does not answer or has no such output.
    func transform(of output: String) -> String? {
        guard let reply = message(["-r", "-t", "get_outputs"]), case .array(let outputs)? = Wire.decode(Array(reply.utf8)) else { return nil }
        return outputs.first { $0["name"]?.stringValue == output }?["transform"]?.stringValue
    }
}
