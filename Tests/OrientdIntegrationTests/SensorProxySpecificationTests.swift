import EmulatedSensor
import Foundation
import ProcessHarness
import Testing

extension IntegrationTests {
    /// iio-sensor-proxy 3.9's own integration scenarios (tests/integration-test.py), each on the
    /// device its suite builds, through orientd's D-Bus face and, where it runs, Debian's 3.0 on
    /// the same device: the properties before any claim, what a claim returns, what follows.
    /// The devices and ioctl recordings are written out here from the suite's values.
    @Suite struct SensorProxySpecificationTests {
        /// A `struct input_absinfo` as umockdev's recordings spell it: value, minimum, maximum,
        /// fuzz, flat and resolution, each a little-endian 32-bit integer, in hexadecimal.
        static func absinfo(value: Int32, range: Int32 = 512) -> String {
            [value, -range, range, 0, 0, 0].map { number in
                withUnsafeBytes(of: number.littleEndian) { $0.map { String(format: "%02X", $0) }.joined() }
            }.joined()
        }

        /// test_input_accel: an input accelerometer (the suite's uinput tool, ±512, 256 per g)
        /// served only with the three EVIOCGABS its recording holds, X 0, Y -256, Z 0: the
        /// daemon runs under `umockdev-run -d DEVICE -i /dev/input/event4=RECORDING`.
        static func inputAccelerometer(in directory: String) throws -> [String] {
            let device = """
                P: /devices/virtual/input/input159/event4
                N: input/event4
                E: DEVNAME=/dev/input/event4
                E: SUBSYSTEM=input
                E: ID_INPUT=1
                E: ID_INPUT_ACCELEROMETER=1
                E: IIO_SENSOR_PROXY_TYPE=input-accel
                A: dev=13:68
                L: device=../../input159

                P: /devices/virtual/input/input159
                E: SUBSYSTEM=input
                E: NAME="iio-sensor-proxy test application"
                E: ID_INPUT=1
                E: ID_INPUT_ACCELEROMETER=1
                E: IIO_SENSOR_PROXY_TYPE=input-accel
                A: capabilities/abs=7
                A: capabilities/ev=9
                A: name=iio-sensor-proxy test application

                """
            let recording = """
                @DEV /dev/input/event4
                EVIOCGABS 0 \(absinfo(value: 0))
                EVIOCGABS(1) 0 \(absinfo(value: -256))
                EVIOCGABS(2) 0 \(absinfo(value: 0))
                EVIOCGABS(1) 0 \(absinfo(value: 256))

                """
            try device.write(toFile: directory + "/input-accel-device", atomically: true, encoding: .utf8)
            try recording.write(toFile: directory + "/input-accel-capture.ioctl", atomically: true, encoding: .utf8)
            return ["/usr/bin/umockdev-run", "-d", directory + "/input-accel-device",
                    "-i", "/dev/input/event4=" + directory + "/input-accel-capture.ioctl", "--"]
        }

        /// test_input_proximity: a phone's gpio-keys switch device, SW_FRONT_PROXIMITY in its
        /// capabilities (10e00), with a recording of two EVIOCGSW answers.
        static func inputProximity(in directory: String) throws -> [String] {
            let device = """
                P: /devices/platform/gpio_keys/input/input4/event4
                N: input/event4
                E: DEVNAME=/dev/input/event4
                E: SUBSYSTEM=input
                E: ID_INPUT=1
                E: ID_INPUT_KEY=1
                E: ID_INPUT_SWITCH=1
                A: dev=13:68
                L: device=../../input4

                P: /devices/platform/gpio_keys/input/input4
                E: SUBSYSTEM=input
                E: NAME="gpio_keys"
                E: ID_INPUT=1
                E: ID_INPUT_KEY=1
                E: ID_INPUT_SWITCH=1
                A: capabilities/sw=10e00
                A: capabilities/ev=23
                A: name=gpio_keys

                P: /devices/platform/gpio_keys
                E: SUBSYSTEM=platform
                E: DRIVER=gpio-keys

                """
            let recording = """
                @DEV /dev/input/event4
                EVIOCGSW(0) 4 00020100
                EVIOCGSW(0) 4 000A0100

                """
            try device.write(toFile: directory + "/input-proximity-device", atomically: true, encoding: .utf8)
            try recording.write(toFile: directory + "/input-proximity-ioctl", atomically: true, encoding: .utf8)
            return ["/usr/bin/umockdev-run", "-d", directory + "/input-proximity-device",
                    "-i", "/dev/input/event4=" + directory + "/input-proximity-ioctl", "--"]
        }

        /// The property as busctl prints it, once the daemon has taken the name.
        static func property(_ name: String, on bench: SensorProxyBench) -> String? {
            var value: String?
            waitUntil(timeout: 10) { value = bench.property(name); return value != nil }
            return value
        }

        @Test func anInputAccelerometerServedOnlyWithTheIncumbentsIoctls() throws {
            let bench = try SensorProxyBench()
            let daemon = try bench.orientd(nil, wrapper: try Self.inputAccelerometer(in: bench.directory))
            #expect(Self.property("HasAccelerometer", on: bench) == "b true", "\(daemon.log)")
            #expect(bench.property("AccelerometerOrientation") == #"s "undefined""#)
            let claimed = try bench.python(SensorProxyTests.claimThenGet)
            #expect(claimed.standardOutput == "normal\n", "\(claimed.standardError)\n\(daemon.log)")
            #expect(!daemon.log.contains("cannot read /dev/input/event4"), "\(daemon.log)")
            daemon.stop()

            // Debian's 3.0 on the same recording reads the device when it finds it and shows the
            // value before any claim (3.9 shows `undefined`, as orientd does), and answers a claim
            // before reading (3.6 and later wait for the reading, as orientd does).
            let reference = try bench.reference(wrapper: try Self.inputAccelerometer(in: bench.directory))
            defer { reference.stop() }
            #expect(Self.property("HasAccelerometer", on: bench) == "b true")
            let referenceClaim = try bench.python(SensorProxyTests.claimThenGet + """

                import time
                for _ in range(50):
                    value = proxy.Get("net.hadess.SensorProxy", "AccelerometerOrientation", dbus_interface="org.freedesktop.DBus.Properties")
                    if value != "undefined": break
                    time.sleep(0.1)
                print(value)
                """)
            #expect(referenceClaim.standardOutput.hasSuffix("normal\n"), "\(referenceClaim.standardOutput)\(referenceClaim.standardError)")
        }

        @Test func anInputProximitySwitchIsFoundByItsCapabilities() throws {
            let bench = try SensorProxyBench()
            let daemon = try bench.orientd(nil, wrapper: try Self.inputProximity(in: bench.directory))
            #expect(Self.property("HasProximity", on: bench) == "b true", "\(daemon.log)")
            #expect(bench.property("ProximityNear") == "b false")
            // Its recording answers EVIOCGSW with 4 bytes (a 32-bit phone's); orientd asks for 8,
            // as iio-sensor-proxy 3.9 does on a 64-bit machine, and the replay has no answer: a
            // failed read, not a vanished device. (Debian's 3.0 has no input proximity driver.)
            #expect(daemon.log.contains("found the proximity sensor event4 (gpio_keys)"), "\(daemon.log)")
            #expect(!daemon.log.contains("proximity sensor is gone"), "\(daemon.log)")
        }

        /// test_hwmon_light: a platform device with a `light` file, "(128,128)", which udev marks
        /// hwmon-als (applesmc's file is on its platform device): lux and 0 before the claim, 50
        /// in vendor units once claimed, 100 when it reads "(255,255)".
        @Test func anHwmonLightOnAPlatformDevice() throws {
            func sensor() throws -> EmulatedAccelerometer {
                try EmulatedAccelerometer(onlyDevices: """
                    P: /devices/hwmon-als
                    E: SUBSYSTEM=platform
                    E: IIO_SENSOR_PROXY_TYPE=hwmon-als
                    A: light=(128,128)

                    """)
            }
            let script = """
                import dbus, time
                bus = dbus.SystemBus()
                proxy = bus.get_object("net.hadess.SensorProxy", "/net/hadess/SensorProxy")
                def get(name):
                    return proxy.Get("net.hadess.SensorProxy", name, dbus_interface="org.freedesktop.DBus.Properties")
                print(get("LightLevelUnit"), get("LightLevel"))
                proxy.ClaimLight(dbus_interface="net.hadess.SensorProxy")
                for _ in range(100):
                    if int(get("LightLevel")) == 50: break
                    time.sleep(0.1)
                print(get("LightLevelUnit"), int(get("LightLevel")))
                print("ready", flush=True)
                import sys
                sys.stdin.readline()
                for _ in range(100):
                    if int(get("LightLevel")) == 100: break
                    time.sleep(0.1)
                print(int(get("LightLevel")))
                """
            func run(on sensor: EmulatedAccelerometer, bench: SensorProxyBench) throws -> String {
                let client = try ChildProcess("/usr/bin/python3", ["-u", "-c", script], environment: bench.environment,
                                              standardError: bench.directory + "/client.log", writableInput: true)
                defer { client.stop() }
                #expect(client.waitForLine(containing: "ready", timeout: 15), "\(client.outputText)")
                let path = sensor.root + "/sys/devices/hwmon-als/light"
                try "(255,255)".write(toFile: path + ".new", atomically: false, encoding: .utf8)
                rename(path + ".new", path)
                client.writeInput("\n")
                waitUntil(timeout: 15) { client.output.count >= 4 }
                return client.output.map(\.text).filter { $0 != "ready" }.joined(separator: "\n")
            }
            let bench = try SensorProxyBench()
            let orientdSensor = try sensor()
            let daemon = try bench.orientd(orientdSensor)
            #expect(Self.property("HasAmbientLight", on: bench) == "b true", "\(daemon.log)")
            let seen = try run(on: orientdSensor, bench: bench)
            #expect(seen == "lux 0.0\nvendor 50\n100", "\(seen)\n\(daemon.log)")
            daemon.stop()

            let referenceSensor = try sensor()
            let reference = try bench.reference(referenceSensor)
            defer { reference.stop() }
            #expect(Self.property("HasAmbientLight", on: bench) == "b true")
            let referenceSeen = try run(on: referenceSensor, bench: bench)
            #expect(referenceSeen == "lux 0.0\nvendor 50\n100", "\(referenceSeen)")
        }
    }
}
