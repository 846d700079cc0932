import Foundation

/// A D-Bus system bus of one's own (dbus-daemon on a socket in a scratch directory), so that
/// iio-sensor-proxy, orientd's D-Bus face and their clients run unchanged without touching the
/// machine's bus: each takes it for the system bus from `environment`.
public final class PrivateSystemBus: @unchecked Sendable {
    /// Who may do what on the bus.
    public enum Policy {
        /// Anyone may own any name and send anything.
        case permissive
        /// As a system bus is set up: nothing may be owned or called but what the included
        /// policy files allow (orientd's own, say).
        case denyingAllBut(including: [String])
    }

    public let directory: String
    public let socketPath: String
    private let daemon: ChildProcess

    /// `limits` override dbus-daemon's (`max_connections_per_user` and the like), for loads
    /// beyond a desktop's.
    public init(directory: String, policy: Policy = .permissive, limits: [String: Int] = [:]) throws {
        self.directory = directory
        socketPath = directory + "/system_bus_socket"
        let configuration = directory + "/bus.conf"
        try Self.configuration(listeningOn: socketPath, policy: policy, limits: limits).write(toFile: configuration, atomically: true, encoding: .utf8)
        daemon = try ChildProcess("/usr/bin/dbus-daemon", ["--config-file=\(configuration)", "--nofork", "--nopidfile"],
                                  standardError: directory + "/dbus.log")
        // Clients that are not root connect too.
        guard waitUntil(timeout: 10, { FileManager.default.fileExists(atPath: socketPath) }) else {
            throw HarnessError("the private D-Bus did not start; see \(directory)/dbus.log")
        }
        chmod(directory, 0o755)
    }

    deinit { daemon.stop() }

    /// What a program needs to take this bus for the system bus.
    public var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(socketPath)"] }

    private static func configuration(listeningOn path: String, policy: Policy, limits: [String: Int]) -> String {
        let rules = switch policy {
        case .permissive:
            """
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
            """
        case .denyingAllBut(let included):
            // The skeleton of Debian's /usr/share/dbus-1/system.conf.
            """
              <policy context="default">
                <allow user="*"/>
                <deny own="*"/>
                <deny send_type="method_call"/>
                <allow send_type="signal"/>
                <allow send_requested_reply="true" send_type="method_return"/>
                <allow send_requested_reply="true" send_type="error"/>
                <allow receive_type="method_call"/>
                <allow receive_type="method_return"/>
                <allow receive_type="error"/>
                <allow receive_type="signal"/>
                <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
                <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
                <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Properties"/>
                <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Peer"/>
              </policy>
            """ + included.map { "\n  <include>\($0)</include>" }.joined()
        }
        return """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>system</type>
              <listen>unix:path=\(path)</listen>
              <auth>EXTERNAL</auth>
            \(limits.sorted { $0.key < $1.key }.map { "  <limit name=\"\($0.key)\">\($0.value)</limit>\n" }.joined())\(rules)
            </busconfig>
            """
    }
}

/// A test fixture that could not be set up.
public struct HarnessError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
