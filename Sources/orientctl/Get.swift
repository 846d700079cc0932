import ArgumentParser
import OrientdProtocol

struct Get: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the current orientation and exit.",
        discussion: """
            If orientd was not reading its sensor (nobody needed it), it reads it now, so the answer \
            is never stale. With --json, prints the reply's result object, e.g. {"orientation":"portrait"}.
            """)

    @OptionGroup var options: ConnectionOptions
    @OptionGroup var device: DeviceOption

    func run() throws {
        let (result, json) = try options.call(.get, device.parameters, as: OrientationResult.self)
        Output.line(options.json ? ConnectionOptions.json(json) : result.orientation.rawValue)
    }
}

struct Monitor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the current orientation, then one line per change, until interrupted.",
        discussion: """
            Each line is flushed as soon as it is printed, so the output can be piped. When the \
            accelerometer goes away or comes back, a line says so ("sensor unavailable: REASON", \
            "sensor available: DEVICE"). With --json, the first line is the subscribe result \
            ({"orientation":...}) and each further line is a deviceOrientationDidChange event \
            (orientation, previous, timestamp, sequence) or a sensorAvailability event.
            """)

    @OptionGroup var options: ConnectionOptions
    @OptionGroup var device: DeviceOption

    func run() throws {
        try options.follow(device.parameters, start: { result, json in
            Output.line(options.json ? ConnectionOptions.json(json) : result.orientation.rawValue)
        }, event: { event, json in
            switch event {
            case .deviceOrientationDidChange(let change):
                Output.line(options.json ? ConnectionOptions.json(json) : change.orientation.rawValue)
            case .sensorAvailability(let availability):
                Output.line(options.json ? ConnectionOptions.json(json) : describe(availability))
            default:
                break
            }
            return true
        })
    }

    private func describe(_ availability: SensorAvailabilityEvent) -> String {
        availability.available
            ? "sensor available: \(availability.device ?? "?")"
            : "sensor unavailable: \(availability.reason ?? "no reason given")"
    }
}

/// Which accelerometer to ask about, when orientd reads more than one.
struct DeviceOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "An accelerometer's id as 'orientctl status' lists it, or a context's URI (ip:192.0.2.7). (default: the one that drives the screen)",
        valueName: "id"))
    var device: String?

    var parameters: [String: JSONValue] { device.map { ["device": .string($0)] } ?? [:] }
}
