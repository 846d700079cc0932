import ScreenRotation

/// A screen turned by a compositor's command-line tool: hyprctl, niri msg, wlr-randr, or
/// xrandr and xinput. What it runs, and how it reads the answers, is the ScreenRotation
/// module's `ScreenCommandPlan`; this runs it.
package final class CommandBackend: ScreenBackend {
    private let screen: CommandScreen<ToolProcess>

    package init(plan: any ScreenCommandPlan, environment: [String: String], timeout: Double = 5) {
        screen = CommandScreen(plan: plan, executor: ToolProcess(environment: environment, timeout: timeout))
    }

    package var name: String { screen.plan.kind.rawValue }

    package func outputNames() throws(BackendFailure) -> [String] {
        do {
            return try screen.outputNames()
        } catch {
            throw BackendFailure(error)
        }
    }

    package func turn(_ output: String, to rotation: PanelRotation) throws(BackendFailure) {
        do {
            try screen.turn(output, to: rotation)
        } catch {
            throw BackendFailure(error)
        }
    }
}

extension BackendFailure {
    package init(_ failure: ToolFailure) {
        self.init(description: failure.description, compositorGone: failure.compositorGone)
    }
}

/// The command-line backend `named` (hyprland, niri, wlr-randr or x11), running its tools in
/// `environment` (whose PATH finds them); `touchDevices` are X11's touchscreens and pens to map
/// when the user names them (else xinput's list is searched for them). nil for sway, which is
/// spoken to over its socket, and for unknown names.
package func makeCommandBackend(named name: String, environment: [String: String], touchDevices: [String] = []) -> ScreenBackend? {
    guard let plan = CompositorBackendKind(rawValue: name)?.commandPlan(touchDevices: touchDevices) else { return nil }
    return CommandBackend(plan: plan, environment: environment)
}
