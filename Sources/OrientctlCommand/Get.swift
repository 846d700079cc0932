import RotateRuntime
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
    @OptionGroup var output: JSONOption
    @OptionGroup var device: DeviceOption

    func run() throws {
        let (result, json) = try options.call(.get, device.parameters, as: OrientationResult.self)
        Output.line(output.json ? ConnectionOptions.json(json) : result.orientation.rawValue)
        if result.orientation == .unknown && !output.json { Output.error(Self.unknownHint) }
    }

    /// Said on standard error beside "unknown", which alone does not say why.
    static let unknownHint = "orientctl: orientd has no reading from an accelerometer (none found, or it fails to read); 'orientctl status' says which"
}



/// Which accelerometer to ask about, when orientd reads more than one.
struct DeviceOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "An accelerometer's id as 'orientctl status' lists it, or a context's URI (ip:192.0.2.7). (default: the one that drives the screen)",
        valueName: "id"))
    var device: String?

    var parameters: [String: JSONValue] { device.map { ["device": .string($0)] } ?? [:] }
}
