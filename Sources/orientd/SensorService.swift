import AccelerometerIO
import ServiceLifecycle

/// Keeps the sensor feed running for the life of the daemon and stops it on shutdown.
struct SensorService: Service {
    let feed: any SampleFeed

    func run() async throws {
        try? await gracefulShutdown()
        feed.stop()
    }
}
