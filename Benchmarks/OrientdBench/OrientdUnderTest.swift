import Foundation
import ProcessHarness
import NIOConcurrencyHelpers
import OrientationCore
import OrientdClient

/// orientd on the emulated sensor, with one subscriber that stamps every event on arrival.
final class OrientdUnderTest: DaemonUnderTest, @unchecked Sendable {
    let name = "orientd"
    let daemonProcess: ChildProcess
    private let received = NIOLockedValueBox<[(orientation: Orientation, time: Double)]>([])

    /// `wrapper`: a command that starts orientd (its command line follows), as
    /// `EmulatedMotionEvents.wrapper` does to hand it the event descriptor's FIFO.
    init(executable: String, options: [String], socketPath: String, environment: [String: String], log: String,
         wrapper: [String] = []) throws {
        let (arguments, environment) = Self.startedAsSystemdStartsIt(options: options, socketPath: socketPath, environment: environment)
        daemonProcess = try ChildProcess(wrapper.first ?? executable, wrapper.dropFirst() + (wrapper.isEmpty ? [] : [executable]) + arguments,
                                         environment: environment, standardError: log)
        var connected: OrientdClient?
        waitUntil(timeout: 10) {
            connected = try? OrientdClient(socketPath: socketPath, timeout: 1)
            return connected != nil || !daemonProcess.isRunning
        }
        guard let connected else { throw BenchFailure("orientd did not start; see \(log)") }
        let current = try connected.subscribe()
        received.withLockedValue { $0.append((current, now())) }
        connected.setReadTimeout(nil)
        // From here on only the reading thread uses the client.
        nonisolated(unsafe) let client = connected
        let received = self.received
        Thread.detachNewThread {
            while let event = try? client.nextEvent() {
                let time = now()
                guard let name = event["orientation"]?.stringValue, let orientation = Orientation(rawValue: name) else { continue }
                received.withLockedValue { $0.append((orientation, time)) }
            }
        }
    }

    var reports: [(orientation: Orientation, time: Double)] { received.withLockedValue { $0 } }

    /// orientd's arguments and environment: none besides the socket ($ORIENTD_SOCKET), as the
    /// unit starts it, which skips the argument parser (2 MiB of memory); with options, or with a
    /// config file on this machine that must not apply (--config /dev/null), the parser's way.
    static func startedAsSystemdStartsIt(options: [String], socketPath: String, environment: [String: String])
        -> (arguments: [String], environment: [String: String]) {
        let systemConfig = FileManager.default.fileExists(atPath: "/etc/orientd.conf")
            || FileManager.default.fileExists(atPath: "/etc/orientd.conf.d")
        guard options.isEmpty, !systemConfig else { return (["--config", "/dev/null", "--socket", socketPath] + options, environment) }
        return ([], environment.merging(["ORIENTD_SOCKET": socketPath]) { _, socket in socket })
    }

    func stop() { daemonProcess.stop() }

    /// Starts orientd and times its first answer: from the start of the process until a client
    /// holds an orientation that is not unknown (the sensor is opened and read on the way).
    static func timeFirstAnswer(executable: String, options: [String], socketPath: String,
                                environment: [String: String], log: String) throws -> Double {
        try? FileManager.default.removeItem(atPath: socketPath)
        let start = now()
        let (arguments, environment) = startedAsSystemdStartsIt(options: options, socketPath: socketPath, environment: environment)
        let process = try ChildProcess(executable, arguments, environment: environment, standardError: log)
        defer { process.stop() }
        var answered: Double?
        waitUntil(timeout: 10, every: 0.001) {  // the moment of the answer is the measurement
            guard process.isRunning else { return true }
            guard let client = try? OrientdClient(socketPath: socketPath, timeout: 1) else { return false }
            // The hello carries no orientation: the subscribe result does, or, while it is still
            // unknown, the next change.
            if let current = try? client.subscribe(), current != .unknown {
                answered = now()
            } else if let event = try? client.nextEvent(), event["orientation"]?.stringValue != Orientation.unknown.rawValue {
                answered = now()
            }
            return answered != nil
        }
        guard let answered else { throw BenchFailure("orientd gave no orientation; see \(log)") }
        return answered - start
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
