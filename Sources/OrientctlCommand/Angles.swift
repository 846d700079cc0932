import RotateRuntime
import ArgumentParser
import Glibc
import OrientdProtocol

struct Angles: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the continuous angles (in-plane angle, tilt, pitch, roll) as they come.",
        discussion: """
            For rotating a view smoothly rather than in 90° steps. One line per sample, at most \
            --rate a second (at most the sensor's rate). With --json, each line is an angles event. \
            Pitch means nothing with the device on its side (roll near ±90°, landscape): it jumps \
            with the noise there; the angle and the tilt do not (docs/protocol.md, "angles").
            """)

    @OptionGroup var options: ConnectionOptions
    @OptionGroup var output: JSONOption

    @Option(parsing: .unconditional, help: "Samples per second. (default: the sensor's rate)")
    var rate: Double?

    @Option(help: ArgumentHelp("Stop after this many samples.", visibility: .hidden))
    var count: Int?

    func validate() throws {
        if let rate, !(rate > 0) { throw ValidationError("--rate must be above 0") }
    }

    func run() throws {
        let parameters = SubscribeParameters(events: [.angles], angleRate: rate)
        var printed = 0
        try options.follow(parameters, start: { _, _ in }, event: { event, json in
            guard case .angles(let sample) = event else { return true }
            if output.json {
                Output.line(ConnectionOptions.json(json))
            } else {
                let dropped = sample.dropped > 0 ? " (\(sample.dropped) dropped)" : ""
                Output.line("angle \(degrees(sample.inPlane))  tilt \(degrees(sample.tilt))  pitch \(degrees(sample.pitch))  roll \(degrees(sample.roll))\(dropped)")
            }
            printed += 1
            return count.map { printed < $0 } ?? true
        })
    }
}

/// Degrees with one decimal, right-aligned.
func degrees(_ value: Double) -> String {
    cFormat("%6.1f°", value)
}
