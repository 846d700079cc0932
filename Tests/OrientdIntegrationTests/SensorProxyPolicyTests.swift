import EmulatedSensor
import Foundation
import ProcessHarness
import Testing

extension IntegrationTests {
    /// The D-Bus policy the package installs, on a real dbus-daemon that, like Debian's system
    /// bus, lets nobody own a name or call a method unless a policy file says so, and includes
    /// only orientd's policy file.
    @Suite(.serialized) struct SensorProxyPolicyTests {
        static let address = "net.hadess.SensorProxy"

        /// orientd (root) owns the name, any user may claim the accelerometer and read it, and
        /// no other user may take the name or call anything else of orientd's.
        @Test(.enabled(if: getuid() == 0, "runs orientd as root and a client as nobody (uid 65534): run the tests as root, as CI does"))
        func onlyRootOwnsTheNameAndAnyUserMayClaimTheAccelerometer() throws {
            let bus = try PolicyBus()
            defer { bus.stop() }
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(.landscapeLeft),
                                    arguments: ["--sensor-proxy", "--no-sensor-proxy-polkit"], environment: bus.environment)
            try bus.waitForOwner(daemon)

            let claim = try bus.busctl(asNobody: true, ["call", Self.address, "/net/hadess/SensorProxy", Self.address, "ClaimAccelerometer"])
            #expect(claim.status == 0, "nobody may claim: \(claim.standardError)")
            // The claim is answered once a reading is in, so the property is real at once.
            let orientation = try bus.busctl(asNobody: true, ["get-property", Self.address, "/net/hadess/SensorProxy", Self.address,
                                                              "AccelerometerOrientation"])
            #expect(orientation.standardOutput == "s \"right-up\"\n", "\(orientation.standardOutput)\(orientation.standardError)")
            let introspect = try bus.busctl(asNobody: true, ["introspect", Self.address, "/net/hadess/SensorProxy"])
            #expect(introspect.status == 0 && introspect.standardOutput.contains(".ClaimLight"), "\(introspect.standardError)")

            // The bus, not orientd, refuses (dbus-send shows whose error it is): what the policy
            // does not list never reaches orientd.
            let other = try bus.dbusSendAsNobody(["--dest=" + Self.address, "/net/hadess/SensorProxy", "org.example.Other.Poke"])
            #expect(other.status != 0 && other.standardError.contains("org.freedesktop.DBus.Error.AccessDenied: Rejected send message"),
                    "\(other.standardError)")
            let own = try bus.dbusSendAsNobody(["--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.RequestName",
                                                "string:" + Self.address, "uint32:0"])
            #expect(own.status != 0 && own.standardError.contains("is not allowed to own the service \"net.hadess.SensorProxy\""),
                    "nobody may not own the name: \(own.standardOutput)\(own.standardError)")
            // Root may (the call says so without taking it: orientd holds it and allows no replacement).
            let rootQueues = try bus.busctl(asNobody: false, ["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                              "RequestName", "su", Self.address, "4"])
            #expect(rootQueues.standardOutput == "u 3\n", "DBUS_REQUEST_NAME_REPLY_EXISTS: \(rootQueues.standardOutput)\(rootQueues.standardError)")
            #expect(daemon.stop() == 0, "\(daemon.log)")
        }

        /// As installed (polkit asked), a claim is refused when polkit cannot say yes: here no
        /// polkitd is on the bus at all, which the README tells apart from a refusal by a rule.
        @Test(.enabled(if: getuid() == 0, "runs orientd as root and a client as nobody (uid 65534): run the tests as root, as CI does"))
        func withoutPolkitOnTheBusAClaimIsRefused() throws {
            let bus = try PolicyBus()
            defer { bus.stop() }
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(), arguments: ["--sensor-proxy"], environment: bus.environment)
            try bus.waitForOwner(daemon)
            let claim = try bus.dbusSendAsNobody(["--dest=" + Self.address, "/net/hadess/SensorProxy", Self.address + ".ClaimAccelerometer"])
            #expect(claim.status != 0 && claim.standardError.contains("AccessDenied: Not Authorized: The name org.freedesktop.PolicyKit1"),
                    "\(claim.standardOutput)\(claim.standardError)")
            #expect(daemon.stop() == 0, "\(daemon.log)")
        }

        /// A private dbus-daemon, deny-by-default as Debian's system bus, with orientd's policy file.
        final class PolicyBus {
            let directory = makeScratchDirectory()
            private var daemon: ChildProcess?
            var socketPath: String { directory + "/system_bus_socket" }
            var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=" + socketPath] }
            var log: String { (try? String(contentsOfFile: directory + "/dbus.log", encoding: .utf8)) ?? "" }

            init() throws {
                // The client runs as nobody: it must reach the socket.
                chmod(directory, 0o755)
                let policy = SystemdTests.root + "/dbus/net.hadess.SensorProxy.conf"
                let configuration = directory + "/bus.conf"
                try """
                    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
                     "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
                    <busconfig>
                      <type>system</type>
                      <listen>unix:path=\(socketPath)</listen>
                      <auth>EXTERNAL</auth>
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
                      </policy>
                      <include>\(policy)</include>
                    </busconfig>
                    """.write(toFile: configuration, atomically: true, encoding: .utf8)
                let daemon = try ChildProcess("/usr/bin/dbus-daemon", ["--config-file=" + configuration, "--nofork", "--nopidfile"],
                                              standardError: directory + "/dbus.log")
                self.daemon = daemon
                guard waitUntil(timeout: 10, { FileManager.default.fileExists(atPath: socketPath) }) else {
                    daemon.stop()
                    throw TestFailure("dbus-daemon did not start (scripts/setup installs the dbus-daemon package): \(log)")
                }
            }

            func stop() {
                daemon?.stop()
                daemon = nil
            }

            /// Waits until `daemon` owns net.hadess.SensorProxy on this bus, as the bus says.
            func waitForOwner(_ daemon: Daemon) throws {
                let owned = waitUntil(timeout: 10, every: 0.1) {
                    let status = try? busctl(asNobody: false, ["status", SensorProxyPolicyTests.address])
                    return status?.standardOutput.split(separator: "\n").contains("PID=\(daemon.process.processIdentifier)") == true
                }
                guard owned else { throw TestFailure("orientd does not own net.hadess.SensorProxy; its log:\n\(daemon.log)\nthe bus's:\n\(log)") }
            }

            /// dbus-send on this bus as nobody, waiting for the reply: a refusal names its error.
            func dbusSendAsNobody(_ arguments: [String]) throws -> Finished {
                try run(executable: "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                         "/usr/bin/dbus-send", "--system", "--print-reply"] + arguments, environment: environment)
            }

            /// busctl on this bus, as nobody (no groups) or as the test's own user.
            func busctl(asNobody: Bool, _ arguments: [String]) throws -> Finished {
                let busctl = ["/usr/bin/busctl", "--system", "--no-pager"] + arguments
                if asNobody {
                    return try run(executable: "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups"] + busctl,
                                   environment: environment)
                }
                return try run(executable: busctl[0], Array(busctl.dropFirst()), environment: environment)
            }
        }
    }
}
