import Foundation
import OrientdProtocol
import ProcessHarness

/// A real sway with no screen (wlroots' headless backend, pixman renderer, no input devices): one
/// output, HEADLESS-1. sway refuses to run as root, so under root it runs as the user nobody.
final class HeadlessSway: @unchecked Sendable {
    /// Its IPC socket: sway takes $SWAYSOCK as its path when nothing is there, so a restarted
    /// sway listens where the first one did.
    let socketPath: String
    let directory: String
    private var process: ChildProcess?

    init() throws {
        directory = makeScratchDirectory()
        socketPath = directory + "/sway.sock"
        // Xwayland is not installed, and not needed.
        try "xwayland disable\n".write(toFile: directory + "/config", atomically: true, encoding: .utf8)
        if getuid() == 0 {
            chmod(directory, 0o755)
            chown(directory, Self.nobody, Self.nobody)
        }
    }

    deinit { stop() }

    private static let nobody: UInt32 = 65534

    /// Starts sway and waits until it answers on its socket.
    func start() throws {
        let sway = ["sway", "-c", directory + "/config"]
        let command = getuid() == 0 ? ["setpriv", "--reuid=\(Self.nobody)", "--regid=\(Self.nobody)", "--clear-groups", "--"] + sway : sway
        process = try ChildProcess("/usr/bin/env", command, environment: [
            "XDG_RUNTIME_DIR": directory, "HOME": directory, "SWAYSOCK": socketPath,
            "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
            "WAYLAND_DISPLAY": "", "DISPLAY": "",
        ], standardError: directory + "/sway.log")
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

    /// The output's `transform` as `swaymsg -t get_outputs` shows it ("normal", "90", ...), nil
    /// when sway does not answer or has no such output.
    func transform(of output: String) -> String? {
        guard let reply = try? run(executable: "/usr/bin/swaymsg", ["-s", socketPath, "-r", "-t", "get_outputs"]),
              reply.status == 0, case .array(let outputs)? = Wire.decode(Array(reply.standardOutput.utf8)) else { return nil }
        return outputs.first { $0["name"]?.stringValue == output }?["transform"]?.stringValue
    }
}
