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
        let result = try options.call(.get, device.parameters)
        Output.line(options.json ? ConnectionOptions.json(result) : result["orientation"]?.stringValue ?? "unknown")
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
        try options.follow(device.parameters, start: { Output.line(describe($0)) }, event: { event in
            switch event["event"]?.stringValue {
            case EventKind.deviceOrientationDidChange.rawValue?:
                Output.line(describe(event))
            case "sensorAvailability"?:
                Output.line(options.json ? ConnectionOptions.json(event) : describeAvailability(event))
            default:
                break
            }
            return true
        })
    }

    private func describeAvailability(_ event: JSONValue) -> String {
        event["available"] == .bool(true)
            ? "sensor available: \(event["device"]?.stringValue ?? "?")"
            : "sensor unavailable: \(event["reason"]?.stringValue ?? "no reason given")"
    }

    private func describe(_ message: JSONValue) -> String {
        options.json ? ConnectionOptions.json(message) : message["orientation"]?.stringValue ?? "unknown"
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
