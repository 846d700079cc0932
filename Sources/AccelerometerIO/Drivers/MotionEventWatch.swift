import COrientdShim
import Glibc

/// The display accelerometer's own motion interrupt, slept on while the device is still: the
/// motion events `MotionWakeUp` chose are enabled in the device's sysfs `events/` directory, and
/// the kernel raises them on the event descriptor that `IIO_GET_EVENT_FD_IOCTL` returns on
/// `/dev/iio:deviceN`. Confined to the sensor thread, as the libiio context is.
///
/// The events stay enabled once armed (while the device moves their records queue in the kernel,
/// unread, and are dropped at the next arming); each arming writes the enable files again, as a
/// driver may forget them across a suspend. Closing disables them.
final class MotionEventWatch: StillWatch {
    let sysname: String
    /// The `events/` files written 1 to arm, 0 to close.
    let enableFiles: [String]
    private(set) var descriptor: Int32 = -1
    let releasesCapture = true
    /// Arming released the buffer: a safety read that restarted it would take at once, before the
    /// kernel has a sample, and never see that the device moved.
    let readsRawWhenAsked = true
    let signal = "its motion event"

    init(sysname: String, enableFiles: [String]) {
        self.sysname = sysname
        self.enableFiles = enableFiles
    }

    deinit { close() }

    /// Sets the events' threshold (`value` to `events/file`), before they are first enabled.
    func setThreshold(file: String, value: String) throws(MotionWatchError) {
        let result = orientd_iio_event_write(sysname, file, value)
        if result < 0 { throw .cannotSetThreshold(file: file, reason: Self.text(-result)) }
    }

    /// Enables the events and opens the event descriptor (once), dropping what queued since.
    func arm() throws(MotionWatchError) {
        for file in enableFiles {
            let result = orientd_iio_event_write(sysname, file, "1")
            if result < 0 { throw .cannotEnable(file: file, reason: Self.text(-result)) }
        }
        if descriptor < 0 {
            let opened = orientd_iio_event_open(sysname)
            if opened < 0 { throw .noDescriptor(reason: Self.text(-opened)) }
            descriptor = opened
        }
        _ = try takeEvents()
    }

    /// Reads the events waiting on the descriptor: how many (0 when none).
    func takeEvents() throws(MotionWatchError) -> Int {
        guard descriptor >= 0 else { return 0 }
        let count = orientd_iio_event_drain(descriptor)
        if count < 0 { throw .descriptorFailed(reason: Self.text(Int32(-count))) }
        return count
    }

    /// The events stay enabled: they fire on a motion the read does not see.
    func interrupted() {}

    /// Disables the events and closes the descriptor.
    func close() {
        guard descriptor >= 0 else { return }
        for file in enableFiles { _ = orientd_iio_event_write(sysname, file, "0") }
        Glibc.close(descriptor)
        descriptor = -1
    }

    private static func text(_ error: Int32) -> String {
        error == EPIPE ? "the event descriptor was closed" : String(cString: strerror(error))
    }
}

/// Why a still device cannot be watched by its motion event (it is read at the still rate instead).
enum MotionWatchError: Error, CustomStringConvertible {
    case cannotEnable(file: String, reason: String)
    case cannotSetThreshold(file: String, reason: String)
    case noDescriptor(reason: String)
    case descriptorFailed(reason: String)
    case cannotSetSensitivity(file: String, reason: String)

    var description: String {
        switch self {
        case .cannotEnable(let file, let reason): "cannot enable events/\(file) (\(reason))"
        case .cannotSetThreshold(let file, let reason): "cannot write its threshold to events/\(file) (\(reason))"
        case .noDescriptor(let reason): "cannot get the event descriptor (IIO_GET_EVENT_FD_IOCTL: \(reason))"
        case .descriptorFailed(let reason): "its event descriptor failed (\(reason))"
        case .cannotSetSensitivity(let file, let reason): "cannot write its change sensitivity to \(file) (\(reason))"
        }
    }
}
