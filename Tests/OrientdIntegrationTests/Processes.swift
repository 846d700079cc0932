import EmulatedSensor
import Foundation
import ProcessHarness
import NIOConcurrencyHelpers
import OrientdProtocol
@testable import OrientdClient

/// Where `swift build` put orientd and orientctl: beside the test bundle.
enum Products {
    static let directory: URL = {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        if directory.lastPathComponent == "Linux" || directory.lastPathComponent == "MacOS" {
            directory = directory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        }
        return directory
    }()

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}

/// A short, private directory for sockets (a Unix socket path must fit in 108 bytes).
func makeScratchDirectory() -> String {
    var template = Array("/tmp/orientd-test-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
}

/// The real orientd, started on an emulated sensor with a socket of its own.
final class Daemon: @unchecked Sendable {
    let process = Process()
    let socketPath: String
    /// The daemon's private directory: socket, log, config and state file.
    let directory: String
    private let logPath: String
    /// Kept alive with the daemon: the emulated sysfs vanishes with it.
    private let sensor: EmulatedAccelerometer?
    /// Whether orientd runs under a wrapper command (`stop()` must reach it there).
    private let wrapped: Bool

    /// Starts orientd (under `wrapper`, a command such as `umockdev-run -d FILE --`, if given)
    /// and waits until it answers on its socket.
    init(sensor: EmulatedAccelerometer?, arguments: [String] = [], environment: [String: String] = [:],
         socketPath: String? = nil, waitForSocket: Bool = true, wrapper: [String] = []) throws {
        self.sensor = sensor
        let scratch = makeScratchDirectory()
        directory = scratch
        self.socketPath = socketPath ?? scratch + "/orientd.sock"
        logPath = scratch + "/orientd.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: Products.path("orientd"))
        // An empty config unless the test brings one, so a real /etc/orientd.conf cannot leak in.
        var configuration: [String] = []
        if !arguments.contains("--config") {
            let empty = scratch + "/orientd.conf"
            _ = FileManager.default.createFile(atPath: empty, contents: nil)
            configuration = ["--config", empty]
        }
        // The rotation lock's state file too, so no test touches /var/lib/orientd.
        let state = arguments.contains("--state-file") ? [] : ["--state-file", scratch + "/state.json"]
        process.arguments = ["--socket", self.socketPath, "--log-level", "debug"] + configuration + state + arguments
        wrapped = !wrapper.isEmpty
        if let command = wrapper.first {
            process.executableURL = URL(fileURLWithPath: command)
            process.arguments = wrapper.dropFirst() + [Products.path("orientd")] + (process.arguments ?? [])
        }
        var env = ProcessInfo.processInfo.environment
        env["UMOCKDEV_DIR"] = nil
        env.merge(sensor?.environment ?? [:]) { $1 }
        env.merge(environment) { $1 }
        process.environment = env
        process.standardError = FileHandle(forWritingAtPath: logPath)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        guard waitForSocket else { return }
        let ready = waitUntil(timeout: 10) {
            !process.isRunning || (try? OrientdClient(socketPath: self.socketPath, timeout: 1)) != nil
        }
        guard ready, process.isRunning else {
            stop()
            throw TestFailure("orientd did not come up on \(self.socketPath); its log:\n\(log)")
        }
        // The connections that found it ready count as clients until orientd has seen them close:
        // wait until `status` counts only the connection asking, so a test's own clients are the
        // only ones. 10 s at most: with a guest of the kernel tier on one of the two cores, 2 s was
        // once too few (a documented status example counted 2 clients for 1).
        waitUntil(timeout: 10) { (try? self.connectedClients()) == 1 }
    }

    deinit { stop() }

    /// The clients orientd counts, the one asking included. The asking connection ends its input
    /// and reads until orientd has closed it, so it is no longer counted when this returns.
    func connectedClients() throws -> Int? {
        let connection = try rawConnection(to: self, timeout: 2)
        _ = try connection.readJSON()
        try connection.send(#"{"id":1,"method":"status"}"#)
        shutdown(connection.descriptor, Int32(SHUT_WR))
        guard case .integer(let count)? = try connection.readJSON()?["result"]?["clients"] else { return nil }
        while try connection.readJSON() != nil {}
        return Int(count)
    }

    /// Everything orientd wrote to standard error so far.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    func client() throws -> OrientdClient { try OrientdClient(socketPath: socketPath) }

    func currentOrientation() throws -> String {
        try client().currentOrientation().rawValue
    }

    /// Ends the daemon with SIGTERM, as systemd would, and returns its exit status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning {
            // Under a wrapper (umockdev-run), orientd is its child, which a SIGTERM to the wrapper
            // does not reach: orientd is stopped first, and the wrapper ends with it.
            if wrapped {
                let pid = process.processIdentifier
                let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
                let pids = children.split(separator: " ").compactMap { pid_t($0) }
                for child in pids { kill(child, SIGTERM) }
                // A wrapper that exec'd orientd has no children: it is orientd, and gets the SIGTERM below.
                if !pids.isEmpty { _ = waitUntil(timeout: 5) { !process.isRunning } }
            }
            process.terminate()
            if !waitUntil(timeout: 5, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Resident memory of the daemon in KiB, from /proc.
    var residentKiB: Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}

/// A command that ran to completion.
struct Finished {
    let status: Int32
    let standardOutput: String
    let standardError: String
}

/// Runs orientctl (or another product) to completion.
func run(_ product: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Finished {
    try run(executable: Products.path(product), arguments, environment: environment)
}

/// Runs a program to completion.
func run(executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Finished {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe(), error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Finished(status: process.terminationStatus,
                    standardOutput: String(decoding: outputData, as: UTF8.self),
                    standardError: String(decoding: errorData, as: UTF8.self))
}

/// A raw connection, for speaking the protocol line by line as any-language clients do.
func rawConnection(to daemon: Daemon, timeout: Double = 5) throws -> DaemonConnection {
    let connection = try DaemonConnection(socketPath: daemon.socketPath)
    connection.setReadTimeout(timeout)
    return connection
}

extension DaemonConnection {
    func send(_ text: String) throws { try send(Array((text + "\n").utf8)) }

    func readText() throws -> String? { try readLine().map { String(decoding: $0, as: UTF8.self) } }

    func readJSON() throws -> JSONValue? { try readLine().flatMap { Wire.decode($0) } }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs `work` for every item, `atOnce` at a time (each on a thread of its own: a run that mostly
/// waits for its daemon's polls leaves the cores to the others), and returns each item's result.
func concurrently<Item: Hashable & Sendable, Result: Sendable>(_ items: [Item], atOnce: Int,
                                                                _ work: @escaping @Sendable (Item) -> Result) -> [Item: Result] {
    let results = NIOLockedValueBox([Item: Result]())
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = atOnce
    for item in items {
        queue.addOperation {
            let result = work(item)
            results.withLockedValue { $0[item] = result }
        }
    }
    queue.waitUntilAllOperationsAreFinished()
    return results.withLockedValue { $0 }
}

/// One item's run on one of the two daemons.
private struct Run: Hashable, Sendable {
    let index: Int
    let incumbent: Bool
}

/// Each item run on orientd and on Debian's iio-sensor-proxy beside it (`work`'s second argument
/// says which), `atOnce` runs at a time: each item's two lists of failures, in the items' order.
func onOrientdAndIncumbent<Item: Sendable>(_ items: [Item], atOnce: Int, _ work: @escaping @Sendable (Item, _ incumbent: Bool) throws -> [String])
    -> [(orientd: [String], incumbent: [String])] {
    let runs = items.indices.flatMap { [Run(index: $0, incumbent: false), Run(index: $0, incumbent: true)] }
    let results = concurrently(runs, atOnce: atOnce) { run in
        (try? work(items[run.index], run.incumbent)) ?? ["could not be emulated or started"]
    }
    return items.indices.map { (results[Run(index: $0, incumbent: false)] ?? ["not run"], results[Run(index: $0, incumbent: true)] ?? ["not run"]) }
}
