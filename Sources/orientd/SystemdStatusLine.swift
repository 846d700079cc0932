import Synchronization
import OrientdHub
import OrientdProtocol

/// Keeps the line `systemctl status orientd` shows (sensor, orientation, clients) up to date
/// without a timer of its own: it is looked at each time the watchdog is fed, and systemd is told
/// only when it changed. Under systemd's watchdog that is every few seconds (without a watchdog,
/// `WatchdogSec=0`, the line stays the one given at start); a daemon started by hand has no
/// systemd to tell. Once stopping, the line is left as "stopping".
final class SystemdStatusLine: Sendable {
    private let hub: OrientationHub
    private let clients: @Sendable () -> Int
    private let notifier: SystemdNotifier
    /// The line last sent; nil once stopping.
    private let last = Mutex<String?>("")

    init(hub: OrientationHub, clients: @escaping @Sendable () -> Int, notifier: SystemdNotifier) {
        self.hub = hub
        self.clients = clients
        self.notifier = notifier
    }

    /// Tells systemd the line if it changed since the last time.
    func refresh() {
        let line = Self.line(hub.status(clients: clients()))
        // Sent under the lock, so a refresh racing `stop` never overwrites "stopping".
        last.withLock { last in
            guard let sent = last, sent != line else { return }
            notifier.status(line)
            last = line
        }
    }

    /// No more refreshes: the daemon is stopping.
    func stop() { last.withLock { $0 = nil } }

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
