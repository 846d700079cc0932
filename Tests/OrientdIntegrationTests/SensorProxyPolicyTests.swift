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

        /// orientd (root here, its own user as installed) owns the name, any user may claim the
        /// accelerometer and read it, and no other user may take the name or call anything else of orientd's.
        @Test(.enabled(if: getuid() == 0, "runs orientd as root and a client as nobody (uid 65534): run the tests as root, as CI does"))
        func onlyRootOwnsTheNameAndAnyUserMayClaimTheAccelerometer() throws {
            let bench = try Self.policyBench()
            let daemon = try bench.orientd(try EmulatedAccelerometer.standard(.landscapeLeft))
            try Self.waitForOwner(daemon, on: bench)

            let claim = try bench.busctl(["call", Self.address, "/net/hadess/SensorProxy", Self.address, "ClaimAccelerometer"])
            #expect(claim.status == 0, "nobody may claim: \(claim.standardError)")
            // The claim is answered once a reading is in, so the property is real at once.
            let orientation = try bench.busctl(["get-property", Self.address, "/net/hadess/SensorProxy", Self.address,
                                                              "AccelerometerOrientation"])
            #expect(orientation.standardOutput == "s \"right-up\"\n", "\(orientation.standardOutput)\(orientation.standardError)")
            let introspect = try bench.busctl(["introspect", Self.address, "/net/hadess/SensorProxy"])
            #expect(introspect.status == 0 && introspect.standardOutput.contains(".ClaimLight"), "\(introspect.standardError)")

            // The bus, not orientd, refuses (dbus-send shows whose error it is): what the policy
            // does not list never reaches orientd.
            let other = try bench.dbusSend(["--dest=" + Self.address, "/net/hadess/SensorProxy", "org.example.Other.Poke"])
            #expect(other.status != 0 && other.standardError.contains("org.freedesktop.DBus.Error.AccessDenied: Rejected send message"),
                    "\(other.standardError)")
            let own = try bench.dbusSend(["--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.RequestName",
                                                "string:" + Self.address, "uint32:0"])
            #expect(own.status != 0 && own.standardError.contains("is not allowed to own the service \"net.hadess.SensorProxy\""),
                    "nobody may not own the name: \(own.standardOutput)\(own.standardError)")
            // Root may (the call says so without taking it: orientd holds it and allows no replacement).
            let rootQueues = try run(executable: "/usr/bin/busctl", ["--system", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                                     "org.freedesktop.DBus", "RequestName", "su", Self.address, "4"],
                                     environment: bench.bus.environment)
            #expect(rootQueues.standardOutput == "u 3\n", "DBUS_REQUEST_NAME_REPLY_EXISTS: \(rootQueues.standardOutput)\(rootQueues.standardError)")
            // And so may orientd's own user, which orientd.service runs it as (scripts/test makes it
            // from the package's systemd/orientd.sysusers).
            let user = try #require(getpwnam("orientd")?.pointee, "no orientd user: scripts/test adds it as root")
            let userQueues = try bench.dbusSend(["--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.RequestName",
                                                 "string:" + Self.address, "uint32:4"], as: (user.pw_uid, user.pw_gid))
            #expect(userQueues.status == 0 && userQueues.standardOutput.contains("uint32 3"),
                    "the orientd user may not own the name: \(userQueues.standardOutput)\(userQueues.standardError)")
            #expect(daemon.stop() == 0, "\(daemon.log)")
        }

        /// As installed (polkit asked), a claim is refused when polkit cannot say yes: here no
        /// polkitd is on the bus at all, which the README tells apart from a refusal by a rule.
        @Test(.enabled(if: getuid() == 0, "runs orientd as root and a client as nobody (uid 65534): run the tests as root, as CI does"))
        func withoutPolkitOnTheBusAClaimIsRefused() throws {
            let bench = try Self.policyBench()
            let daemon = try bench.orientd(try EmulatedAccelerometer.standard(), arguments: [])
            try Self.waitForOwner(daemon, on: bench)
            let claim = try bench.dbusSend(["--dest=" + Self.address, "/net/hadess/SensorProxy", Self.address + ".ClaimAccelerometer"])
            #expect(claim.status != 0 && claim.standardError.contains("AccessDenied: Not Authorized: The name org.freedesktop.PolicyKit1"),
                    "\(claim.standardOutput)\(claim.standardError)")
            // The way out it suggests fits however orientd was started (here with no /etc/orientd.conf).
            let warning = daemon.log.split(separator: "\n").first { $0.contains("cannot ask polkit whether") } ?? ""
            #expect(warning.contains("or start it with --no-sensor-proxy-polkit") && !warning.contains("/etc/orientd.conf"), "\(daemon.log)")
            #expect(daemon.stop() == 0, "\(daemon.log)")
        }

        /// A heading is location data: as in Debian's iio-sensor-proxy, only the geoclue user may
        /// call the compass (claim it, read its properties); the bus refuses anyone else, who
        /// still reads every other sensor.
        @Test(.enabled(if: getuid() == 0 && getpwnam("geoclue") != nil,
                       "runs clients as nobody and as geoclue: run the tests as root after scripts/test added the geoclue user"))
        func onlyGeoclueMayCallTheCompass() throws {
            let bench = try Self.policyBench()
            let daemon = try bench.orientd(try EmulatedAccelerometer.standard())
            try Self.waitForOwner(daemon, on: bench)
            let compass = ["--dest=" + Self.address, "/net/hadess/SensorProxy/Compass"]
            let hasCompass = compass + ["org.freedesktop.DBus.Properties.Get", "string:net.hadess.SensorProxy.Compass", "string:HasCompass"]
            let claim = compass + ["net.hadess.SensorProxy.Compass.ClaimCompass"]
            let rejected = "org.freedesktop.DBus.Error.AccessDenied: Rejected send message"

            for request in [hasCompass, claim] {
                let nobody = try bench.dbusSend(request)
                #expect(nobody.status != 0 && nobody.standardError.contains(rejected), "nobody: \(nobody.standardOutput)\(nobody.standardError)")
            }
            let geoclue = try #require(getpwnam("geoclue")?.pointee)
            let read = try bench.dbusSend(hasCompass, as: (geoclue.pw_uid, geoclue.pw_gid))
            #expect(read.status == 0 && read.standardOutput.contains("boolean false"), "geoclue: \(read.standardOutput)\(read.standardError)")
            // The bus lets the claim through: orientd answers it (no compass here), whatever it says.
            let claimed = try bench.dbusSend(claim, as: (geoclue.pw_uid, geoclue.pw_gid))
            #expect(!claimed.standardError.contains(rejected), "geoclue: \(claimed.standardOutput)\(claimed.standardError)")
            // Everyone still reads the other sensors.
            let light = try bench.dbusSend(["--dest=" + Self.address, "/net/hadess/SensorProxy", "org.freedesktop.DBus.Properties.Get",
                                            "string:" + Self.address, "string:HasAmbientLight"])
            #expect(light.status == 0, "nobody: \(light.standardError)")
            #expect(daemon.stop() == 0, "\(daemon.log)")
        }

        /// The switch for a system without geoclue, as the policy file's comment and the README
        /// say it: a drop-in with a `<policy user="NAME">` holding the geoclue policy's four allow
        /// lines lets NAME (here nobody) call the compass.
        @Test func aDropInLetsAnotherUserCallTheCompass() throws {
            let shipped = try String(contentsOfFile: SystemdTests.root + "/dbus/net.hadess.SensorProxy.conf", encoding: .utf8)
            let start = try #require(shipped.range(of: #"<policy user="geoclue">"#))
            let end = try #require(shipped.range(of: "</policy>", range: start.upperBound..<shipped.endIndex))
            let allows = shipped[start.upperBound..<end.lowerBound]
            let directory = makeScratchDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let dropIn = directory + "/compass-for-nobody.conf"
            try """
                <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
                 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
                <busconfig>
                  <policy user="nobody">\(allows)</policy>
                </busconfig>
                """.write(toFile: dropIn, atomically: true, encoding: .utf8)
            chmod(directory, 0o755)
            chmod(dropIn, 0o644)
            let bench = try SensorProxyBench(policy: .denyingAllBut(including: [SystemdTests.root + "/dbus/net.hadess.SensorProxy.conf", dropIn]))
            let daemon = try bench.orientd(try EmulatedAccelerometer.standard())
            try Self.waitForOwner(daemon, on: bench)
            let read = try bench.dbusSend(["--dest=" + Self.address, "/net/hadess/SensorProxy/Compass", "org.freedesktop.DBus.Properties.Get",
                                           "string:net.hadess.SensorProxy.Compass", "string:HasCompass"])
            #expect(read.status == 0 && read.standardOutput.contains("boolean false"), "nobody: \(read.standardOutput)\(read.standardError)")
            #expect(daemon.stop() == 0, "\(daemon.log)")
        }

        /// A private dbus-daemon, deny-by-default as Debian's system bus, with orientd's policy file.
        static func policyBench() throws -> SensorProxyBench {
            try SensorProxyBench(policy: .denyingAllBut(including: [SystemdTests.root + "/dbus/net.hadess.SensorProxy.conf"]))
        }

        /// Waits until `daemon` owns net.hadess.SensorProxy on the bench's bus, as the bus says.
        static func waitForOwner(_ daemon: Daemon, on bench: SensorProxyBench) throws {
            guard waitUntil(timeout: 10, every: 0.1, { bench.owner(of: address) == daemon.process.processIdentifier }) else {
                throw TestFailure("orientd does not own net.hadess.SensorProxy; its log:\n\(daemon.log)")
            }
        }
    }
}
