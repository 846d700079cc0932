import CLibSystemd

/// Tells systemd how orientd is doing (sd_notify, for `Type=notify`): ready, a status line for
/// `systemctl status`, the watchdog's heartbeat, and stopping. Without systemd (no
/// `NOTIFY_SOCKET`) every call does nothing.
struct SystemdNotifier: Sendable {
    /// How often to feed the watchdog (a quarter of `WatchdogSec=`, so one late wake-up never
    /// costs a restart), or nil without a watchdog.
    let heartbeatInterval: Double?

    init() {
        var microseconds: UInt64 = 0
        heartbeatInterval = sd_watchdog_enabled(0, &microseconds) > 0 ? Double(microseconds) / 4_000_000 : nil
    }

    /// The socket listens and the sensor's state is known.
    func ready(status: String) { notify("READY=1\nSTATUS=\(status)") }

    func status(_ status: String) { notify("STATUS=\(status)") }

    /// The sensor loop is alive.
    func heartbeat() { notify("WATCHDOG=1") }

    func stopping() { notify("STOPPING=1\nSTATUS=stopping") }

    private func notify(_ state: String) {
        _ = sd_notify(0, state)
    }
}
