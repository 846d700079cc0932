import AccelerometerIO
import ServiceLifecycle

/// Keeps the sensor feeds (and the udev monitor that tells them of devices coming and going)
/// running for the life of the daemon; on shutdown tells systemd orientd is stopping, and stops them.
struct SensorService: Service {
    let feeds: [any SampleFeed]
    let hotplug: HotplugMonitor?
    let notifier: SystemdNotifier

    func run() async throws {
        try? await gracefulShutdown()
        notifier.stopping()
        hotplug?.stop()
        for feed in feeds { feed.stop() }
    }
}
