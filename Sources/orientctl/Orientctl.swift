import ArgumentParser
import Foundation
import OrientdClient
import OrientdProtocol

@main
struct Orientctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orientctl",
        abstract: "Ask orientd for the device orientation, follow it, and lock the rotation.",
        discussion: """
            Orientations use Apple's names: portrait, portraitUpsideDown, landscapeLeft, \
            landscapeRight, faceUp, faceDown, unknown. orientctl talks to orientd over its Unix \
            socket (docs/protocol.md); any program can do the same.
            """,
        version: OrientdVersion.current,
        subcommands: [Get.self, Monitor.self, Watch.self, Angles.self, Record.self, Status.self, Tablet.self, Lock.self, Unlock.self])

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

    /// Connects, sends one request and returns its result.
    func call(_ method: Method, _ parameters: [String: JSONValue] = [:]) throws -> JSONValue {
        let client = try connect()
        do {
            return try client.call(method.rawValue, parameters)
        } catch {
            throw ClientFailure(error)
        }
    }

    /// Connects, subscribes with `parameters`, hands the result to `start`, then every event to
    /// `event` until the daemon closes the connection (an error) or `event` returns false.
    func follow(_ parameters: [String: JSONValue], start: (JSONValue) throws -> Void, event: (JSONValue) throws -> Bool) throws {
        let client = try connect()
        do {
            try start(client.call(Method.subscribe.rawValue, parameters))
            client.setReadTimeout(nil)
            while let message = try client.nextEvent() {
                guard try event(message) else { return }
            }
        } catch let error as OrientdClientError {
            throw ClientFailure(error)
        }
        throw ClientFailure(message: "orientd at \(client.socketPath) closed the connection")
    }

    /// A message as one line of JSON.
    static func json(_ message: JSONValue) -> String { String(decoding: Wire.line(message).dropLast(), as: UTF8.self) }
}

enum Output {
    /// Prints a line and flushes it at once, so a pipe sees every change as it happens.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// Text as it is, for terminal control sequences.
    static func raw(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// A line for people on standard error: notes and warnings that must not mix into the output.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// A client error, printed as "Error: ..." with exit status 1.
struct ClientFailure: Error, CustomStringConvertible {
    let description: String
    init(_ error: OrientdClientError) { description = error.description }
    init(message: String) { description = message }
}
