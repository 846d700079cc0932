import EmulatedSensor
import Foundation
import NIOConcurrencyHelpers
import OrientationCore
import ProcessHarness
import Testing

extension IncumbentComparisons {
    /// Every accelerometer driver of the kernel, laid out as its source declares it
    /// (`KernelDriverZoo`): orientd turns with each through the four in-plane orientations and
    /// faceUp, reading it the way it would on the machine (its raw files, or the kernel buffer
    /// in the driver's own scan format where it has one), and on a convertible the display's
    /// sensor drives the screen while the base lies on the table.
    @Suite struct DeviceZooTests {
        static let turns: [Orientation] = [.landscapeLeft, .portraitUpsideDown, .landscapeRight, .portrait, .faceUp]
        /// Runs at once: each is a daemon and a device of its own, mostly waiting for the judge to
        /// settle or for iio-sensor-proxy's polls, so sixteen share two cores without slowing each
        /// other's decisions past the generous waits (the suite is serialized; one at a time, the
        /// two daemons on every layout took over three minutes).
        static let atOnce = 16

        /// Every layout on orientd, where it must turn through `turns`, and on Debian's
        /// iio-sensor-proxy 3.0 beside it, which must turn from portrait to landscapeLeft (one
        /// turn: it polls every 0.7 s) except where `KernelDriverZoo.incumbentFails` says, and
        /// there must not (so docs/devices.md's column stays true). 3.0's udev type is what its own
        /// rule gives the layout's files. Each layout's failures are reported under its name.
        @Test func everyLayoutOnOrientdAndOnIioSensorProxy() throws {
            try #require(Reference.isUnpacked, "iio-sensor-proxy is not in .build/iio-sensor-proxy: run scripts/setup")
            let layouts = KernelDriverZoo.layouts
            let results = onOrientdAndIncumbent(layouts, atOnce: Self.atOnce) { layout, incumbent in
                try incumbent ? Self.incumbentProblems(turning: layout) : Self.problems(turning: layout)
            }
            for (layout, result) in zip(layouts, results) {
                #expect(result.orientd.isEmpty, "\(layout):\n\(result.orientd.joined(separator: "\n"))")
                let fails = KernelDriverZoo.incumbentFails[layout.description] != nil
                #expect(result.incumbent.isEmpty != fails, "\(layout) on iio-sensor-proxy 3.0:\n\(result.incumbent.joined(separator: "\n"))")
            }
        }

        static func incumbentProblems(turning layout: KernelDriverLayout) throws -> [String] {
            let device = try ZooDevice(layout, incumbentTypes: true)
            defer { device.stop() }
            let bench = try SensorProxyBench()
            let reference = try ChildProcess(Reference.daemon, [], environment: device.sensor.environment.merging(bench.environment) { $1 },
                                             standardError: bench.directory + "/iio-sensor-proxy.log")
            defer { reference.stop() }
            var log: String { (try? String(contentsOfFile: bench.directory + "/iio-sensor-proxy.log", encoding: .utf8)) ?? "" }
            // 30 s at most: sixteen at once beside a kernel-tier guest, one took more than 10 (a CI run).
            guard waitUntil(timeout: 30, { bench.property("HasAccelerometer") != nil }) else { return ["never took its name", "log:\n\(log)"] }
            guard bench.property("HasAccelerometer") == "b true" else { return ["no accelerometer", "log:\n\(log)"] }
            let client = try ProxyClaimer(on: bench)
            let ask = client.ask
            var problems: [String] = []
            if ask("claim Accelerometer") != "claimed" { problems.append("the claim was not answered") }
            for (turn, name) in [(Orientation.portrait, "normal"), (.landscapeLeft, "right-up")] {
                device.turn(to: turn)
                var value: String?
                if !waitUntil(timeout: 6, every: 0.2, { value = ask("get AccelerometerOrientation"); return value == name }) {
                    problems.append("did not turn to \(name) (\(value ?? "unanswered"))")
                }
            }
            return problems.isEmpty ? [] : problems + ["log:\n\(log)"]
        }

        /// What went wrong turning `layout` through `turns`: nothing when orientd followed.
        static func problems(turning layout: KernelDriverLayout) throws -> [String] {
            let device = try ZooDevice(layout)
            defer { device.stop() }
            // Read at the full rate all the time: what is tested is the layout, not the pace.
            let daemon = try Daemon(sensor: device.sensor, arguments: ["--rate", "50", "--still-rate", "50"])
            let client = try daemon.client()
            client.setReadTimeout(6)
            var problems: [String] = []
            var orientation = try client.subscribe()
            if orientation != .portrait { problems.append("started in \(orientation), not portrait") }
            for turn in Self.turns {
                device.turn(to: turn)
                let started = Date()
                while orientation != turn, Date().timeIntervalSince(started) < 6,
                      let event = try? client.nextEvent(), let name = event["orientation"]?.stringValue {
                    orientation = Orientation(rawValue: name) ?? orientation
                }
                if orientation != turn { problems.append("did not turn to \(turn) (still \(orientation))") }
            }
            let status = try IntegrationTests.AmbientSensorDaemonTests.status(daemon)?["sensor"]
            if status?["device"]?.stringValue?.hasPrefix("iio:device0") != true || status?["location"]?.stringValue != "display" {
                problems.append("the display sensor is not the one read: \(String(describing: status))")
            }
            // A buffer holds scans of x, y and z; a part without z is polled. A triggered buffer
            // is given the device's own data-ready trigger (the kernel refuses to start it
            // without): by the names iio-sensor-proxy looks for, else the one named after the
            // device that is not a motion trigger.
            if layout.scanType != nil, layout.axes.count == 3 {
                if device.sensor.value(of: "buffer/enable") != "1" { problems.append("not read through its buffer") }
                let namedAfter = layout.triggers.filter { $0.hasPrefix(layout.name) && !$0.dropFirst(layout.name.count).contains("motion") }
                let own = layout.triggers.first { $0 == "\(layout.name)-dev0" || $0 == "\(layout.name)-trigger" }
                    ?? (namedAfter.count == 1 ? namedAfter.first : nil)
                if let own, device.sensor.value(of: "trigger/current_trigger") != own {
                    problems.append("its trigger is '\(device.sensor.value(of: "trigger/current_trigger") ?? "missing")', not \(own)")
                }
            }
            // The driver's own scale is found wherever it is shared, and is the value it prints:
            // status says it is wrong exactly where the printed scale is (a driver whose scale is
            // in g), and only a driver with none is read without one. (A part without z is
            // completed to 1 g, which no wrong scale shows through.)
            let noScale = status?["scaleProblem"]?.stringValue?.contains("gives no scale") == true
            if noScale != (layout.scale == nil) {
                problems.append("status says \(noScale ? "" : "nothing of ")no scale: \(String(describing: status))")
            }
            if layout.axes.count == 3 {
                var said = false
                let settled = waitUntil(timeout: 3) {
                    said = (try? IntegrationTests.AmbientSensorDaemonTests.status(daemon)?["sensor"]?["scaleProblem"]?.stringValue?.contains("scale is wrong")) == true
                    return said == layout.scaleIsWrong
                }
                if !settled { problems.append("status \(said ? "says" : "does not say") the scale is wrong") }
            }
            return problems.isEmpty ? [] : problems + ["orientd's log:\n\(daemon.log)"]
        }
    }
}

/// A `KernelDriverLayout` emulated: its accelerometer (and a convertible's base one, lying on the
/// table), its triggers, and where it has a buffer, scans streamed into it at 50 Hz in the
/// driver's scan format as the device turns.
final class ZooDevice: @unchecked Sendable {
    let layout: KernelDriverLayout
    let sensor: EmulatedAccelerometer
    private let orientation = NIOLockedValueBox(Orientation.portrait)
    private var capture: CapturingThread?

    /// `incumbentTypes`: give each accelerometer the udev type iio-sensor-proxy's rule would.
    init(_ layout: KernelDriverLayout, incumbentTypes: Bool = false) throws {
        self.layout = layout
        var others = ""
        if layout.pair != nil {
            var base = layout.description(path: EmulatedAccelerometer.baseDevicePath, sysname: "iio:device1",
                                          raw: layout.rawCounts(for: .faceUp), base: true)
            if incumbentTypes { base = base.replacingOccurrences(of: "E: SUBSYSTEM=iio\n", with: "E: SUBSYSTEM=iio\nE: IIO_SENSOR_PROXY_TYPE=\(Self.incumbentType(layout))\n") }
            others += base + "\n"
        }
        others += EmulatedAccelerometer.triggerDevices(layout.triggers)
        var properties = layout.udevProperties()
        if incumbentTypes { properties["IIO_SENSOR_PROXY_TYPE"] = Self.incumbentType(layout) }
        sensor = try EmulatedAccelerometer(attributes: layout.files(raw: layout.rawCounts(for: .portrait)),
                                           properties: properties, otherDevices: others)
        guard layout.scanType != nil else { return }
        let sysnames = layout.pair == nil ? ["iio:device0"] : ["iio:device0", "iio:device1"]
        for sysname in sysnames { try sensor.makeScanFIFO(sysname: sysname) }
        let (orientation, sensor) = (orientation, sensor)
        capture = CapturingThread { nanoseconds in
            sensor.appendScanBytes(layout.scan(raw: layout.rawCounts(for: orientation.withLockedValue { $0 }), nanoseconds: nanoseconds))
            if sysnames.count > 1 {
                sensor.appendScanBytes(layout.scan(raw: layout.rawCounts(for: .faceUp), nanoseconds: nanoseconds), sysname: sysnames[1])
            }
        }
    }

    /// The type iio-sensor-proxy's udev rule (80-iio-sensor-proxy.rules) gives the layout's
    /// files: iio-poll-accel for the three raw files, iio-buffer-accel for the three scan elements.
    static func incumbentType(_ layout: KernelDriverLayout) -> String {
        let files = layout.files(raw: Vector3(0, 0, 0))
        let poll = ["x", "y", "z"].allSatisfy { files["in_accel_\($0)_raw"] != nil }
        let buffer = ["x", "y", "z"].allSatisfy { files["scan_elements/in_accel_\($0)_en"] != nil }
        return [poll ? "iio-poll-accel" : nil, buffer ? "iio-buffer-accel" : nil].compactMap { $0 }.joined(separator: " ")
    }

    /// The display's accelerometer turned: its raw files, and the scans from now on.
    func turn(to orientation: Orientation) {
        self.orientation.withLockedValue { $0 = orientation }
        guard layout.hasRaw else { return }
        let raw = layout.rawCounts(for: orientation)
        let values = ["x": raw.x, "y": raw.y, "z": raw.z]
        for axis in layout.axes { sensor.set("in_accel_\(axis)_raw", EmulatedAccelerometer.format(values[axis] ?? 0)) }
    }

    func stop() { capture?.stop() }
}

extension IncumbentComparisons.DeviceZooTests {
    /// docs/devices.md's table is the zoo's: every layout the test turns has its row, as rendered
    /// from the same data (regenerate it from the failure's text).
    @Test func theDevicesDocumentListsEveryLayout() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/devices.md").path
        let document = try String(contentsOfFile: path, encoding: .utf8)
        #expect(document.contains(KernelDriverZoo.table), "docs/devices.md's table is stale; it should read:\n\(KernelDriverZoo.table)")
    }
}
