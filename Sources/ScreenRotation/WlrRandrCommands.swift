/// Any other compositor that speaks wlr-output-management (river, labwc, Wayfire, Hyprland,
/// sway…), through `wlr-randr`.
///
/// Direction: `wlr-randr --transform` takes the names of Wayland's `wl_output.transform`
/// (its man page: normal|90|180|270|flipped…; it sends the value as is through
/// wlr-output-management), and those turn counter-clockwise (wayland.xml: "90 degrees
/// counter-clockwise"). PanelRotation counts clockwise, so the device turned left
/// (`.clockwise90`) is `270`, and turned right is `90`.
///
/// wlr-randr has no touch or pen mapping: the compositor's own config maps them, if it can.
public struct WlrRandrCommands: ScreenCommandPlan {
    public init() {}

    public var kind: CompositorBackendKind { .wlrRandr }

    /// The value `wlr-randr --transform` takes for `rotation`.
    public static func transform(_ rotation: PanelRotation) -> String {
        rotation == .upright ? "normal" : String(rotation.counterClockwiseDegrees)
    }

    public var outputListing: ToolCommand { ToolCommand("wlr-randr") }

    /// Reads `wlr-randr`'s listing: one `NAME "DESCRIPTION"` line per output at the margin, its
    /// details indented below.
    public func outputNames(inListing listing: String) -> [String] {
        Text.lines(listing).compactMap { line in
            guard let first = line.first, !first.isWhitespace else { return nil }
            return line.split(separator: " ", maxSplits: 1).first.map(String.init)
        }
    }

    public func turn(_ output: String, to rotation: PanelRotation, inputs: [String]) -> [ToolCommand] {
        [ToolCommand("wlr-randr", "--output", output, "--transform", Self.transform(rotation))]
    }

    public func outcome(of command: ToolCommand, _ result: ToolResult) -> ToolOutcome {
        ToolOutcome.judge(result, goneMarkers: ["failed to connect to display"])
    }

    public func installHint(for tool: String) -> String { "Debian package wlr-randr" }
}
