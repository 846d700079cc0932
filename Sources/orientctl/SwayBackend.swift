import OrientdProtocol
import ScreenRotation

/// Turns the screen through sway's IPC socket: `output NAME transform 0|90|180|270` (sway counts
/// clockwise, as PanelRotation does: sway-output(5), "The rotation is performed clockwise") and
/// maps touchscreens and pens to the output, so sway turns their input with it.
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
        let commands = Self.commands(turning: output, to: rotation).joined(separator: "; ")
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
        return Self.rotation(transform: transform)
    }

    /// The commands that turn `output`: sway maps the input's coordinates through the output's
    /// transform once the device is mapped to it.
    static func commands(turning output: String, to rotation: PanelRotation) -> [String] {
        let name = quoted(output)
        return [
            "output \(name) transform \(transform(rotation))",
            "input type:touch map_to_output \(name)",
            "input type:tablet_tool map_to_output \(name)",
        ]
    }

    static func transform(_ rotation: PanelRotation) -> String {
        rotation == .upright ? "normal" : String(rotation.clockwiseDegrees)
    }

    static func rotation(transform: String) -> PanelRotation? {
        transform == "normal" ? .upright : Int(transform).flatMap(PanelRotation.init(rawValue:))
    }

    /// A name in sway's command syntax: double quotes, with `"` and `\` escaped.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
    }

    private func outputs() throws(BackendFailure) -> [JSONValue] {
        let reply = try SwayIPC(socketPath: socketPath, timeout: timeout).request(.getOutputs)
        guard case .array(let outputs) = reply else {
            throw BackendFailure(description: "sway answered get_outputs with \(reply.compactDescription)", compositorGone: false)
        }
        return outputs
    }
}

private extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}
