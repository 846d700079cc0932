import RotateRuntime
import ArgumentParser
import OrientdProtocol

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print what orientd reads and serves: sensors, mount matrix, orientation, lock, clients.",
        discussion: "With --json, prints the status result object as orientd sent it.")

    @OptionGroup var options: ConnectionOptions
    @OptionGroup var output: JSONOption

    func run() throws {
        let (status, json) = try options.call(.status, as: StatusResult.self)
        if output.json {
            Output.line(ConnectionOptions.json(json))
            return
        }
        Output.line("""
            server:        \(status.server) (protocol \(status.protocol)), up \(number(status.uptime)) s
            orientation:   \(status.orientation.rawValue)\(status.tilt.map { ", tilt \($0.rawValue)" } ?? "")
            rotation lock: \(status.locked ? "on" : "off")
            clients:       \(status.clients) connected, \(status.subscribers) subscribed
            """)
        for line in sensorLines(status.sensor) { Output.line(line) }
        // A convertible's base accelerometer (or any other) is read along with the display one.
        if status.devices.count > 1 {
            Output.line("accelerometers:")
            for device in status.devices { Output.line("  " + describe(device)) }
        }
        // Left out by daemons from before the ambient sensors.
        if let light = status.light {
            Output.line("light:         " + ambient(light.device, available: light.available, reading: light.reading,
                                                    value: light.level.map { AmbientText.light(AmbientLight(level: $0, unit: light.unit ?? .vendor)) }))
        }
        if let proximity = status.proximity {
            Output.line("proximity:     " + ambient(proximity.device, available: proximity.available, reading: proximity.reading,
                                                    value: proximity.proximityState.map { AmbientText.proximity(near: $0) }))
        }
        for line in sensorProxyLines(status.sensorProxy) { Output.line(line) }
    }

    /// The display accelerometer: what it is and where, how it is read and mounted; or, when
    /// there is none, why and that orientd waits for one.
    private func sensorLines(_ sensor: SensorStatus) -> [String] {
        var lines = ["sensor:        " + describe(sensor)]
        guard sensor.available else { return lines }
        // "25 times a second while the device moves (or a client follows its angles), 3 while it is still"
        let pace = "\(number(sensor.rate)) times a second"
            + (sensor.stillRate.map { " while the device moves (or a client follows its angles), \(number($0)) while it is still" } ?? "")
        lines.append("reading:       " + (sensor.reading ? "yes, \(pace)" : "no (no client needs it); when one does, \(pace)"))
        let matrix = sensor.mountMatrix.map { $0.map(number).joined(separator: ", ") }.joined(separator: "; ")
        lines.append("mount matrix:  \(matrix)" + (sensor.mountMatrixSource.isEmpty ? "" : " from \(sensor.mountMatrixSource)"))
        if let problem = sensor.scaleProblem { lines.append("scale:         \(problem)") }
        if let watch = sensor.stillWatch { lines.append("when still:    \(watch.sentence)") }
        return lines
    }

    /// The D-Bus face desktops read (GNOME, KDE, phosh): served or not and why, and who claims
    /// what. Without it, a line that says so: "the desktop does not rotate" starts here.
    private func sensorProxyLines(_ face: SensorProxyStatus?) -> [String] {
        guard let face else { return ["D-Bus:         not served (sensor-proxy is off): desktops that ask net.hadess.SensorProxy do not hear orientd"] }
        var lines: [String]
        switch face.name {
        case "owned": lines = ["D-Bus:         serving net.hadess.SensorProxy on the system bus"]
        case "queued", "lost":
            lines = ["D-Bus:         not serving: \(face.owner?.description ?? "another process") owns net.hadess.SensorProxy; orientd takes it when that one leaves"]
        case "refused": lines = ["D-Bus:         not serving: the bus refused net.hadess.SensorProxy (\(face.problem ?? "its policy")); install orientd's D-Bus policy"]
        default: lines = ["D-Bus:         asking the system bus for net.hadess.SensorProxy"]
        }
        if face.claims.isEmpty {
            lines.append("  claims:      none (a desktop claims the accelerometer while it may rotate the screen)")
        }
        for claim in face.claims {
            lines.append("  claims:      \(claim.sensors.joined(separator: ", ")) by \(claim.client.description)")
        }
        return lines
    }

    /// One accelerometer in a line: name, place, id and context; or why it cannot be read.
    private func describe(_ sensor: SensorStatus) -> String {
        let context = sensor.uri.isEmpty ? "" : " at \(sensor.uri)"
        guard sensor.available else {
            return "none\(context) — \(sensor.problem ?? "not found yet"); orientd waits for one"
        }
        return "\(sensor.device) in the \(sensor.location.rawValue)" + (sensor.id.map { ", id \($0)," } ?? "") + context
    }

    /// An ambient sensor: its value while it is read, else why there is none.
    private func ambient(_ device: String, available: Bool, reading: Bool, value: String?) -> String {
        guard available else { return "none" }
        guard reading else { return "\(device), not read (no client needs it)" }
        return "\(device), \(value ?? "no reading yet")"
    }

    private func number(_ value: Double) -> String { AmbientText.number(value) }
}
