import AccelerometerIO
import ArgumentParser
import Foundation
import Logging
import OrientationCore
import OrientdHub
import OrientdProtocol
import ServiceLifecycle
import UnixSignals

@main
struct Orientd: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "orientd",
        abstract: "Publish the device orientation from an IIO accelerometer to local programs.",
        discussion: """
            orientd reads the accelerometer that follows the screen (through libiio), decides the \
            device orientation (portrait, portraitUpsideDown, landscapeLeft, landscapeRight, faceUp, \
            faceDown, unknown) without flapping, and publishes it on a Unix socket, one JSON object \
            per line (see docs/protocol.md). Query it with 'orientctl get'; follow it with \
            'orientctl monitor'.
            """,
        version: version)

    @Option(help: "libiio context to read: 'local:' for this machine, 'ip:HOST[:PORT]' for a board running iiod.")
    var uri = "local:"

    @Option(help: ArgumentHelp(
        "Unix socket to serve. (default: $\(Wire.socketEnvironmentVariable), else \(Wire.defaultSocketPath))",
        valueName: "path"))
    var socket: String?

    @Option(help: "Polls of the accelerometer per second.")
    var rate: Double = 25

    @Option(help: ArgumentHelp("Least severe messages to log: trace, debug, info, notice, warning, error.", valueName: "level"))
    var logLevel: Logger.Level = .info

    func validate() throws {
        guard rate.isFinite, rate >= 1, rate <= 1000 else {
            throw ValidationError("--rate must be between 1 and 1000 polls per second, not \(rate)")
        }
    }

    func run() async throws {
        let logger = DaemonLog.bootstrap(level: logLevel)
        let hub = OrientationHub()
        let pipeline = OrientationPipeline(hub: hub, logger: logger)
        let poller = SensorPoller(
            rate: rate,
            open: { [uri] in try IIOAccelerometer(uri: uri, logger: logger) },
            onReading: pipeline.handle)

        let sensor: SensorInfo
        do {
            sensor = try await poller.start()
        } catch {
            throw DaemonFailure("\(error)")
        }
        logger.info("reading \(sensor.device) at \(sensor.uri) (\(sensor.location)) \(rate) times a second; mount matrix \(sensor.mountMatrix) from \(sensor.mountMatrixSource)")

        let server: HubServer
        do {
            server = try await HubServer.bind(
                socketPath: Wire.socketPath(explicit: socket), hub: hub,
                serverName: "orientd \(Self.version)", logger: logger)
        } catch {
            poller.stop()
            throw DaemonFailure("\(error)")
        }

        let group = ServiceGroup(
            services: [SensorService(poller: poller), server],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger)
        try await group.run()
    }
}

/// A fatal start-up problem, printed as one line ("orientd: ...") with a non-zero exit.
struct DaemonFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
