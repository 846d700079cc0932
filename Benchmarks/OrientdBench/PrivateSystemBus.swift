import Foundation
import ProcessHarness

/// A D-Bus system bus of the benchmark's own (dbus-daemon on a socket in a scratch directory),
/// so iio-sensor-proxy runs unchanged without touching the machine's bus.
final class PrivateSystemBus {
    let directory: String
    private let daemon: ChildProcess
    private let socketPath: String

    init(directory: String) throws {
        self.directory = directory
        socketPath = directory + "/system_bus_socket"
        let configuration = directory + "/bus.conf"
        try Self.configuration(listeningOn: socketPath).write(toFile: configuration, atomically: true, encoding: .utf8)
        daemon = try ChildProcess("/usr/bin/dbus-daemon", ["--config-file=\(configuration)", "--nofork", "--nopidfile"],
                                  standardError: directory + "/dbus.log")
        guard waitUntil(timeout: 5, { FileManager.default.fileExists(atPath: socketPath) }) else {
            throw BenchFailure("the private D-Bus did not start; see \(directory)/dbus.log")
        }
    }

    deinit { daemon.stop() }

    /// What a program needs to take this bus for the system bus.
    var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(socketPath)"] }

    /// Anyone may own names and talk: only the benchmark is on this bus.
    private static func configuration(listeningOn path: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>unix:path=\(path)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            <allow own="*"/>
            <allow send_type="method_call"/>
            <allow send_type="signal"/>
            <allow send_destination="*"/>
            <allow receive_sender="*"/>
            <allow receive_type="method_return"/>
            <allow receive_type="signal"/>
            <allow receive_type="error"/>
          </policy>
        </busconfig>
        """
    }
}
