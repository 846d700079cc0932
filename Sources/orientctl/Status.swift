import ArgumentParser
import OrientdProtocol

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print what orientd reads and serves: sensor, mount matrix, orientation, lock, clients.",
        discussion: "With --json, prints the status result object as orientd sent it.")

    @OptionGroup var options: ConnectionOptions

    func run() throws {
        let (status, json) = try options.call(.status, as: StatusResult.self)
        if options.json {
            Output.line(ConnectionOptions.json(json))
            return
        }
        let sensor = status.sensor
        Output.line("""
            server:        \(status.server) (protocol \(status.protocol)), up \(number(status.uptime)) s
            orientation:   \(status.orientation.rawValue)
            rotation lock: \(status.locked ? "on" : "off")
            clients:       \(status.clients) connected, \(status.subscribers) subscribed
            sensor:        \(sensor.device) at \(sensor.uri) (\(sensor.location.rawValue))
            reading:       \(sensor.reading ? "yes" : "no (no client needs it)"), \(number(sensor.rate)) times a second while it does
            mount matrix:  \(sensor.mountMatrix.map { $0.map(number).joined(separator: ", ") }.joined(separator: "; ")) from \(sensor.mountMatrixSource)
            """)
        // A convertible's base accelerometer (or any other) is read along with the display one.
        if status.devices.count > 1 {
            Output.line("accelerometers:")
            for device in status.devices {
                Output.line("  \(device.id ?? "-"): \(device.device) (\(device.location.rawValue))\(device.available ? "" : ", unavailable")")
            }
        }
    }

    /// A number as JSON would write it: whole numbers without a fraction.
    private func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

struct Lock: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lock the rotation: freeze the interface orientation for every client.",
        discussion: """
            Device orientation events go on; interfaceOrientationDidChange events stop until \
            'orientctl unlock'. The lock survives a restart of orientd. Only root and members of \
            orientd's lock-group may change it.
            """)

    @OptionGroup var options: ConnectionOptions

    func run() throws { try setLock(.lock, options: options) }
}

struct Unlock: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Unlock the rotation: interfaces follow the device again.",
        discussion: "Only root and members of orientd's lock-group may change the lock.")

    @OptionGroup var options: ConnectionOptions

    func run() throws { try setLock(.unlock, options: options) }
}

private func setLock(_ method: Method, options: ConnectionOptions) throws {
    let (result, json) = try options.call(method, as: LockResult.self)
    if options.json {
        Output.line(ConnectionOptions.json(json))
        return
    }
    Output.line(method == .lock ? "rotation locked" : "rotation unlocked")
    if !result.persisted {
        Output.error("orientctl: warning: orientd could not save the lock; it holds until orientd restarts (see its log)")
    }
}
