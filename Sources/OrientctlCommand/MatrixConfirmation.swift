import DaemonThreads
import Glibc
import RotateRuntime
import OrientationCore
import OrientdClient
import OrientdProtocol

/// After `--install`: waits until `status` shows orientd using the new matrix from udev. orientd
/// reopens a sensor on udev's `change` event while it reads it, so a subscription holds the
/// sensor awake meanwhile.
struct MatrixConfirmation {
    let device: String?
    let options: ConnectionOptions

    /// The matrix's source once orientd uses `matrix` from udev; nil if it did not within `seconds`.
    func wait(for matrix: MountMatrix, seconds: Double) -> String? {
        let awake = try? options.connect()
        _ = try? awake?.subscribe(SubscribeParameters(events: [.deviceOrientationDidChange]), device: device)
        let deadline = MonotonicClock.now() + seconds
        repeat {
            if let sensor = current(), sensor.matrix == matrix, sensor.mountMatrixSource.hasPrefix("udev") {
                return sensor.mountMatrixSource
            }
            usleep(200_000)
        } while MonotonicClock.now() < deadline
        return nil
    }

    /// What to check when orientd did not take the matrix.
    func failure(expected entry: HwdbEntry, seconds: Double, syspath: String?) -> String {
        let now = current().map { "\($0.matrix.map(HwdbEntry.value(of:)) ?? "an unusable matrix") from \($0.mountMatrixSource)" }
            ?? "an unknown matrix"
        let device = syspath ?? "/sys/bus/iio/devices/iio:deviceN"
        return """
            orientd still uses \(now) after \(formatDecimal(seconds)) s. Check:
              - 'udevadm info \(device)' lists \(entry.propertyLine); if not, udev did not match the entry: \
            compare its first line with the sensor's key ('orientctl status --json', hwdbMatch) and run 'systemd-hwdb update' again;
              - orientd's config file sets no mount-matrix for this sensor (it wins over udev);
              - orientd's log ('journalctl -u orientd') for a rejected matrix.
            """
    }

    private func current() -> SensorStatus? {
        guard let (status, _) = try? options.call(.status, as: StatusResult.self) else { return nil }
        guard let device else { return status.sensor }
        return status.devices.first { $0.id == device }
    }
}
