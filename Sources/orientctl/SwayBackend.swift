import OrientdProtocol
import ScreenRotation

/// Turns the screen through sway's IPC socket, with `SwayCommands`. Each request opens a connection
/// of its own, so a restarted sway is simply found again.
final class SwayBackend: ScreenBackend {
    let name = "sway"
    let socketPath: String
    /// How long a request waits for sway.
    private let timeout = 5.0

    init(socketPath: String) {
        self.socketPath = socketPath
    }

    func outputNames() throws(BackendFailure) -> [String] {
        try outputs().compactMap { $0["name"]?.stringValue }
    }

    func turn(_ output: String, to rotation: PanelRotation) throws(BackendFailure) {
        let commands = SwayCommands.turn(output, to: rotation)
        let reply = try SwayIPC(socketPath: socketPath, timeout: timeout).request(.runCommand, commands)
        guard case .array(let results) = reply else {
            throw BackendFailure(description: "sway answered the turn with \(reply.compactDescription)", compositorGone: false)
        }
        for result in results where result["success"] != .bool(true) {
            let error = result["error"]?.stringValue ?? result.compactDescription
            throw BackendFailure(description: "sway refused '\(commands)': \(error)", compositorGone: false)
        }
    }

    /// What sway shows on `output` now; nil for a transform orientctl never sets (flipped) or an
    /// output sway does not have.
    func rotation(of output: String) throws(BackendFailure) -> PanelRotation? {
        guard let transform = try outputs().first(where: { $0["name"]?.stringValue == output })?["transform"]?.stringValue else {
            return nil
        }
        return SwayCommands.rotation(transform: transform)
    }

    private func outputs() throws(BackendFailure) -> [JSONValue] {
        let reply = try SwayIPC(socketPath: socketPath, timeout: timeout).request(.getOutputs)
        guard case .array(let outputs) = reply else {
            throw BackendFailure(description: "sway answered get_outputs with \(reply.compactDescription)", compositorGone: false)
        }
        return outputs
    }
}
