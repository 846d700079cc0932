import RotateRuntime
import ArgumentParser
import Glibc
import OrientationCore
import OrientdProtocol
import ScreenRotation

struct Rotate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Turn the screen with the device, on sway, Hyprland, niri, other wlroots compositors or X11.",
        discussion: """
            Follows orientd's interface orientation and turns the built-in panel (eDP-*, LVDS-*, \
            DSI-*, or --output) and the touchscreen and pen input with it. The backend comes \
            from the session: $SWAYSOCK (sway, through its IPC socket), \
            $HYPRLAND_INSTANCE_SIGNATURE (hyprctl), $NIRI_SOCKET (niri msg), $WAYLAND_DISPLAY \
            (wlr-randr), $DISPLAY (xrandr and xinput); --backend overrides it. \
            While the rotation is locked ('orientctl lock', or 'orientctl lock --toggle' on a \
            key) the screen stays as it is. Lying flat changes nothing. \
            If the compositor or orientd goes away, orientctl waits for it (trying again after \
            0.25 s, then less often, up to every 2 s) and turns the screen again when it is back. Prints one line per turn; runs until interrupted. \
            Start it from the compositor ('exec orientctl rotate' in sway's config, \
            'exec-once = orientctl rotate' in Hyprland's) or as the systemd user service \
            orientd-rotate.service.
            """)

    @Option(help: ArgumentHelp("The compositor to talk to. (default: from the environment)", valueName: "name"))
    var backend: CompositorBackendKind?

    @Option(help: ArgumentHelp("The output to turn. (default: the built-in panel, eDP-*, LVDS-* or DSI-*)", valueName: "name"))
    var output: String?

    @Option(help: ArgumentHelp(
        "The interface orientations to turn to, comma-separated, from portrait, landscapeLeft, landscapeRight, portraitUpsideDown, or landscape, allButUpsideDown, all. (default: all)",
        valueName: "orientations"), transform: Rotate.orientations)
    var supported: [InterfaceOrientation] = InterfaceOrientation.allCases

    @Flag(help: "Turn only while the convertible is folded into a tablet; in laptop mode keep the panel upright.")
    var tabletModeOnly = false

    @Option(name: .customLong("exec"), help: ArgumentHelp(
        "A shell command to run after each turn, with ORIENTD_ROTATION (0, 90, 180, 270: degrees clockwise), ORIENTD_INTERFACE_ORIENTATION (what the panel now shows), ORIENTD_OUTPUT and ORIENTD_BACKEND in its environment. One runs at a time; turns made meanwhile run it once more, for the latest.",
        valueName: "command"))
    var hook: String?

    @Option(name: .customLong("touch-device"), help: ArgumentHelp(
        "X11: an input device to turn with the screen (xinput's name); repeat for more. (default: those whose name says touch, pen or stylus)",
        valueName: "name"))
    var touchDevices: [String] = []

    @Option(help: ArgumentHelp(
        "orientd's socket. (default: $\(Wire.socketEnvironmentVariable), else \(Wire.defaultSocketPath))",
        valueName: "path"))
    var socket: String?

    func run() throws {
        let environment = processEnvironment()
        guard let kind = backend ?? CompositorBackendKind(environment: environment) else {
            throw ClientFailure(message: """
                no compositor found: none of SWAYSOCK, HYPRLAND_INSTANCE_SIGNATURE, NIRI_SOCKET, \
                WAYLAND_DISPLAY or DISPLAY is set. Run orientctl rotate inside the graphical session \
                (for the systemd user service, the compositor must import its environment: \
                'systemctl --user import-environment'), or name one with --backend.
                """)
        }
        if backend == nil, let desktop = Self.desktopTurningItsOwnScreen(environment) {
            Output.error("orientctl rotate: \(desktop) turns its own screen (from orientd's iio-sensor-proxy interface); "
                + "orientctl rotate is for sway, Hyprland, niri, other wlroots compositors and X11 window managers. "
                + "Nothing to do here (--backend forces it).")
            throw ExitCode(Self.nothingToDo)
        }
        let screen = try Self.makeBackend(kind, environment: environment, touchDevices: touchDevices)
        var loop = RotateLoop(screen: screen, panel: output, hook: hook.map { RotationHook(command: $0, backend: screen.name) },
                              rotator: ScreenRotator(settings: .init(tabletModeOnly: tabletModeOnly)))
        try loop.checkScreen()
        try RotateInstance.takeOver(environment: environment)
        let inbox = RotateInbox()
        OrientdFollower(socketPath: socket, supported: supported, tabletMode: tabletModeOnly, inbox: inbox).start()
        if let sway = screen as? SwayBackend { SwayWatcher(socket: sway.socket, inbox: inbox).start() }
        while true {
            try loop.handle(inbox.next(until: loop.rotator.wakeUpTime))
        }
    }

    static func makeBackend(_ kind: CompositorBackendKind, environment: [String: String], touchDevices: [String]) throws -> ScreenBackend {
        switch kind {
        case .sway:
            guard let socket = environment["SWAYSOCK"], !socket.isEmpty else {
                throw ClientFailure(message: "--backend sway needs SWAYSOCK, the path of sway's IPC socket (sway sets it for the programs it starts)")
            }
            return SwayBackend(socket: SwaySocket(configuredPath: socket, runtimeDirectory: environment["XDG_RUNTIME_DIR"]))
        case .hyprland, .niri, .wlrRandr, .x11:
            guard let backend = makeCommandBackend(named: kind.rawValue, environment: environment, touchDevices: touchDevices) else {
                throw ClientFailure(message: "no command backend for \(kind.rawValue)")
            }
            return backend
        }
    }

    /// The exit status for a session whose desktop turns its own screen (the user unit does not
    /// count it as a failure).
    static let nothingToDo: Int32 = 3

    /// GNOME, KDE Plasma and phosh rotate by themselves; a second rotator would fight them.
    static func desktopTurningItsOwnScreen(_ environment: [String: String]) -> String? {
        let desktops = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.lowercased() }
        for (name, shown) in [("gnome", "GNOME"), ("kde", "KDE Plasma"), ("phosh", "phosh")] where desktops.contains(name) {
            return shown
        }
        return nil
    }

    /// `--supported`: names and masks, comma-separated, in order of preference.
    static func orientations(_ text: String) throws -> [InterfaceOrientation] {
        var orientations: [InterfaceOrientation] = []
        for name in text.split(separator: ",").map({ String($0.trimmingBlanks()) }) where !name.isEmpty {
            let named = SubscribeParameters.interfaceOrientationMasks[name] ?? InterfaceOrientation(rawValue: name).map { [$0] }
            guard let named else {
                throw ValidationError("'\(name)' is not an interface orientation: use portrait, landscapeLeft, landscapeRight, portraitUpsideDown, landscape, allButUpsideDown or all")
            }
            orientations += named.filter { !orientations.contains($0) }
        }
        guard !orientations.isEmpty else { throw ValidationError("--supported needs at least one orientation") }
        return orientations
    }
}

extension CompositorBackendKind: ExpressibleByArgument {}

