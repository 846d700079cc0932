import Foundation
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

    /// Starts the command, with the state's lock held; false when it could not be run.
    private func start(rotation: PanelRotation, output: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var environment = ProcessInfo.processInfo.environment
        environment["ORIENTD_ROTATION"] = String(rotation.clockwiseDegrees)
        environment["ORIENTD_INTERFACE_ORIENTATION"] = rotation.interfaceOrientation.rawValue
        environment["ORIENTD_OUTPUT"] = output
        environment["ORIENTD_BACKEND"] = backend
        process.environment = environment
        process.terminationHandler = { [self] finished in
            if finished.terminationReason == .uncaughtSignal {
                Output.error("orientctl rotate: the --exec command '\(command)' was killed by signal \(finished.terminationStatus)")
            } else if finished.terminationStatus != 0 {
                Output.error("orientctl rotate: the --exec command '\(command)' exited with status \(finished.terminationStatus)")
            }
            startPending()
        }
        do {
            try process.run()
            return true
        } catch {
            Output.error("orientctl rotate: cannot run the --exec command through /bin/sh: \(error.localizedDescription)")
            return false
        }
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
