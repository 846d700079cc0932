import Foundation
import ScreenRotation

/// The user's `--exec` command, run through `/bin/sh -c` after each turn with what happened in its
/// environment. It runs beside the turning (a slow hook delays no turn), one at a time and in
/// order: turns made while it runs leave only the latest to run next, so the last run always
/// knows the screen as it is. A failure is reported, not fatal.
package final class RotationHook: @unchecked Sendable {
    package let command: String
    package let backend: String
    private let lock = NSLock()
    private var running = false
    private var pending: (rotation: PanelRotation, output: String)?

    package init(command: String, backend: String) {
        self.command = command
        self.backend = backend
    }

    package func run(rotation: PanelRotation, output: String) {
        lock.lock()
        defer { lock.unlock() }
        if running {
            pending = (rotation, output)
        } else {
            running = true
            start(rotation: rotation, output: output)
        }
    }

    /// Called with the lock held.
    private func start(rotation: PanelRotation, output: String) {
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
        } catch {
            Output.error("orientctl rotate: cannot run the --exec command through /bin/sh: \(error.localizedDescription)")
            running = false
        }
    }

    private func startPending() {
        lock.lock()
        defer { lock.unlock() }
        guard let next = pending else {
            running = false
            return
        }
        pending = nil
        start(rotation: next.rotation, output: next.output)
    }
}
