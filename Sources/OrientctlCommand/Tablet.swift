import RotateRuntime
import ArgumentParser
import OrientdProtocol

struct Tablet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tablet-mode",
        abstract: "Print whether a convertible is a tablet and its hinge angle, then one line per change.",
        discussion: """
            Needs an accelerometer in the display and one in the base (udev ACCEL_LOCATION=base \
            or sysfs label accel-base). Lines read "tablet mode: on, hinge 300°", \
            "hinge 185°", or "hinge angle unknown: REASON" (for example while the hinge axis \
            is near vertical). With --json, the first line is the subscribe result and each \
            further line a tabletModeDidChange or hingeAngleDidChange event. Runs until interrupted.
            """)

    @OptionGroup var options: ConnectionOptions
    @OptionGroup var output: JSONOption

    func run() throws {
        try options.follow(SubscribeParameters(events: [.tabletModeDidChange, .hingeAngleDidChange]), start: { result, json in
            Output.line(output.json ? ConnectionOptions.json(json) : describeStart(result))
        }, event: { event, json in
            let line: String
            switch event {
            case .tabletModeDidChange(let change):
                line = "tablet mode: \(change.tabletMode ? "on" : "off"), " + hinge(change.hingeAngle, problem: nil)
            case .hingeAngleDidChange(let change):
                line = hinge(change.hingeAngle, problem: change.problem)
            default:
                return true
            }
            Output.line(output.json ? ConnectionOptions.json(json) : line)
            return true
        })
    }

    private func describeStart(_ result: SubscribeResult) -> String {
        let mode = result.tabletMode.map { $0 ? "on" : "off" } ?? "unknown"
        return "tablet mode: \(mode), " + hinge(result.hingeAngle, problem: result.hingeProblem)
    }

    private func hinge(_ angle: Double?, problem: String?) -> String {
        guard let angle, angle.isFinite, abs(angle) < 1_000_000 else { return "hinge angle unknown: \(problem ?? "no reading yet")" }
        return "hinge \(Int(angle.rounded()))°"
    }
}
