import RotateRuntime
import ArgumentParser
import Glibc
import OrientationCore
import OrientdProtocol

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the device live: a drawing of it in its current orientation, with its angle and tilt.",
        discussion: """
            Redraws in place in the terminal on every change and angle sample (10 a second), until \
            Ctrl-C. The edge marked TOP is the top of the screen. Into a pipe or a file it writes \
            each drawing after the last, separated by an empty line, without terminal codes.
            """)

    @OptionGroup var options: ConnectionOptions

    @Option(help: ArgumentHelp("Stop after drawing this many frames.", visibility: .hidden))
    var frames: Int?

    func validate() throws {
    }

    func run() throws {
        var view = DeviceView()
        var drawn = 0
        let inTerminal = isatty(STDOUT_FILENO) == 1
        if inTerminal {
            // Clear the screen once and hide the cursor; every frame then starts from the top left.
            // Ctrl-C must give the cursor back, so it is caught rather than left to kill the process.
            Output.raw("\u{1B}[2J\u{1B}[?25l")
            signal(SIGINT) { _ in
                let show = "\u{1B}[?25h\n"
                _ = show.withCString { write(STDOUT_FILENO, $0, strlen($0)) }
                _exit(130)
            }
        }
        defer { if inTerminal { Output.raw("\u{1B}[?25h") } }
        let parameters = SubscribeParameters(events: [.deviceOrientationDidChange, .rotationLockDidChange, .angles], angleRate: 10)
        func draw() -> Bool {
            if inTerminal {
                Output.raw("\u{1B}[H" + view.frame().map { $0 + "\u{1B}[K\n" }.joined() + "\u{1B}[J")
            } else {
                Output.raw((drawn == 0 ? "" : "\n") + view.frame().map { $0 + "\n" }.joined())
            }
            drawn += 1
            return frames.map { drawn < $0 } ?? true
        }
        try options.follow(parameters, start: { result, _ in
            view.orientation = result.orientation
            view.locked = result.locked ?? false
            _ = draw()
        }, event: { event, _ in
            switch event {
            case .deviceOrientationDidChange(let change):
                view.orientation = change.orientation
            case .rotationLockDidChange(let change):
                view.locked = change.locked
            case .angles(let sample):
                view.angle = sample.inPlane
                view.tilt = sample.tilt
            default:
                return true
            }
            return draw()
        })
    }
}

/// What `watch` draws: the device outline turned to its orientation, and the figures.
struct DeviceView {
    var orientation: Orientation = .unknown
    var angle: Double?
    var tilt: Double?
    var locked = false

    /// Every line fits in 40 columns: a phone's terminal held upright.
    func frame() -> [String] {
        outline() + [
            "",
            "  \(orientation.rawValue)",
            "  angle \(angle.map { cFormat("%5.1f°", $0) } ?? "    -")   tilt \(tilt.map { cFormat("%5.1f°", $0) } ?? "    -")",
            "  \(tiltBar)",
            "  rotation lock \(locked ? "on" : "off")   Ctrl-C to quit",
        ]
    }

    /// A bar from -90° (screen to the floor) to +90° (to the sky).
    private var tiltBar: String {
        guard let tilt else { return "" }
        let width = 19
        let position = Int(((tilt + 90) / 180 * Double(width - 1)).rounded())
        return "floor [" + String((0..<width).map { $0 == min(max(position, 0), width - 1) ? "|" : "-" }) + "] sky"
    }

    private func outline() -> [String] {
        switch orientation {
        case .portrait:
            ["  ┌─ TOP ─┐", "  │       │", "  │       │", "  │       │", "  │       │", "  │   o   │", "  └───────┘"]
        case .portraitUpsideDown:
            ["  ┌───────┐", "  │   o   │", "  │       │", "  │       │", "  │       │", "  │       │", "  └─ TOP ─┘"]
        case .landscapeLeft:
            ["", "  ┌───────────────┐", "  T               │", "  O               o", "  P               │", "  └───────────────┘", ""]
        case .landscapeRight:
            ["", "  ┌───────────────┐", "  │               T", "  o               O", "  │               P", "  └───────────────┘", ""]
        case .faceUp:
            ["", "", "     ______________", "    /  screen up  /", "   /    TOP ^    /", "  /_____________/", ""]
        case .faceDown:
            ["", "", "     ______________", "    / screen down /", "   /    (back)   /", "  /_____________/", ""]
        case .unknown:
            ["", "", "  ┌ ─ ─ ─ ─ ┐", "       ?", "  └ ─ ─ ─ ─ ┘", "", ""]
        }
    }
}
