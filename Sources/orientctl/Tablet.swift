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

    func run() throws {
        let events: [EventKind] = [.tabletModeDidChange, .hingeAngleDidChange]
        try options.follow(["events": .array(events.map { .string($0.rawValue) })], start: { result in
            Output.line(options.json ? ConnectionOptions.json(result) : describeStart(result))
        }, event: { event in
            guard let name = event["event"]?.stringValue, events.map(\.rawValue).contains(name) else { return true }
            Output.line(options.json ? ConnectionOptions.json(event) : describe(event))
            return true
        })
    }

    private func describeStart(_ result: JSONValue) -> String {
        let mode = result["tabletMode"].map { $0 == .bool(true) ? "on" : "off" } ?? "unknown"
        return "tablet mode: \(mode), " + hinge(result["hingeAngle"], problem: result["hingeProblem"])
    }

    private func describe(_ event: JSONValue) -> String {
        if event["event"]?.stringValue == EventKind.tabletModeDidChange.rawValue {
            return "tablet mode: \(event["tabletMode"] == .bool(true) ? "on" : "off"), " + hinge(event["hingeAngle"], problem: nil)
        }
        return hinge(event["hingeAngle"], problem: event["problem"])
    }

    private func hinge(_ angle: JSONValue?, problem: JSONValue?) -> String {
        switch angle {
        case .integer(let degrees)?: "hinge \(degrees)°"
        case .number(let degrees)?: "hinge \(Int(degrees.rounded()))°"
        default: "hinge angle unknown: \(problem?.stringValue ?? "no reading yet")"
        }
    }
}
