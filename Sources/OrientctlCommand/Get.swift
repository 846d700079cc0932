import RotateRuntime
import ArgumentParser
import OrientdProtocol

struct Get: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the current orientation and exit.",
        discussion: """
            If orientd was not reading its sensor (nobody needed it), it reads it now, so the answer \
            is never stale. With --json, prints the reply's result object, e.g. {"orientation":"portrait"}. \
            Exits 0 with an orientation; 3 with unknown (no reading: 'orientctl status' says why); \
            1 when orientd cannot be reached; 64 on a usage error.
            """)

    @OptionGroup var options: ConnectionOptions
    @OptionGroup var output: JSONOption
    @OptionGroup var device: DeviceOption

    func run() throws {
        let (result, json) = try options.call(.get, device.parameters, as: OrientationResult.self)
        Output.line(output.json ? ConnectionOptions.json(json) : result.orientation.rawValue)
        // A script's `if orientation=$(orientctl get)` must not take unknown for an answer.
        guard result.orientation != .unknown else {
            if !output.json { Output.error(Self.unknownHint) }
            throw ExitCode(Self.unknownStatus)
        }
    }

    /// The exit status with unknown: not 1, which says orientd could not be asked.
    static let unknownStatus: Int32 = 3

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
