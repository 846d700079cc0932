import OrientdHub
import OrientdProtocol
import ServiceLifecycle

/// Keeps the line `systemctl status orientd` shows up to date (sensor, orientation, clients):
/// looks every second and tells systemd when the line changed.
struct SystemdStatusService: Service {
    let hub: OrientationHub
    let clients: @Sendable () -> Int
    let notifier: SystemdNotifier

    func run() async throws {
        var last = ""
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            let line = Self.line(hub.status(clients: clients()))
            if line != last {
                notifier.status(line)
                last = line
            }
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(1)) }
        }
    }

    /// "landscapeLeft; sensor iio:device0 (accel_3d) at local:, idle; 2 clients"
    static func line(_ status: StatusResult) -> String {
        let sensor = status.sensor
        let clients = "\(status.clients) client\(status.clients == 1 ? "" : "s")"
        guard sensor.available else {
            return "waiting for an accelerometer (\(sensor.problem ?? "none found yet")); \(clients)"
        }
        let locked = status.locked ? ", rotation locked" : ""
        return "\(status.orientation.rawValue)\(locked); sensor \(sensor.device) at \(sensor.uri), \(sensor.reading ? "reading" : "idle"); \(clients)"
    }
}
