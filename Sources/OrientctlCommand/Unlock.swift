import RotateRuntime
import ArgumentParser
import OrientdProtocol

struct Unlock: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Unlock the rotation: interfaces follow the device again.",
        discussion: "Only root and members of orientd's lock-group may change the lock.")

    @OptionGroup var options: ConnectionOptions
    @OptionGroup var output: JSONOption

    func run() throws { try setLock(.unlock, options: options, json: output.json) }
}
