import EmulatedSensor
import Foundation
import ProcessHarness
import Testing

extension IntegrationTests {
    /// /net/hadess/SensorProxy/Compass served from an emulated magnetometer's heading channel,
    /// with clients on a private system bus as geoclue would be.
    @Suite struct CompassTests {
        /// A property of the compass object as busctl prints it (`b true`, `d 123.5`).
        static func property(_ name: String, on bench: SensorProxyBench) -> String? {
            guard let finished = try? bench.busctl(["get-property", "net.hadess.SensorProxy", "/net/hadess/SensorProxy/Compass",
                                                    "net.hadess.SensorProxy.Compass", name]),
                  finished.status == 0 else { return nil }
            return finished.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// Opens of the heading file: orientd's reads of the compass.
        static func headingReads(of sensor: EmulatedAccelerometer) throws -> FileAccessCounter {
            try FileAccessCounter(directory: sensor.root + "/sys" + EmulatedAccelerometer.compassDevicePath) { name in
                name == "in_rot_from_north_magnetic_tilt_comp_raw"
            }
        }

        /// Listens for CompassHeading changes (before claiming, so none is missed), claims the
        /// compass, prints the heading a Get sees right after the claim, then each heading signalled.
        static let claimAndFollow = """
            import dbus, dbus.mainloop.glib, sys
            from gi.repository import GLib
            dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
            bus = dbus.SystemBus()
            compass = bus.get_object("net.hadess.SensorProxy", "/net/hadess/SensorProxy/Compass")
            def changed(interface, properties, invalidated):
                if "CompassHeading" in properties:
                    print("changed", float(properties["CompassHeading"]), flush=True)
            bus.add_signal_receiver(changed, "PropertiesChanged", "org.freedesktop.DBus.Properties",
                                    path="/net/hadess/SensorProxy/Compass")
            compass.ClaimCompass(dbus_interface="net.hadess.SensorProxy.Compass")
            get = lambda name: compass.Get("net.hadess.SensorProxy.Compass", name, dbus_interface="org.freedesktop.DBus.Properties")
            print("claimed", bool(get("HasCompass")), float(get("CompassHeading")), flush=True)
            loop = GLib.MainLoop()
            GLib.timeout_add_seconds(60, loop.quit)
            loop.run()
            """

        /// Found at start and read once then (HasCompass true; the heading -1 until a claim, as
        /// every sensor's value before its first claim), not read again without a claim; a claim is answered with the heading read after it (the compass
        /// turned meanwhile), new headings reach the claimer, and the reads stop when the claimer leaves.
        @Test func aClaimedCompassGivesTheHeadingAndAnUnclaimedOneIsNotRead() throws {
            let bench = try SensorProxyBench()
            let sensor = try EmulatedAccelerometer.withAmbientSensors(light: false, proximity: false, compass: true, heading: 123.5)
            let daemon = try bench.orientd(sensor, arguments: ["--no-sensor-proxy-polkit", "--keep-reading-ms", "1000"])
            let reads = try Self.headingReads(of: sensor)
            #expect(waitUntil(timeout: 10) { Self.property("HasCompass", on: bench) == "b true" }, "\(daemon.log)")
            // Read when found, but shown only once claimed: before, iio-sensor-proxy's unknown.
            #expect(Self.property("CompassHeading", on: bench) == "d -1")
            #expect(daemon.log.contains("found the compass iio:device3 (magn_3d)"), "\(daemon.log)")
            _ = reads.take()
            Thread.sleep(forTimeInterval: 2)  // the window in which nothing may be read: three intervals
            #expect(reads.take() == 0, "without a claim, orientd must not read the compass")
            sensor.setCompass(heading: 150.5)

            let client = try ChildProcess("/usr/bin/env", Self.unprivileged(["/usr/bin/python3", "-c", Self.claimAndFollow]),
                                          environment: bench.environment, standardError: bench.directory + "/compass-client.log")
            defer { client.stop() }
            let clientErrors = { (try? String(contentsOfFile: bench.directory + "/compass-client.log", encoding: .utf8)) ?? "" }
            try #require(client.waitForLine(containing: "claimed"), "\(client.outputText)\(clientErrors())\n\(daemon.log)")
            #expect(client.output.first { $0.text.hasPrefix("claimed") }?.text == "claimed True 150.5", "\(client.outputText)")
            sensor.setCompass(heading: 200.25)
            #expect(client.waitForLine(containing: "changed 200.25"), "\(client.outputText)\n\(daemon.log)")
            #expect(Self.property("CompassHeading", on: bench) == "d 200.25")

            client.stop()
            // A second passes without one read, within seconds of the claimer leaving.
            #expect(waitUntil(timeout: 10, every: 1) { reads.take() == 0 }, "\(daemon.log)")
            #expect(daemon.log.contains("no D-Bus client claims the compass any more"), "\(daemon.log)")
        }

        /// Without a magnetometer, the compass object says so, and a claim still succeeds, as in
        /// iio-sensor-proxy.
        @Test func withoutACompassHasCompassIsFalseAndAClaimStillSucceeds() throws {
            let bench = try SensorProxyBench()
            let daemon = try bench.orientd(try EmulatedAccelerometer.withAmbientSensors())
            #expect(waitUntil(timeout: 10) { Self.property("HasCompass", on: bench) == "b false" }, "\(daemon.log)")
            let result = try bench.python("""
                import dbus
                compass = dbus.SystemBus().get_object("net.hadess.SensorProxy", "/net/hadess/SensorProxy/Compass")
                compass.ClaimCompass(dbus_interface="net.hadess.SensorProxy.Compass")
                get = lambda name: compass.Get("net.hadess.SensorProxy.Compass", name, dbus_interface="org.freedesktop.DBus.Properties")
                print(bool(get("HasCompass")), float(get("CompassHeading")))
                compass.ReleaseCompass(dbus_interface="net.hadess.SensorProxy.Compass")
                print("released")
                """)
            #expect(result.standardOutput == "False -1.0\nreleased\n", "\(result.standardError)\n\(daemon.log)")
            #expect(daemon.process.isRunning)
        }

        /// `command` as user nobody when the tests run as root, as the bench runs its clients.
        static func unprivileged(_ command: [String]) -> [String] {
            getuid() == 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command : command
        }
    }
}
