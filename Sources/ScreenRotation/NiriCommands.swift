/// niri, through `niri msg`.
///
/// Direction: niri's `transform` "rotates the output counter-clockwise" (niri's wiki,
/// "Configuration: Outputs"; `niri msg outputs` prints 90 as "90° counter-clockwise"), as
/// Wayland's `wl_output.transform` does. PanelRotation counts clockwise, so the device turned
/// left (`.clockwise90`) is `270`, and turned right is `90`.
///
/// niri maps touchscreens and tablets to an output only in its config (`input { touch {
/// map-to-output "eDP-1" } }`), and then turns their input with the output; `niri msg` cannot.
public struct NiriCommands: ScreenCommandPlan {
    public init() {}

    public var kind: CompositorBackendKind { .niri }

    /// The transform value `niri msg output NAME transform` takes for `rotation`.
    public static func transform(_ rotation: PanelRotation) -> String {
        rotation == .upright ? "normal" : String(rotation.counterClockwiseDegrees)
    }

    public var outputListing: ToolCommand { ToolCommand("niri", "msg", "outputs") }

    /// Reads `niri msg outputs`: one `Output "MAKE MODEL SERIAL" (CONNECTOR)` line per output,
    /// then indented lines.
    public func outputNames(inListing listing: String) -> [String] {
        Text.lines(listing).compactMap { line in
            guard line.hasPrefix("Output \""), line.hasSuffix(")"), let open = line.lastIndex(of: "(") else { return nil }
            let name = line[line.index(after: open)..<line.index(before: line.endIndex)]
            return name.isEmpty ? nil : String(name)
        }
    }

    public func turn(_ output: String, to rotation: PanelRotation, inputs: [String]) -> [ToolCommand] {
        [ToolCommand("niri", "msg", "output", output, "transform", Self.transform(rotation))]
    }

    /// niri answers a change to an output it does not have with "is not connected" and exit 0
    /// (it keeps the change for when the output appears): for a rotation, that is a wrong name.
    public func outcome(of command: ToolCommand, _ result: ToolResult) -> ToolOutcome {
        let judged = ToolOutcome.judge(result, goneMarkers: ["error connecting to the niri socket"])
        if judged == .succeeded, result.standardOutput.contains("is not connected") {
            return .refused(Text.trimmed(result.standardOutput))
        }
        return judged
    }

    public func installHint(for tool: String) -> String { "niri msg comes with niri, which Debian 12 does not package: see github.com/YaLTeR/niri" }
}
