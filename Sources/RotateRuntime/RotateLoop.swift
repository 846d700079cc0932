import DaemonThreads
import ScreenRotation

/// The main loop of `orientctl rotate`: feeds news to the rotator and carries out what it decides.
package struct RotateLoop {
    package let screen: ScreenBackend
    /// The output to turn; found among the compositor's outputs at the first turn unless named.
    package var panel: String?
    package let hook: RotationHook?
    package var rotator: ScreenRotator

    package init(screen: ScreenBackend, panel: String?, hook: RotationHook?, rotator: ScreenRotator) {
        (self.screen, self.panel, self.hook, self.rotator) = (screen, panel, hook, rotator)
    }

    /// Feeds `news` (nil: the wake-up time came) to the rotator at `time`, and does what it decides.
    package mutating func handle(_ news: RotateNews?, at time: Double = MonotonicClock.now()) throws {
        var events: [ScreenRotator.Event]
        switch news {
        case nil:
            events = [.tick]
        case .rotator(let event):
            events = [event]
        case .outputsChanged:
            guard let sway = screen as? SwayBackend, let panel, let shown = try? sway.rotation(of: panel) else { return }
            events = [.compositorShows(shown)]
        case .fatal(let message):
            throw ClientFailure(message: message)
        }
        while !events.isEmpty {
            for action in rotator.handle(events.removeFirst(), at: time) {
                switch action {
                case .turn(let rotation):
                    events.append(try turn(to: rotation))
                case .runHook(let rotation):
                    let output = panel ?? "?"
                    Output.line("turned \(output) to \(rotation.clockwiseDegrees)° clockwise (\(rotation.interfaceOrientation))")
                    hook?.run(rotation: rotation, output: output)
                case .log(let line):
                    Output.error("orientctl rotate: \(line)")
                }
            }
        }
    }

    /// Turns the panel; a compositor that answers but has no built-in panel is the user's to fix.
    private mutating func turn(to rotation: PanelRotation) throws -> ScreenRotator.Event {
        do throws(BackendFailure) {
            let output: String
            if let panel { output = panel } else { output = try findPanel() }
            panel = output
            try screen.turn(output, to: rotation)
            return .turned(rotation)
        } catch {
            return .turnFailed(reason: error.description, compositorGone: error.compositorGone)
        }
    }

    /// Before following orientd: the compositor's tool runs, and there is a panel to turn. A tool
    /// that is missing (the message names its Debian package), a compositor that refuses, or no
    /// built-in panel among the outputs cannot fix themselves: thrown, and rotate exits. A
    /// compositor that does not answer yet is waited for, as later: the first turn that fails
    /// says so, once.
    package mutating func checkScreen() throws {
        do throws(BackendFailure) {
            let outputs = try screen.outputNames()
            if panel == nil { panel = try choosePanel(from: outputs) }
        } catch where error.compositorGone {
            return
        } catch {
            throw ClientFailure(message: "orientctl rotate: \(error.description)")
        }
    }

    private func findPanel() throws(BackendFailure) -> String {
        try choosePanel(from: try screen.outputNames())
    }

    private func choosePanel(from outputs: [String]) throws(BackendFailure) -> String {
        if let panel = BuiltInPanel.choose(from: outputs) { return panel }
        throw BackendFailure(description: """
            \(screen.name) has no built-in panel (eDP-*, LVDS-*, DSI-*) among its outputs \
            \(outputs.isEmpty ? "(none)" : outputs.joined(separator: ", ")); name the one to turn with --output
            """, compositorGone: false)
    }
}
