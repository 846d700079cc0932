/// X11, through `xrandr` for the picture and `xinput` for the touchscreens and pens.
///
/// Direction: `xrandr --rotate` names the way the picture turns (its man page: "right" a
/// clockwise rotation of the picture, "left" counter-clockwise), as PanelRotation counts: the
/// device turned left (`.clockwise90`, iio-sensor-proxy's right-up) is `right`, turned right is
/// `left`, as in rot8 and the community scripts.
///
/// Touch input is not turned by xrandr: each device's `Coordinate Transformation Matrix`
/// (libinput and evdev) maps its normalized coordinates (u, v) to the screen's. With the
/// picture turned right, the picture's left edge lies along the panel's top and its top along
/// the panel's right: x = v, y = 1 − u, the matrix `0 1 0 -1 0 1 0 0 1`; left: x = 1 − v,
/// y = u, `0 -1 1 1 0 0 0 0 1`; inverted: x = 1 − u, y = 1 − v, `-1 0 1 0 -1 1 0 0 1`.
/// The matrix spans the whole X screen: with a second monitor attached, touch input spreads
/// over both.
public struct X11Commands: ScreenCommandPlan {
    /// The touch and pen devices the user named; when empty, they are found in `xinput list`.
    public let namedTouchDevices: [String]

    public init(namedTouchDevices: [String] = []) {
        self.namedTouchDevices = namedTouchDevices
    }

    public var kind: CompositorBackendKind { .x11 }

    /// The orientation `xrandr --rotate` takes for `rotation`.
    public static func orientation(_ rotation: PanelRotation) -> String {
        switch rotation {
        case .upright: "normal"
        case .clockwise90: "right"
        case .upsideDown: "inverted"
        case .clockwise270: "left"
        }
    }

    /// The coordinate transformation matrix, row by row, for a picture turned by `rotation`.
    public static func touchMatrix(_ rotation: PanelRotation) -> [String] {
        switch rotation {
        case .upright: ["1", "0", "0", "0", "1", "0", "0", "0", "1"]
        case .clockwise90: ["0", "1", "0", "-1", "0", "1", "0", "0", "1"]
        case .upsideDown: ["-1", "0", "1", "0", "-1", "1", "0", "0", "1"]
        case .clockwise270: ["0", "-1", "1", "1", "0", "0", "0", "0", "1"]
        }
    }

    public var outputListing: ToolCommand { ToolCommand("xrandr", "--query") }

    /// Reads `xrandr --query`: one `NAME connected …` or `NAME disconnected …` line per output
    /// at the margin (after the `Screen N:` line), modes indented below. Only connected ones.
    public func outputNames(inListing listing: String) -> [String] {
        Text.lines(listing).compactMap { line in
            guard let first = line.first, !first.isWhitespace else { return nil }
            let words = line.split(separator: " ")
            guard words.count >= 2, words[1] == "connected" else { return nil }
            return String(words[0])
        }
    }

    public var inputListing: ToolCommand? {
        namedTouchDevices.isEmpty ? ToolCommand("xinput", "list", "--name-only") : nil
    }

    public func touchInputs(inListing listing: String) -> [String] {
        var found: [String] = []
        for line in Text.lines(listing) {
            let name = Text.trimmed(line)
            if Self.isTouchOrPen(name), !found.contains(name) { found.append(name) }
        }
        return found
    }

    /// Whether a device name suggests a touchscreen or a pen: a word such as Touchscreen, Touch,
    /// Pen, Stylus, Eraser or Finger (Wacom's touch layer), but no touchpad, trackpad, mouse or
    /// keyboard. Devices named only by their bus ID (`ELAN2514:00 04F3:2817`) must be named by
    /// the user.
    static func isTouchOrPen(_ name: String) -> Bool {
        let words = name.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
        let touch: Set = ["touchscreen", "touch", "pen", "stylus", "eraser", "finger", "digitizer"]
        let other: Set = ["touchpad", "trackpad", "clickpad", "mouse", "keyboard", "virtual"]
        return words.contains(where: touch.contains) && !words.contains(where: other.contains)
    }

    public func turn(_ output: String, to rotation: PanelRotation, inputs: [String]) -> [ToolCommand] {
        let picture = ToolCommand("xrandr", "--output", output, "--rotate", Self.orientation(rotation))
        let touch = (namedTouchDevices + inputs).map { device in
            ToolCommand(["xinput", "set-prop", device, "Coordinate Transformation Matrix"] + Self.touchMatrix(rotation))
        }
        return [picture] + touch
    }

    /// xrandr exits 0 after "warning: output NAME not found; ignoring": a wrong name all the same.
    public func outcome(of command: ToolCommand, _ result: ToolResult) -> ToolOutcome {
        let judged = ToolOutcome.judge(result, goneMarkers: ["Can't open display", "Unable to connect to X server"])
        if judged == .succeeded, command.tool == "xrandr", result.standardError.contains("not found; ignoring") {
            return .refused(result.words)
        }
        return judged
    }

    public func installHint(for tool: String) -> String {
        tool == "xinput" ? "Debian package xinput" : "Debian package x11-xserver-utils"
    }
}
