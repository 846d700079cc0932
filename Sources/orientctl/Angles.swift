import ArgumentParser
import Foundation
import OrientdProtocol

struct Angles: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the continuous angles (in-plane angle, tilt, pitch, roll) as they come.",
        discussion: """
            For rotating a view smoothly rather than in 90° steps. One line per sample, at most \
            --rate a second (at most the sensor's rate). With --json, each line is an angles event.
            """)

    @OptionGroup var options: ConnectionOptions

    @Option(help: "Samples per second. (default: the sensor's rate)")
    var rate: Double?

    @Option(help: ArgumentHelp("Stop after this many samples.", visibility: .hidden))
    var count: Int?

    func validate() throws {
        if let rate, !(rate > 0) { throw ValidationError("--rate must be above 0") }
    }

    func run() throws {
        var parameters: [String: JSONValue] = ["events": .array([.string(EventKind.angles.rawValue)])]
        if let rate { parameters["angleRate"] = .number(rate) }
        var printed = 0
        try options.follow(parameters, start: { _ in }, event: { event in
            guard event["event"]?.stringValue == EventKind.angles.rawValue else { return true }
            if options.json {
                Output.line(ConnectionOptions.json(event))
            } else {
                let dropped = event["dropped"].flatMap { if case .integer(let n) = $0, n > 0 { " (\(n) dropped)" } else { nil } } ?? ""
                Output.line("angle \(degrees(event["inPlane"]))  tilt \(degrees(event["tilt"]))  pitch \(degrees(event["pitch"]))  roll \(degrees(event["roll"]))\(dropped)")
            }
            printed += 1
            return count.map { printed < $0 } ?? true
        })
    }
}

/// A JSON number as degrees with one decimal, right-aligned.
func degrees(_ value: JSONValue?) -> String {
    let number: Double
    switch value {
    case .number(let value)?: number = value
    case .integer(let value)?: number = Double(value)
    default: return "    -"
    }
    return String(format: "%6.1f°", number)
}

extension Double {
    init?(json: JSONValue?) {
        switch json {
        case .number(let value)?: self = value
        case .integer(let value)?: self = Double(value)
        default: return nil
        }
    }
}
