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
        let sensor = status.sensor
        Output.line("""
            server:        \(status.server) (protocol \(status.protocol)), up \(number(status.uptime)) s
            orientation:   \(status.orientation.rawValue)\(status.tilt.map { ", tilt \($0.rawValue)" } ?? "")
            rotation lock: \(status.locked ? "on" : "off")
            clients:       \(status.clients) connected, \(status.subscribers) subscribed
            sensor:        \(sensor.device) at \(sensor.uri) (\(sensor.location.rawValue))
            reading:       \(sensor.reading ? "yes" : "no (no client needs it)"), \(number(sensor.rate)) times a second while it does
            mount matrix:  \(sensor.mountMatrix.map { $0.map(number).joined(separator: ", ") }.joined(separator: "; ")) from \(sensor.mountMatrixSource)
            """)
        if let problem = sensor.scaleProblem { Output.line("scale:         \(problem)") }
        // A convertible's base accelerometer (or any other) is read along with the display one.
        if status.devices.count > 1 {
            Output.line("accelerometers:")
            for device in status.devices {
                Output.line("  \(device.id ?? "-"): \(device.device) (\(device.location.rawValue))\(device.available ? "" : ", unavailable")")
            }
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
    }

    /// An ambient sensor: its value while it is read, else why there is none.
    private func ambient(_ device: String, available: Bool, reading: Bool, value: String?) -> String {
        guard available else { return "none" }
        guard reading else { return "\(device), not read (no client needs it)" }
        return "\(device), \(value ?? "no reading yet")"
    }

    private func number(_ value: Double) -> String { AmbientText.number(value) }
}
