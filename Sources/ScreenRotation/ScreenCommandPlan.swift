/// What a command-line backend runs, as data: the exact commands that list a compositor's
/// outputs and turn one, how to read their output, and how to judge their result. No I/O:
/// `CommandScreen` runs a plan through a `ToolExecutor`.
public protocol ScreenCommandPlan: Sendable {
    var kind: CompositorBackendKind { get }

    /// The command that lists the outputs.
    var outputListing: ToolCommand { get }
    /// The output names in what `outputListing` printed, in its order.
    func outputNames(inListing listing: String) -> [String]

    /// The command listing the input devices `turn` maps one by one (X11's touchscreens and
    /// pens), nil when the compositor maps touch input itself or the tool cannot.
    var inputListing: ToolCommand? { get }
    /// The touch and pen devices in what `inputListing` printed.
    func touchInputs(inListing listing: String) -> [String]

    /// The commands that turn `output` to `rotation`, with the touch and pen input where the
    /// tool maps it; `inputs` are the devices to map one by one, when `inputListing` is not nil.
    func turn(_ output: String, to rotation: PanelRotation, inputs: [String]) -> [ToolCommand]

    /// Whether `command`, of this plan, did what it was asked.
    func outcome(of command: ToolCommand, _ result: ToolResult) -> ToolOutcome

    /// Whether a turn must be read back from the output listing: the compositor applies it later,
    /// or may ignore it without saying so.
    var confirmsTurns: Bool { get }
    /// The rotation `output` shows in an output listing; nil when the listing does not tell.
    func rotation(of output: String, inListing listing: String) -> PanelRotation?
    /// The commands that turn `output` when `turn`'s did not take, from the listing read after
    /// them; empty when there is no other way.
    func fallbackTurn(_ output: String, to rotation: PanelRotation, listing: String) -> [ToolCommand]

    /// How to get `tool` when it is not on PATH.
    func installHint(for tool: String) -> String
}

extension ScreenCommandPlan {
    public var inputListing: ToolCommand? { nil }
    public var confirmsTurns: Bool { false }
    public func touchInputs(inListing listing: String) -> [String] { [] }
    public func rotation(of output: String, inListing listing: String) -> PanelRotation? { nil }
    public func fallbackTurn(_ output: String, to rotation: PanelRotation, listing: String) -> [ToolCommand] { [] }
}

extension CompositorBackendKind {
    /// The command plan of a command-line backend; nil for sway, which is spoken to over its IPC
    /// socket. `touchDevices` are X11's touch and pen devices to map, when the user names them.
    public func commandPlan(touchDevices: [String] = []) -> (any ScreenCommandPlan)? {
        switch self {
        case .sway: nil
        case .hyprland: HyprlandCommands()
        case .niri: NiriCommands()
        case .wlrRandr: WlrRandrCommands()
        case .x11: X11Commands(namedTouchDevices: touchDevices)
        }
    }
}
