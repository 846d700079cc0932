import EmulatedSensor
import Foundation
import ProcessHarness
import Testing

extension IntegrationTests {
    /// What any local user can throw at orientd's D-Bus face: wrong calls, floods of claims,
    /// claimers that vanish by the thousand, a polkit that says no, another owner of the name.
    @Suite struct SensorProxyHostileTests {
        /// Each call, and the D-Bus error it got ("ok" when it succeeded).
        static let badCalls = """
            import dbus
            bus = dbus.SystemBus()
            proxy = bus.get_object("net.hadess.SensorProxy", "/net/hadess/SensorProxy")
            def attempt(label, call):
                try:
                    call()
                    print(label, "ok")
                except dbus.exceptions.DBusException as error:
                    print(label, error.get_dbus_name())
            attempt("argument", lambda: bus.call_blocking("net.hadess.SensorProxy", "/net/hadess/SensorProxy", "net.hadess.SensorProxy", "ClaimAccelerometer", "i", [42]))
            attempt("interface", lambda: proxy.ClaimAccelerometer(dbus_interface="net.hadess.Nothing"))
            attempt("method", lambda: proxy.ClaimEverything(dbus_interface="net.hadess.SensorProxy"))
            attempt("property", lambda: proxy.Get("net.hadess.SensorProxy", "Nothing", dbus_interface="org.freedesktop.DBus.Properties"))
            attempt("write", lambda: proxy.Set("net.hadess.SensorProxy", "AccelerometerOrientation", "normal", dbus_interface="org.freedesktop.DBus.Properties"))
            attempt("path", lambda: bus.get_object("net.hadess.SensorProxy", "/net/hadess/Nothing").ClaimAccelerometer(dbus_interface="net.hadess.SensorProxy"))
            attempt("release", lambda: proxy.ReleaseLight(dbus_interface="net.hadess.SensorProxy"))
            attempt("compass", lambda: bus.get_object("net.hadess.SensorProxy", "/net/hadess/SensorProxy/Compass").ClaimCompass(dbus_interface="net.hadess.SensorProxy.Compass"))
            """

        @Test func wrongCallsGetClearErrors() throws {
            let bench = try SensorProxyBench()
            let daemon = try bench.orientd(try IncumbentComparisons.SensorProxyTests.sensor())
            let result = try bench.python(Self.badCalls)
            let answers = Dictionary(uniqueKeysWithValues: result.standardOutput.split(separator: "\n").map { line in
                let parts = line.split(separator: " ")
                return (String(parts[0]), String(parts.last ?? ""))
            })
            let expected = [
                "argument": "org.freedesktop.DBus.Error.InvalidArgs",
                "interface": "org.freedesktop.DBus.Error.UnknownMethod",
                "method": "org.freedesktop.DBus.Error.UnknownMethod",
                "property": "org.freedesktop.DBus.Error.UnknownProperty",
                "write": "org.freedesktop.DBus.Error.PropertyReadOnly",
                "path": "org.freedesktop.DBus.Error.UnknownObject",
                // Releasing what one never claimed changes nothing, as in iio-sensor-proxy.
                "release": "ok",
                "compass": "ok",
            ]
            #expect(answers == expected, "\(result.standardOutput)\(result.standardError)")
            #expect(daemon.process.isRunning)
        }

        /// 2000 claims from one client in flight at once: one claimer, every call answered (by
        /// orientd, or refused by the bus itself, which limits the calls awaiting replies per
        /// client: LimitsExceeded); one release lets the sensor go.
        static let floodOfClaims = """
            import dbus, dbus.mainloop.glib
            from gi.repository import GLib
            dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
            bus = dbus.SystemBus()
            proxy = bus.get_object("net.hadess.SensorProxy", "/net/hadess/SensorProxy")
            loop = GLib.MainLoop()
            answers = {"ok": 0}
            def done(kind):
                answers[kind] = answers.get(kind, 0) + 1
                if sum(answers.values()) == 2000: loop.quit()
            for _ in range(2000):
                proxy.ClaimAccelerometer(dbus_interface="net.hadess.SensorProxy",
                                         reply_handler=lambda: done("ok"), error_handler=lambda e: done(e.get_dbus_name()))
            GLib.timeout_add_seconds(60, loop.quit)
            loop.run()
            print(sum(answers.values()), sorted(answers), answers["ok"] > 0)
            proxy.ReleaseAccelerometer(dbus_interface="net.hadess.SensorProxy")
            print("released")
            """

        @Test func aFloodOfClaimsFromOneClientIsOneClaim() throws {
            let bench = try SensorProxyBench()
            let sensor = try IncumbentComparisons.SensorProxyTests.sensor()
            let daemon = try bench.orientd(sensor, arguments: ["--no-sensor-proxy-polkit", "--keep-reading-ms", "1000"])
            let result = try bench.python(Self.floodOfClaims)
            #expect(["2000 ['ok'] True\nreleased\n", "2000 ['ok', 'org.freedesktop.DBus.Error.LimitsExceeded'] True\nreleased\n"].contains(result.standardOutput), "\(result.standardError)\n\(daemon.log)")
            #expect(waitUntil(timeout: 10, every: 0.2) { (try? PowerTests.isReading(daemon)) == false }, "\(daemon.log)")
            #expect(daemon.log.components(separatedBy: ") claimed the accelerometer: reading it").count == 2, "\(daemon.log)")
        }

        /// 1000 clients that claim and leave without releasing, every other one without even
        /// waiting for the answer (it is gone before orientd tracks it): each is released,
        /// nothing grows.
        static let claimAndVanish = """
            import dbus, dbus.lowlevel, os, sys
            address = os.environ["DBUS_SYSTEM_BUS_ADDRESS"]
            for round in range(int(sys.argv[1])):
                connection = dbus.bus.BusConnection(address)
                if round % 2:
                    connection.send_message(dbus.lowlevel.MethodCallMessage(
                        "net.hadess.SensorProxy", "/net/hadess/SensorProxy", "net.hadess.SensorProxy", "ClaimAccelerometer"))
                    connection.flush()
                else:
                    connection.call_blocking("net.hadess.SensorProxy", "/net/hadess/SensorProxy", "net.hadess.SensorProxy",
                                             "ClaimAccelerometer", "", [])
                connection.close()
            print("done")
            """

        @Test func claimersThatVanishByTheThousandLeakNothing() throws {
            let bench = try SensorProxyBench()
            // A claim after the sensor went idle waits for a fresh reading: poll fast, so that
            // 1000 of them take seconds.
            let daemon = try bench.orientd(try IncumbentComparisons.SensorProxyTests.sensor(), arguments: ["--no-sensor-proxy-polkit", "--rate", "200", "--keep-reading-ms", "1000"])
            let descriptors = "/proc/\(daemon.process.processIdentifier)/fd"
            func openDescriptors() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: descriptors).count) ?? -1 }

            // A first round lets allocators and caches reach their working size (the sensor is
            // still read when it ends: its descriptors are the same read or not).
            #expect(try bench.python(Self.claimAndVanish, ["100"]).standardOutput == "done\n")
            let (memoryBefore, descriptorsBefore) = (daemon.residentKiB, openDescriptors())
            let result = try bench.python(Self.claimAndVanish, ["1000"])
            #expect(result.standardOutput == "done\n", "\(result.standardError)")
            #expect(daemon.process.isRunning)
            #expect(waitUntil(timeout: 10, every: 0.2) { (try? PowerTests.isReading(daemon)) == false }, "every vanished claimer must be released")
            // The last client's socket may still be closing.
            #expect(waitUntil(timeout: 5) { openDescriptors() <= descriptorsBefore }, "\(descriptorsBefore) descriptors before, \(openDescriptors()) after")
            #expect(daemon.residentKiB - memoryBefore < 2048, "resident memory grew from \(memoryBefore) KiB to \(daemon.residentKiB) KiB")
        }

        /// 250 clients that each claim every sensor and stay: 1000 claims. (With a match rule
        /// on the bus per client and sensor, as sd_bus_track makes, the bus's limit of 512 match
        /// rules a connection made it drop orientd from the bus at about the 510th.)
        static let manyClaimers = """
            import dbus, os
            address = os.environ["DBUS_SYSTEM_BUS_ADDRESS"]
            connections, refused = [], 0
            for _ in range(250):
                connection = dbus.bus.BusConnection(address)
                connections.append(connection)
                for sensor in ["Accelerometer", "Light", "Proximity"]:
                    try:
                        connection.call_blocking("net.hadess.SensorProxy", "/net/hadess/SensorProxy", "net.hadess.SensorProxy", "Claim" + sensor, "", [])
                    except dbus.exceptions.DBusException:
                        refused += 1
                try:
                    connection.call_blocking("net.hadess.SensorProxy", "/net/hadess/SensorProxy/Compass", "net.hadess.SensorProxy.Compass", "ClaimCompass", "", [])
                except dbus.exceptions.DBusException:
                    refused += 1
            print("refused", refused, flush=True)
            print(connections[0].call_blocking("net.hadess.SensorProxy", "/net/hadess/SensorProxy", "org.freedesktop.DBus.Properties", "Get", "ss",
                                               ["net.hadess.SensorProxy", "HasAccelerometer"]))
            """

        @Test func aThousandClaimsFromAQuarterOfAThousandClientsKeepOrientdOnTheBus() throws {
            let bench = try SensorProxyBench()
            let daemon = try bench.orientd(try IncumbentComparisons.SensorProxyTests.sensor(), arguments: ["--no-sensor-proxy-polkit", "--keep-reading-ms", "1000"])
            try #require(waitUntil(timeout: 10) { bench.owner(of: "net.hadess.SensorProxy") == daemon.process.processIdentifier })
            let result = try bench.python(Self.manyClaimers)
            #expect(result.standardOutput == "refused 0\n1\n", "\(result.standardError)\n\(daemon.log)")
            #expect(bench.owner(of: "net.hadess.SensorProxy") == daemon.process.processIdentifier, "\(daemon.log)")
            #expect(!daemon.log.contains("lost the D-Bus system bus"))
            // They left with the script: every sensor is let go.
            #expect(waitUntil(timeout: 10, every: 0.2) { (try? PowerTests.isReading(daemon)) == false }, "\(daemon.log)")
        }

        /// A client that reads the properties the moment the name appears sees the sensors: the
        /// name is asked for once orientd knows them.
        static let readsAsTheNameAppears = """
            import dbus
            bus = dbus.SystemBus()
            print("waiting", flush=True)
            while not bus.name_has_owner("net.hadess.SensorProxy"):
                pass
            proxy = bus.get_object("net.hadess.SensorProxy", "/net/hadess/SensorProxy", introspect=False)
            properties = proxy.GetAll("net.hadess.SensorProxy", dbus_interface="org.freedesktop.DBus.Properties")
            print(bool(properties["HasAccelerometer"]), bool(properties["HasAmbientLight"]), bool(properties["HasProximity"]), flush=True)
            """

        @Test func theSensorsAreKnownWhenTheNameAppears() throws {
            let bench = try SensorProxyBench()
            let client = try ChildProcess("/usr/bin/python3", ["-c", Self.readsAsTheNameAppears], environment: bench.bus.environment)
            defer { client.stop() }
            try #require(client.waitForLine(containing: "waiting"))
            let daemon = try bench.orientd(try IncumbentComparisons.SensorProxyTests.sensor())
            #expect(client.waitForLine(containing: "True"), "\(client.outputText)\n\(daemon.log)")
            #expect(client.output.last?.text == "True True True", "\(client.outputText)")
        }

        // MARK: polkit

        static let claimOnce = """
            import dbus
            proxy = dbus.SystemBus().get_object("net.hadess.SensorProxy", "/net/hadess/SensorProxy")
            try:
                proxy.ClaimAccelerometer(dbus_interface="net.hadess.SensorProxy")
                print("ok")
            except dbus.exceptions.DBusException as error:
                print(error.get_dbus_name())
            """

        /// Claims are authorized as iio-sensor-proxy 3.4+ does: polkit's answer for action
        /// net.hadess.SensorProxy.claim-sensor (python-dbusmock's polkitd stands in for polkit).
        @Test func polkitDecidesWhoMayClaim() throws {
            let bench = try SensorProxyBench()
            let daemon = try bench.orientd(try IncumbentComparisons.SensorProxyTests.sensor(), arguments: [])
            // No polkit on the bus: nobody may claim.
            #expect(try bench.python(Self.claimOnce).standardOutput == "org.freedesktop.DBus.Error.AccessDenied\n", "\(daemon.log)")
            #expect(try bench.python(Self.claimOnce).standardOutput == "org.freedesktop.DBus.Error.AccessDenied\n")
            #expect(daemon.log.components(separatedBy: "cannot ask polkit").count == 2, "said once: \(daemon.log)")

            let polkit = try ChildProcess("/usr/bin/python3", ["-m", "dbusmock", "--system", "--template", "polkitd"],
                                          environment: bench.bus.environment, standardError: bench.directory + "/polkitd.log")
            defer { polkit.stop() }
            try #require(waitUntil(timeout: 10) { bench.owner(of: "org.freedesktop.PolicyKit1") != nil }, "python-dbusmock's polkitd did not start")
            func allow(_ actions: [String]) throws {
                let list = "[" + actions.map { "'\($0)'" }.joined(separator: ",") + "]"
                _ = try run(executable: "/usr/bin/gdbus", ["call", "--system", "--dest", "org.freedesktop.PolicyKit1",
                                                           "--object-path", "/org/freedesktop/PolicyKit1/Authority",
                                                           "--method", "org.freedesktop.DBus.Mock.SetAllowed", list],
                            environment: bench.bus.environment)
            }
            try allow([])
            #expect(try bench.python(Self.claimOnce).standardOutput == "org.freedesktop.DBus.Error.AccessDenied\n")
            #expect((try? PowerTests.isReading(daemon)) == false, "a refused claim must not wake the sensor")
            try allow(["net.hadess.SensorProxy.claim-sensor"])
            #expect(try bench.python(Self.claimOnce).standardOutput == "ok\n", "\(daemon.log)")
        }

        /// A client that floods Claim and Release while polkit is slow to answer cannot make
        /// another client's claim fail: releases of nothing and repeated claims never ask polkit,
        /// and one client has at most two questions to polkit in flight.
        static let floodWhileOthersClaim = """
            import dbus, dbus.mainloop.glib, os
            from gi.repository import GLib
            dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
            address = os.environ["DBUS_SYSTEM_BUS_ADDRESS"]
            flooder = dbus.bus.BusConnection(address)
            loop = GLib.MainLoop()
            answered = {"flood": 0}
            def flood_done(*_):
                answered["flood"] += 1
                if answered["flood"] == 400: loop.quit()
            for round in range(200):
                for method in ["ReleaseAccelerometer", "ClaimLight"]:
                    flooder.call_async("net.hadess.SensorProxy", "/net/hadess/SensorProxy", "net.hadess.SensorProxy", method, "", [],
                                       flood_done, flood_done)
            GLib.timeout_add_seconds(30, loop.quit)
            loop.run()
            honest = dbus.bus.BusConnection(address)
            results = []
            for _ in range(10):
                try:
                    honest.call_blocking("net.hadess.SensorProxy", "/net/hadess/SensorProxy", "net.hadess.SensorProxy", "ClaimAccelerometer", "", [])
                    results.append("ok")
                except dbus.exceptions.DBusException as error:
                    results.append(error.get_dbus_name())
            print(answered["flood"], sorted(set(results)))
            """

        @Test func aFloodOfPolkitQuestionsHurtsOnlyTheFlooder() throws {
            let bench = try SensorProxyBench()
            let daemon = try bench.orientd(try IncumbentComparisons.SensorProxyTests.sensor(), arguments: [])
            let polkit = try ChildProcess("/usr/bin/python3", ["-m", "dbusmock", "--system", "--template", "polkitd"],
                                          environment: bench.bus.environment, standardError: bench.directory + "/polkitd.log")
            defer { polkit.stop() }
            try #require(waitUntil(timeout: 10) { bench.owner(of: "org.freedesktop.PolicyKit1") != nil })
            _ = try run(executable: "/usr/bin/gdbus", ["call", "--system", "--dest", "org.freedesktop.PolicyKit1", "--object-path",
                                                       "/org/freedesktop/PolicyKit1/Authority", "--method", "org.freedesktop.DBus.Mock.SetAllowed",
                                                       "['net.hadess.SensorProxy.claim-sensor']"], environment: bench.bus.environment)
            let result = try bench.python(Self.floodWhileOthersClaim)
            #expect(result.standardOutput == "400 ['ok']\n", "\(result.standardError)\n\(daemon.log)")
            #expect(!daemon.log.contains("cannot ask polkit"), "\(daemon.log)")
        }

        // MARK: The bus name

        /// iio-sensor-proxy 3.0 (Debian 12's) does not let its name be taken: orientd waits in
        /// the bus's queue (one log line, no retries) and owns the name as soon as it leaves, as
        /// `Conflicts=iio-sensor-proxy.service` makes it leave when orientd starts under systemd.
        @Test func orientdWaitsBehindARunningIioSensorProxy() throws {
            try #require(Reference.isUnpacked, "iio-sensor-proxy is not in .build/iio-sensor-proxy: run scripts/setup")
            let bench = try SensorProxyBench()
            let sensor = try IncumbentComparisons.SensorProxyTests.sensor()
            let reference = try bench.reference(sensor)
            defer { reference.stop() }
            try #require(waitUntil(timeout: 10) { bench.owner(of: "net.hadess.SensorProxy") == reference.pid })
            let daemon = try bench.orientd(sensor)
            // The process that holds the name is named, with its pid.
            #expect(waitUntil(timeout: 10) { daemon.log.contains("(pid \(reference.pid), ") && daemon.log.contains(" owns net.hadess.SensorProxy") }, "\(daemon.log)")
            #expect(bench.owner(of: "net.hadess.SensorProxy") == reference.pid)
            reference.stop()
            #expect(waitUntil(timeout: 10) { bench.owner(of: "net.hadess.SensorProxy") == daemon.process.processIdentifier }, "\(daemon.log)")
            #expect(daemon.log.components(separatedBy: " owns net.hadess.SensorProxy and does not give it up").count == 2, "\(daemon.log)")
        }

        /// An owner that lets its name be taken (iio-sensor-proxy 3.1 and later) gives it up to
        /// orientd at once; orientd never lets it be taken back.
        @Test func orientdTakesTheNameFromAnOwnerThatAllowsIt() throws {
            let bench = try SensorProxyBench()
            let holder = try ChildProcess("/usr/bin/python3", ["-c", """
                import dbus, dbus.mainloop.glib
                from gi.repository import GLib
                dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
                bus = dbus.SystemBus()
                loop = GLib.MainLoop()
                def lost(name):
                    print("lost", flush=True)
                bus.add_signal_receiver(lost, signal_name="NameLost", dbus_interface="org.freedesktop.DBus")
                bus.request_name("net.hadess.SensorProxy", dbus.bus.NAME_FLAG_ALLOW_REPLACEMENT | dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
                print("owner", flush=True)
                GLib.timeout_add_seconds(600, loop.quit)
                loop.run()
                """], environment: bench.bus.environment)
            defer { holder.stop() }
            try #require(holder.waitForLine(containing: "owner"))
            let daemon = try bench.orientd(try IncumbentComparisons.SensorProxyTests.sensor())
            #expect(holder.waitForLine(containing: "lost"), "\(daemon.log)")
            #expect(waitUntil(timeout: 10) { bench.owner(of: "net.hadess.SensorProxy") == daemon.process.processIdentifier }, "\(daemon.log)")
            // Asking with REPLACE_EXISTING now gets nothing: orientd does not allow replacement.
            let taker = try run(executable: "/usr/bin/gdbus", ["call", "--system", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                                                               "--method", "org.freedesktop.DBus.RequestName", "net.hadess.SensorProxy", "6"],
                                environment: bench.bus.environment)
            #expect(taker.standardOutput.contains("uint32 3"), "RequestName answered \(taker.standardOutput)\(taker.standardError)")
            #expect(bench.owner(of: "net.hadess.SensorProxy") == daemon.process.processIdentifier)
        }
    }
}
