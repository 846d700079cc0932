import ArgumentParser
import OrientdProtocol

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
