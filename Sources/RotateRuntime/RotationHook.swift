import DaemonThreads
import Glibc
import ScreenRotation
import Synchronization

/// The user's `--exec` command, run through `/bin/sh -c` after each turn with what happened in its
/// environment. It runs beside the turning (a slow hook delays no turn), one at a time and in
/// order: turns made while it runs leave only the latest to run next, so the last run always
/// knows the screen as it is. A failure is reported, not fatal.
package final class RotationHook: Sendable {
    package let command: String
    package let backend: String
    /// Whether the command runs now, and the turn to run it for next.
    private let state = Mutex<(running: Bool, pending: (rotation: PanelRotation, output: String)?)>((false, nil))

    package init(command: String, backend: String) {
        self.command = command
        self.backend = backend
    }

    package func run(rotation: PanelRotation, output: String) {
        state.withLock { state in
            if state.running {
                state.pending = (rotation, output)
            } else {
                state.running = start(rotation: rotation, output: output)
            }
        }
    }

    /// Starts the command, with the state's lock held; false when it could not be run. It gets
    /// orientctl's standard input and output, default signal handling and no blocked signals; a
    /// thread of its own waits for it and then runs the next one.
    private func start(rotation: PanelRotation, output: String) -> Bool {
        var environment = processEnvironment()
        environment["ORIENTD_ROTATION"] = String(rotation.clockwiseDegrees)
        environment["ORIENTD_INTERFACE_ORIENTATION"] = rotation.interfaceOrientation.rawValue
        environment["ORIENTD_OUTPUT"] = output
        environment["ORIENTD_BACKEND"] = backend
        var pid: pid_t = 0
        let started = ToolProcess.start("/bin/sh", ["/bin/sh", "-c", command], environment: environment, fileActions: nil,
                                        ownProcessGroup: false, pid: &pid)
        guard started == 0 else {
            Output.error("orientctl rotate: cannot run the --exec command through /bin/sh: \(String(cString: strerror(started)))")
            return false
        }
        FeedThread().start(name: "orientctl-exec") { [self, pid] in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            let signal = status & 0x7f, exitStatus = (status >> 8) & 0xff
            if signal != 0 {
                Output.error("orientctl rotate: the --exec command '\(command)' was killed by signal \(signal)")
            } else if exitStatus != 0 {
                Output.error("orientctl rotate: the --exec command '\(command)' exited with status \(exitStatus)")
            }
            startPending()
        }
        return true
    }

    private func startPending() {
        state.withLock { state in
            guard let next = state.pending else {
                state.running = false
                return
            }
            state.pending = nil
            state.running = start(rotation: next.rotation, output: next.output)
        }
    }
}
