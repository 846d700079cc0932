import ArgumentParser
import Foundation
import OrientdClient
import OrientdProtocol

@main
struct Orientctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orientctl",
        abstract: "Ask orientd for the device orientation, or follow its changes.",
        discussion: """
            Orientations use Apple's names: portrait, portraitUpsideDown, landscapeLeft, \
            landscapeRight, faceUp, faceDown, unknown.
            """,
        version: "0.1.0",
        subcommands: [Get.self, Monitor.self])

    static func main() {
        // A program started from a thread that blocks signals (a libdispatch worker, for example
        // a Swift app using Foundation's Process) inherits that mask: without this, Ctrl-C and
        // SIGTERM could never end 'orientctl monitor'.
        var all = sigset_t()
        sigfillset(&all)
        sigprocmask(SIG_UNBLOCK, &all, nil)
        main(nil)
    }
}

/// Options every subcommand takes.
struct ConnectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "orientd's socket. (default: $\(Wire.socketEnvironmentVariable), else \(Wire.defaultSocketPath))",
        valueName: "path"))
    var socket: String?

    @Flag(help: "Print JSON objects, one per line, instead of orientation names.")
    var json = false

    func connect() throws -> OrientdClient {
        do {
            return try OrientdClient(socketPath: socket)
        } catch {
            throw ClientFailure(error)
        }
    }
}

struct Get: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the current orientation and exit.",
        discussion: "With --json, prints the reply's result object, e.g. {\"orientation\":\"portrait\"}.")

    @OptionGroup var options: ConnectionOptions

    func run() throws {
        let client = try options.connect()
        do {
            let result = try client.call("get")
            Output.line(options.json ? String(decoding: Wire.line(result).dropLast(), as: UTF8.self)
                                     : result["orientation"]?.stringValue ?? "unknown")
        } catch {
            throw ClientFailure(error)
        }
    }
}

struct Monitor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the current orientation, then one line per change, until interrupted.",
        discussion: """
            Each line is flushed as soon as it is printed, so the output can be piped. With --json, \
            the first line is the subscribe result ({"orientation":...}) and each further line is \
            a deviceOrientationDidChange event with orientation, previous, timestamp and sequence.
            """)

    @OptionGroup var options: ConnectionOptions

    func run() throws {
        let client = try options.connect()
        do {
            let current = try client.call("subscribe")
            Output.line(describe(current))
            client.setReadTimeout(nil)
            while let event = try client.nextEvent() {
                guard event["event"]?.stringValue == "deviceOrientationDidChange" else { continue }
                Output.line(describe(event))
            }
            throw ClientFailure(message: "orientd at \(client.socketPath) closed the connection")
        } catch let error as OrientdClientError {
            throw ClientFailure(error)
        }
    }

    private func describe(_ message: JSONValue) -> String {
        options.json ? String(decoding: Wire.line(message).dropLast(), as: UTF8.self)
                     : message["orientation"]?.stringValue ?? "unknown"
    }
}

enum Output {
    /// Prints a line and flushes it at once, so a pipe sees every change as it happens.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}

/// A client error, printed as "Error: ..." with exit status 1.
struct ClientFailure: Error, CustomStringConvertible {
    let description: String
    init(_ error: OrientdClientError) { description = error.description }
    init(message: String) { description = message }
}
