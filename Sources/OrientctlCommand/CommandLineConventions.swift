import OrientationCore

/// What orientctl does with its arguments before swift-argument-parser reads them, for the
/// conventions of systemctl and git: the options every command takes may come before the
/// command's name (`orientctl --socket /run/x.sock get`), and a misspelt command gets a guess.
enum CommandLineConventions {
    /// Options that may come before the command, and whether each takes a value.
    static let leadingOptions = ["--socket": true]

    struct UnknownCommand: Error, Equatable {
        let name: String
        let guess: String?
        let commands: [String]

        var message: String {
            let guessing = guess.map { "; did you mean '\($0)'?" } ?? ""
            // In the style of every other error of orientctl's ("orientctl: Unknown option …").
            return "orientctl: Unknown command '\(name)'\(guessing)\nCommands: \(commands.joined(separator: ", ")) (orientctl --help says what each does)"
        }
    }

    /// The arguments with the leading options moved after the command's name; an unknown command
    /// (also after `help`) is an error.
    static func arrange(_ arguments: [String], commands: [String]) throws(UnknownCommand) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = String(argument.split(separator: "=", maxSplits: 1).first ?? "")
            guard let takesValue = leadingOptions[name] else { break }
            if takesValue, !argument.contains(Character("=")), index + 1 < arguments.count {
                leading += [argument, arguments[index + 1]]
                index += 2
            } else {
                leading.append(argument)
                index += 1
            }
        }
        let rest = Array(arguments[index...])
        guard let first = rest.first, !first.hasPrefix("-") else { return arguments }
        if first == "help" {
            if let topic = rest.dropFirst().first, !topic.hasPrefix("-"), !commands.contains(topic) {
                throw UnknownCommand(name: topic, guess: closest(to: topic, among: commands), commands: commands)
            }
            return arguments
        }
        guard commands.contains(first) else {
            throw UnknownCommand(name: first, guess: closest(to: first, among: commands), commands: commands)
        }
        return [first] + leading + rest.dropFirst()
    }
}
