/// What `orientctl rotate` says to sway over its IPC socket. sway counts clockwise, as
/// PanelRotation does (sway-output(5): "The rotation is performed clockwise"), so the device
/// turned left (content turned 90° clockwise) is `transform 90`. Touchscreens and pens mapped to
/// the output follow its transform.
public enum SwayCommands {
    /// One RUN_COMMAND payload: the output's transform, then touch and pen mapped to the output.
    public static func turn(_ output: String, to rotation: PanelRotation) -> String {
        let name = quoted(output)
        return [
            "output \(name) transform \(transform(rotation))",
            "input type:touch map_to_output \(name)",
            "input type:tablet_tool map_to_output \(name)",
        ].joined(separator: "; ")
    }

    public static func transform(_ rotation: PanelRotation) -> String {
        rotation == .upright ? "normal" : String(rotation.clockwiseDegrees)
    }

    /// The rotation a `get_outputs` transform stands for; nil for one orientctl never sets (flipped).
    public static func rotation(transform: String) -> PanelRotation? {
        transform == "normal" ? .upright : Int(transform).flatMap(PanelRotation.init(rawValue:))
    }

    /// A name in sway's command syntax: in double quotes, `"` and `\` escaped, so an output name
    /// cannot end the command and start another.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text {
            if character == "\"" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result + "\""
    }
}
