import AccelerometerIO
import Glibc
import Logging
import Testing

/// Not a test of its own: the child process of the integration test
/// `AmbientSensorPollerTests` (OrientdIntegrationTests), which runs this test binary again,
/// filtered to this one test, under umockdev (libumockdev-preload and UMOCKDEV_DIR), so that
/// libiio's `local:` backend and libudev see an emulated /sys. It is skipped unless
/// ORIENTD_AMBIENT_CHILD names the FIFO the parent sends its commands through.
///
/// It starts an `AmbientSensorPoller` on `local:` with a udev monitor feeding it, prints
/// "ambient-event: EVENT" for every event and "ambient-started" once `start` returned, then does
/// what each command line says ("hold light", "release proximity", "stop") until "stop" or the
/// end of the FIFO.
@Suite struct AmbientPollerChild {
    static let fifo = getenv("ORIENTD_AMBIENT_CHILD").map { String(cString: $0) }

    @Test(.enabled(if: fifo != nil, "only as the child of AmbientSensorPollerTests"))
    func runAsChild() throws {
        let fifo = try #require(Self.fifo)
        var logger = Logger(label: "orientd") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .debug
        let poller = AmbientSensorPoller(uri: "local:", logger: logger) { event in
            emit("ambient-event: \(event)")
        }
        let monitor = try HotplugMonitor(logger: logger) { poller.hotplug($0) }
        poller.start()
        emit("ambient-started")
        defer {
            poller.stop()
            monitor.stop()
        }

        guard let commands = fopen(fifo, "r") else {
            Issue.record("cannot open \(fifo): \(String(cString: strerror(errno)))")
            return
        }
        defer { fclose(commands) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), commands) != nil {
            let command = String(decoding: line.prefix { $0 != 0 && $0 != 10 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let words = command.split(separator: " ")
            guard words.count == 2 || command == "stop" else { continue }
            if command == "stop" { break }
            let demand = words[1] == "light" ? poller.lightDemand : poller.proximityDemand
            if words[0] == "hold" { demand.hold() } else { demand.release() }
            emit("ambient-done: \(command)")
        }
    }
}

/// One line on standard output, at once and whole (not through print's buffer): the parent
/// reads it through a pipe, and the poller's thread writes too.
private func emit(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}
