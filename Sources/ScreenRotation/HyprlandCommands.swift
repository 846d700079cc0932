/// Hyprland, through `hyprctl`.
///
/// Direction: Hyprland's `transform` takes the numbers of Wayland's `wl_output.transform`
/// (the wiki's "Monitors" page: 0 normal, 1 90 degrees, 2 180, 3 270, 4-7 flipped), and those
/// turn counter-clockwise (wayland.xml; `hyprctl monitors` libraries document 1 as "Rotate by 90°
/// counter clockwise"). PanelRotation counts clockwise, so the device turned left
/// (`.clockwise90`, iio-sensor-proxy's right-up) is transform 3, and turned right is 1, as in
/// rot8 and iio-hyprland. `input:touchdevice:transform` and `input:tablet:transform` take "the
/// same transformations as those of the monitors" (wiki, "Variables"), so they get the same number.
///
/// `monitor NAME,transform,N` changes only the transform of the monitor rule named NAME, and
/// keeps its mode, position, scale and everything else; but Hyprland applies it later, and ignores
/// it when no rule bears that exact name (a config with only `monitor=,preferred,auto,1`).
/// So the turn is read back from `hyprctl monitors`, and when it did not take, a full rule is
/// given from the monitor's current mode, position and scale; later turns then find that rule.
public struct HyprlandCommands: ScreenCommandPlan {
    public init() {}

    public var kind: CompositorBackendKind { .hyprland }

    /// Hyprland's number for `rotation`: the counter-clockwise quarter turns.
    public static func transform(_ rotation: PanelRotation) -> Int { rotation.counterClockwiseDegrees / 90 }

    public var outputListing: ToolCommand { ToolCommand("hyprctl", "monitors") }

    public var confirmsTurns: Bool { true }

    public func outputNames(inListing listing: String) -> [String] { Self.monitors(inListing: listing).map(\.name) }

    public func turn(_ output: String, to rotation: PanelRotation, inputs: [String]) -> [ToolCommand] {
        let transform = String(Self.transform(rotation))
        return [
            ToolCommand("hyprctl", "keyword", "monitor", "\(output),transform,\(transform)"),
            ToolCommand("hyprctl", "keyword", "input:touchdevice:transform", transform),
            ToolCommand("hyprctl", "keyword", "input:tablet:transform", transform),
        ]
    }

    public func rotation(of output: String, inListing listing: String) -> PanelRotation? {
        guard let transform = Self.monitors(inListing: listing).first(where: { $0.name == output })?.transform else { return nil }
        return PanelRotation.allCases.first { Self.transform($0) == transform }
    }

    public func fallbackTurn(_ output: String, to rotation: PanelRotation, listing: String) -> [ToolCommand] {
        guard let monitor = Self.monitors(inListing: listing).first(where: { $0.name == output }),
              let mode = monitor.mode, let position = monitor.position, let scale = monitor.scale else { return [] }
        return [ToolCommand("hyprctl", "keyword", "monitor", "\(output),\(mode),\(position),\(scale),transform,\(Self.transform(rotation))")]
    }

    /// hyprctl writes its own errors to standard output and may exit 0 with them; a keyword
    /// succeeded only when Hyprland answered "ok" (anything else is its error message).
    public func outcome(of command: ToolCommand, _ result: ToolResult) -> ToolOutcome {
        let judged = ToolOutcome.judge(result, goneMarkers: [
            "HYPRLAND_INSTANCE_SIGNATURE not set", "HYPRLAND_INSTANCE_SIGNATURE was not set", "Couldn't connect to",
            "didn't respond in time",
        ])
        guard judged == .succeeded, command.arguments.dropFirst().first == "keyword" else { return judged }
        return Text.trimmed(result.standardOutput) == "ok" ? .succeeded : .refused(result.words)
    }

    public func installHint(for tool: String) -> String { "hyprctl comes with Hyprland, which Debian 12 does not package: see hyprland.org" }

    /// One monitor of `hyprctl monitors`, as far as a rotation needs it.
    struct Monitor: Equatable {
        var name: String
        /// `2880x1800@90.00100`, as a monitor rule takes it.
        var mode: String?
        /// `0x0`.
        var position: String?
        var scale: String?
        var transform: Int?
    }

    /// Reads `hyprctl monitors`' plain text: a `Monitor NAME (ID N):` line per monitor, then
    /// tab-indented lines, the first `WxH@RATE at XxY`, later `scale: S` and `transform: T`.
    static func monitors(inListing listing: String) -> [Monitor] {
        var monitors: [Monitor] = []
        for line in Text.lines(listing) {
            if line.hasPrefix("Monitor "), line.hasSuffix(":"), let id = line.ranges(of: " (ID ").last {
                monitors.append(Monitor(name: String(line[line.index(line.startIndex, offsetBy: 8)..<id.lowerBound])))
                continue
            }
            guard !monitors.isEmpty, line.first?.isWhitespace == true else { continue }
            let field = Text.trimmed(line)
            if monitors[monitors.count - 1].mode == nil, field.first?.isNumber == true {
                let parts = field.split(separator: " ")
                if parts.count == 3, parts[1] == "at" {
                    monitors[monitors.count - 1].mode = String(parts[0])
                    monitors[monitors.count - 1].position = String(parts[2])
                }
            } else if field.hasPrefix("scale: ") {
                monitors[monitors.count - 1].scale = String(field.dropFirst(7))
            } else if field.hasPrefix("transform: ") {
                monitors[monitors.count - 1].transform = Int(field.dropFirst(11))
            }
        }
        return monitors
    }
}
