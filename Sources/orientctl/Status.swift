import ArgumentParser
import OrientdProtocol

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print what orientd reads and serves: sensor, mount matrix, orientation, lock, clients.",
        discussion: "With --json, prints the status result object as orientd sent it.")

    @OptionGroup var options: ConnectionOptions

    func run() throws {
        let status = try options.call(.status)
        if options.json {
            Output.line(ConnectionOptions.json(status))
            return
        }
        let sensor = status["sensor"]
        func text(_ value: JSONValue?) -> String {
            switch value {
            case .string(let text)?: text
            case .integer(let number)?: String(number)
            case .number(let number)?: number == number.rounded() ? String(Int(number)) : String(number)
            case .bool(let flag)?: flag ? "yes" : "no"
            case .array(let rows)?: rows.map(text).joined(separator: rows.first.map { if case .array = $0 { "; " } else { ", " } } ?? "")
            default: "-"
            }
        }
        Output.line("""
            server:        \(text(status["server"])) (protocol \(text(status["protocol"]))), up \(text(status["uptime"])) s
            orientation:   \(text(status["orientation"]))
            rotation lock: \(status["locked"] == .bool(true) ? "on" : "off")
            clients:       \(text(status["clients"])) connected, \(text(status["subscribers"])) subscribed
            sensor:        \(text(sensor?["device"])) at \(text(sensor?["uri"])) (\(text(sensor?["location"])))
            reading:       \(sensor?["reading"] == .bool(true) ? "yes" : "no (no client needs it)"), \(text(sensor?["rate"])) times a second while it does
            mount matrix:  \(text(sensor?["mountMatrix"])) from \(text(sensor?["mountMatrixSource"]))
            """)
        // A convertible's base accelerometer (or any other) is read along with the display one.
        if case .array(let devices)? = status["devices"], devices.count > 1 {
            Output.line("accelerometers:")
            for device in devices {
                Output.line("  \(text(device["id"])): \(text(device["device"])) (\(text(device["location"])))\(device["available"] == .bool(false) ? ", unavailable" : "")")
            }
        }
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
    let result = try options.call(method)
    if options.json {
        Output.line(ConnectionOptions.json(result))
        return
    }
    Output.line(method == .lock ? "rotation locked" : "rotation unlocked")
    if result["persisted"] == .bool(false) {
        Output.error("orientctl: warning: orientd could not save the lock; it holds until orientd restarts (see its log)")
    }
}
