import RotateRuntime
import ArgumentParser
import OrientdProtocol

struct Monitor: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the current orientation (or tilt, proximity, light), then one line per change, until interrupted.",
        discussion: """
            Each line is flushed as soon as it is printed, so the output can be piped. When the \
            accelerometer goes away or comes back, a line says so ("sensor unavailable: REASON", \
            "sensor available: DEVICE"). With --json, the first line is the subscribe result \
            ({"orientation":...}) and each further line is a deviceOrientationDidChange event \
            (orientation, previous, timestamp, sequence) or a sensorAvailability event.

            --tilt follows the tilt steps too ("tilt tiltedUp": vertical within 20° of upright, \
            tiltedUp or tiltedDown from 21°, faceUp or faceDown from 70°, as iio-sensor-proxy's \
            AccelerometerTilt); with --json, as deviceTiltDidChange events.

            --proximity and --light follow the proximity sensor ("proximity near", "proximity far") \
            and the ambient light sensor ("light 12.5 lux") instead of the orientation (add \
            --orientation for both); only the sensors followed are read. Their sensors coming and \
            going read "proximity sensor unavailable: REASON", "light sensor available: DEVICE"; \
            with --json, their events are proximityStateDidChange and ambientLightDidChange.

            When orientd stops or restarts, monitor says so on standard error ("orientd stopped; \
            waiting for it to start again") and goes on once it is back, printing the state afresh \
            as at the start; started before orientd, it waits for it the same way. \
            --no-reconnect exits instead, for scripts.
            """)

    @OptionGroup var options: ConnectionOptions
    @OptionGroup var output: JSONOption
    @OptionGroup var device: DeviceOption

    @Flag(help: "Follow the tilt steps too: vertical, tiltedUp, tiltedDown, faceUp, faceDown.")
    var tilt = false

    @Flag(help: "Follow the proximity sensor: near or far.")
    var proximity = false

    @Flag(help: "Follow the ambient light level.")
    var light = false

    @Flag(help: "Follow the orientation too (the default without --proximity or --light).")
    var orientation = false

    @Flag(help: "Exit when orientd stops (status 0) or drops the connection (status 1), and fail when it is not running, instead of waiting for it.")
    var noReconnect = false

    /// What to subscribe to: the orientation unless only ambient sensors were asked for.
    var events: [EventKind] {
        (orientation || !(proximity || light) ? [.deviceOrientationDidChange] : [])
            + (tilt ? [.deviceTiltDidChange] : [])
            + (proximity ? [.proximityStateDidChange] : []) + (light ? [.ambientLightDidChange] : [])
    }

    func run() throws {
        try options.follow(SubscribeParameters(events: events), device: device.device, reconnecting: !noReconnect, start: { result, json in
            if output.json {
                Output.line(ConnectionOptions.json(json))
                return
            }
            if events.contains(.deviceOrientationDidChange) {
                Output.line(result.orientation.rawValue)
                if result.orientation == .unknown { Output.error(Get.unknownHint) }
            }
            if let tilt = result.tilt { Output.line("tilt \(tilt.rawValue)") }
            // An ambient value unknown yet follows as an event; a sensor missing is said at once.
            if result.proximityAvailable == false { Output.line("proximity sensor unavailable: orientd has none") }
            if let near = result.proximityState { Output.line(AmbientText.proximity(near: near)) }
            if result.lightAvailable == false { Output.line("light sensor unavailable: orientd has none") }
            if let light = result.ambientLight { Output.line(AmbientText.light(light)) }
        }, event: { event, json in
            let line: String
            switch event {
            case .deviceOrientationDidChange(let change): line = change.orientation.rawValue
            case .deviceTiltDidChange(let change): line = "tilt \(change.tilt.rawValue)"
            case .proximityStateDidChange(let change): line = AmbientText.proximity(near: change.proximityState)
            case .ambientLightDidChange(let change): line = AmbientText.light(change.light)
            case .sensorAvailability(let availability): line = AmbientText.availability(availability)
            default: return true
            }
            Output.line(output.json ? ConnectionOptions.json(json) : line)
            return true
        })
    }
}
