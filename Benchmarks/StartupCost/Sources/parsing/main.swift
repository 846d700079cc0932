import ArgumentParser

// The baseline plus swift-argument-parser: a command with options and flags, asked --version.
struct Parsing: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "parsing", abstract: "A probe.", version: "0.1.0")
    @Option(help: "A path.") var socket: String?
    @Option(help: "A rate.") var rate: Double?
    @Flag(help: "A switch.") var fast = false
    func run() { print(socket ?? "", rate ?? 0, fast) }
}

Parsing.main()
