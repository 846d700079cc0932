import RotateRuntime
import ArgumentParser
import Glibc
import OrientdClient
import OrientdProtocol

/// orientctl's entry: `Orientctl.main()` parses the command line and runs the subcommand.
public struct Orientctl: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "orientctl",
        abstract: "Ask orientd for the device orientation, follow it, and lock the rotation.",
        discussion: """
            Orientations use Apple's names: portrait, portraitUpsideDown, landscapeLeft, \
            landscapeRight, faceUp, faceDown, unknown. orientctl talks to orientd over its Unix \
            socket (docs/protocol.md); any program can do the same.
            """,
        version: OrientdVersion.current,
        subcommands: [Get.self, Monitor.self, Watch.self, Angles.self, Record.self, Status.self, Tablet.self, Lock.self, Unlock.self,
                      Rotate.self, Calibrate.self])

    public init() {}

    public static func main() {
        // A program started from a thread that blocks signals (a libdispatch worker, for example
        // a Swift app using Foundation's Process) inherits that mask: without this, Ctrl-C and
        // SIGTERM could never end 'orientctl monitor'.
        var all = sigset_t()
        sigfillset(&all)
        sigprocmask(SIG_UNBLOCK, &all, nil)
        let commands = configuration.subcommands.map { $0._commandName }
        let arguments: [String]
        do {
            arguments = try CommandLineConventions.arrange(Array(CommandLine.arguments.dropFirst()), commands: commands)
        } catch {
            Output.error(error.message)
            Glibc.exit(64)
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            finish(with: error)
        }
    }

    /// What ends a command early: help and --version on standard output; every error on standard
    /// error in one style, "orientctl: …" (the argument parser's own would say "Error: …"), with
    /// its status (64 for a usage error, 1 for a failure, or the command's own).
    private static func finish(with error: Error) -> Never {
        let status = exitCode(for: error)
        let text = fullMessage(for: error)
        if status == .success {
            if !text.isEmpty { Output.line(text) }
            Glibc.exit(0)
        }
        if !text.isEmpty { Output.error(text.hasPrefix("Error: ") ? "orientctl: " + text.dropFirst("Error: ".count) : text) }
        Glibc.exit(status.rawValue)
    }
}

/// `--json`, for the subcommands that can print what orientd sent.
struct JSONOption: ParsableArguments {
    @Flag(help: "Print what orientd sent, as JSON objects one per line, instead of text.")
    var json = false
}

/// Options every subcommand that talks to orientd takes.
struct ConnectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "orientd's socket. (default: $\(Wire.socketEnvironmentVariable), else \(Wire.defaultSocketPath))",
        valueName: "path"))
    var socket: String?

    func connect() throws -> OrientdClient {
        do {
            return try OrientdClient(socketPath: socket)
        } catch {
            throw ClientFailure(error)
        }
    }

    /// Connects, sends one request and returns its result, read as the method's result type,
    /// and as sent (for --json, which prints every member, known to this version or not).
    func call<Answer: MethodResult>(_ method: Method, _ parameters: [String: JSONValue] = [:],
                                    as type: Answer.Type) throws -> (result: Answer, json: JSONValue) {
        let client = try connect()
        let json: JSONValue
        do {
            json = try client.call(method.rawValue, parameters)
        } catch {
            throw ClientFailure(error)
        }
        return (try Self.read(json, of: method, as: type), json)
    }

    /// Connects, subscribes with `parameters`, hands the result to `start`, then every event to
    /// `event` until `event` returns false or orientd goes. Both get the message as sent too, for
    /// --json. Events this version does not know are skipped. When orientd stops (it says so
    /// first) or the connection drops: with `reconnecting`, says so on standard error, waits for
    /// orientd to come back and subscribes again (`start` hears the state afresh); without, a
    /// clean stop returns and a dropped connection is an error. Orientd not running at the start
    /// is waited for too with `reconnecting` (as monitor-sensor waits for iio-sensor-proxy), an
    /// error without; a socket that cannot be reached otherwise, or a refused subscription, is an
    /// error either way.
    func follow(_ parameters: SubscribeParameters, device: String? = nil, reconnecting: Bool = false,
                start: (SubscribeResult, JSONValue) throws -> Void, event: (ServerEvent, JSONValue) throws -> Bool) throws {
        var client: OrientdClient
        do {
            client = try OrientdClient(socketPath: socket)
        } catch let error where reconnecting && error.isNotRunning {
            // What `get` would say (where it looked, how to start orientd), then that it waits.
            Output.error("orientctl: \(error)\norientctl: waiting for orientd to start (Ctrl-C to quit)")
            client = try waitForOrientd()
            Output.error("orientctl: orientd is up")
        } catch {
            throw ClientFailure(error)
        }
        while true {
            var stopped = false
            var lost = "it closed the connection"
            do {
                let json = try client.call(Method.subscribe.rawValue, parameters.request(device: device))
                try start(try Self.read(json, of: .subscribe, as: SubscribeResult.self), json)
                client.setReadTimeout(nil)
                while let received = try client.nextReceivedEvent() {
                    if case .stopping = received.event {
                        stopped = true
                        continue
                    }
                    if case .unknown = received.event { continue }
                    guard try event(received.event, received.json) else { return }
                }
            } catch OrientdClientError.connectionLost(_, let reason) {
                lost = reason
            } catch let error as OrientdClientError {
                throw ClientFailure(error)
            }
            guard reconnecting else {
                if stopped {
                    Output.error("orientctl: orientd at \(client.socketPath) stopped")
                    return
                }
                throw ClientFailure(message: "orientd at \(client.socketPath) closed the connection: \(lost)")
            }
            Output.error(stopped ? "orientctl: orientd stopped; waiting for it to start again (Ctrl-C to quit)"
                                 : "orientctl: lost orientd (\(lost)); waiting for it (Ctrl-C to quit)")
            client = try waitForOrientd()
            Output.error("orientctl: orientd is back")
        }
    }

    /// Connects once orientd listens again, trying four times a second while nothing listens (or
    /// a daemon still stopping closes the connection); any other failure (a socket that may not
    /// be opened, orientd refusing us) is an error, not a reason to wait for ever.
    private func waitForOrientd() throws -> OrientdClient {
        while true {
            do {
                return try OrientdClient(socketPath: socket)
            } catch let error where error.isNotRunning || error.isConnectionLost {
                usleep(250_000)
            } catch {
                throw ClientFailure(error)
            }
        }
    }

    /// A result as the method's result type; one that does not read is orientd's fault.
    private static func read<Answer: MethodResult>(_ json: JSONValue, of method: Method, as type: Answer.Type) throws -> Answer {
        do {
            return try Answer(result: json)
        } catch {
            throw ClientFailure(.protocolViolation("the \(method.rawValue) result \(error)"))
        }
    }

    /// A message as one line of JSON.
    static func json(_ message: JSONValue) -> String { String(decoding: Wire.line(message).dropLast(), as: UTF8.self) }
}

private extension OrientdClientError {
    var isConnectionLost: Bool {
        if case .connectionLost = self { true } else { false }
    }
}
