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
    var rate: Double = 50

    @Option(help: ArgumentHelp(
        "Instead of a sensor, play a recorded trace (lines of 'time x y z', m/s² after the mount matrix) through the real pipeline, in real time.",
        valueName: "trace"))
    var replay: String?

    @Flag(help: "With --replay: play the trace as fast as possible instead of in real time.")
    var fast = false

    @Option(help: ArgumentHelp("Clients served at once; more are refused with an error.", valueName: "count"))
    var maxClients = 1024

    @Option(help: ArgumentHelp("Least severe messages to log: trace, debug, info, notice, warning, error, critical.", valueName: "level"))
    var logLevel: Logger.Level = .info

    func validate() throws {
        guard rate.isFinite, rate >= 1, rate <= 1000 else {
            throw ValidationError("--rate must be between 1 and 1000 polls per second, not \(rate)")
        }
        guard maxClients >= 1 else { throw ValidationError("--max-clients must be at least 1") }
        if fast, replay == nil { throw ValidationError("--fast goes with --replay TRACE") }
    }

    func run() async throws {
        let logger = DaemonLog.bootstrap(level: logLevel)
        do {
            try await serve(logger: logger)
        } catch let failure as DaemonFailure {
            logger.error("\(failure)")
            throw ExitCode.failure
        }
    }

    /// Binds the socket first (a bad --socket fails before the sensor is touched), then opens the
    /// sensor, then serves until SIGTERM or SIGINT.
    private func serve(logger: Logger) async throws {
        let socketPath = Wire.socketPath(explicit: socket)
        let hub = OrientationHub()
        let server: HubServer
        do {
            server = try await HubServer.bind(
                socketPath: socketPath, hub: hub, serverName: "orientd \(Self.version)",
                maximumClients: FileDescriptorBudget.clients(wanted: maxClients, logger: logger), logger: logger)
        } catch {
            throw DaemonFailure("\(error)")
        }

        let pipeline = OrientationPipeline(hub: hub, logger: logger)
        let feed: any SampleFeed
        do {
            feed = try makeFeed(onReading: pipeline.handle, logger: logger)
            _ = try await feed.start()
        } catch {
            await server.close()
            throw DaemonFailure("\(error)")
        }
        do {
            try await server.startAccepting()
        } catch {
            feed.stop()
            await server.close()
            throw DaemonFailure("cannot accept clients on \(socketPath): \(error)")
        }
        logger.info("serving the orientation on \(socketPath)")

        let group = ServiceGroup(
            services: [SensorService(feed: feed), server],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger)
        try await group.run()
    }
}

extension Orientd {
    /// The libiio poller, or the trace player for --replay.
    func makeFeed(onReading: @escaping @Sendable (Reading) -> Void, logger: Logger) throws -> any SampleFeed {
        if let replay {
            let player = try TracePlayer(path: replay, realTime: !fast, logger: logger, onReading: onReading)
            logger.info("replaying \(player.info.device) from \(replay)\(fast ? " as fast as possible" : " in real time")")
            return player
        }
        return SensorPoller(rate: rate, logger: logger, open: { [uri, rate] in
            let sensor = try IIOAccelerometer(uri: uri, logger: logger)
            let info = sensor.info
            logger.info("reading \(info.device) at \(info.uri) (\(info.location)) \(rate.formatted()) times a second; mount matrix \(info.mountMatrix) from \(info.mountMatrixSource)")
            return sensor
        }, onReading: onReading)
    }
}

/// A fatal start-up problem: logged as one line ("orientd: error: ..."), then a non-zero exit.
struct DaemonFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
