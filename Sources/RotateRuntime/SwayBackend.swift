import OrientdProtocol
import ScreenRotation

/// Turns the screen through sway's IPC socket, with `SwayCommands`. Each request opens a connection
/// of its own, so a restarted sway is simply found again.
package final class SwayBackend: ScreenBackend {
    package let name = "sway"
    package let socket: SwaySocket

    package init(socket: SwaySocket) {
        self.socket = socket
    }

    package func outputNames() throws(BackendFailure) -> [String] {
        try outputs().compactMap { $0["name"]?.stringValue }
    }

    package func turn(_ output: String, to rotation: PanelRotation) throws(BackendFailure) {
        // sway takes an output it does not have as config for later, and says success.
        let outputs = try outputNames()
        guard outputs.contains(output) else {
            throw BackendFailure(description: "sway has no output \(output); it has \(outputs.isEmpty ? "none" : outputs.joined(separator: ", "))",
                                 compositorGone: false)
        }
        let commands = SwayCommands.turn(output, to: rotation)
        let reply = try socket.connect().request(.runCommand, commands)
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
    package func rotation(of output: String) throws(BackendFailure) -> PanelRotation? {
        guard let transform = try outputs().first(where: { $0["name"]?.stringValue == output })?["transform"]?.stringValue else {
            return nil
        }
        return SwayCommands.rotation(transform: transform)
    }

    private func outputs() throws(BackendFailure) -> [JSONValue] {
        let reply = try socket.connect().request(.getOutputs)
        guard case .array(let outputs) = reply else {
            throw BackendFailure(description: "sway answered get_outputs with \(reply.compactDescription)", compositorGone: false)
        }
        return outputs
    }
}
