import AccelerometerIO
import ServiceLifecycle

/// Keeps the sensor poller running for the life of the daemon and stops it on shutdown.
struct SensorService: Service {
    let poller: SensorPoller

    func run() async throws {
        try? await gracefulShutdown()
        poller.stop()
    }
}
