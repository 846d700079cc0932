import Foundation
import ScreenRotation

/// The user's `--exec` command, run through `/bin/sh -c` after each turn with what happened in its
/// environment. It runs on its own: a slow hook delays no turn. A failure is reported, not fatal.
struct RotationHook {
    let command: String
    let backend: String

    func run(rotation: PanelRotation, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var environment = ProcessInfo.processInfo.environment
        environment["ORIENTD_ROTATION"] = String(rotation.clockwiseDegrees)
        environment["ORIENTD_INTERFACE_ORIENTATION"] = rotation.interfaceOrientation.rawValue
        environment["ORIENTD_DEVICE_ORIENTATION"] = rotation.interfaceOrientation.device.rawValue
        environment["ORIENTD_OUTPUT"] = output
        environment["ORIENTD_BACKEND"] = backend
        process.environment = environment
        let command = command
        process.terminationHandler = { finished in
            if finished.terminationReason == .uncaughtSignal {
                Output.error("orientctl rotate: the --exec command '\(command)' was killed by signal \(finished.terminationStatus)")
            } else if finished.terminationStatus != 0 {
                Output.error("orientctl rotate: the --exec command '\(command)' exited with status \(finished.terminationStatus)")
            }
        }
        do {
            try process.run()
        } catch {
            Output.error("orientctl rotate: cannot run the --exec command through /bin/sh: \(error.localizedDescription)")
        }
    }
}
