import COrientdShim
import Glibc

/// The display accelerometer's own motion interrupt, slept on while the device is still: the
/// motion events `MotionWakeUp` chose are enabled in the device's sysfs `events/` directory, and
/// the kernel raises them on the event descriptor that `IIO_GET_EVENT_FD_IOCTL` returns on
/// `/dev/iio:deviceN`. Confined to the sensor thread, as the libiio context is.
///
/// The events are enabled only while armed. They are disabled when the event fires, when a
/// read ends the watch (a safety read, a client's), when arming fails and on close, so none is left
/// on while the device is captured: on bmc150 an enabled event makes every data-ready interrupt go
/// unhandled, until the kernel's spurious-interrupt check disables the line for good. Each file is
/// written only when it reads otherwise: drivers do nothing for an unchanged state (so a chip that
/// lost its configuration in a suspend is re-armed by the 0 written in between, not by a second
/// 1), and kxcjk-1013, whose axes share one state, takes one runtime-PM reference, not three.
final class MotionEventWatch: StillWatch {
    let sysname: String
    /// The `events/` files written 1 to arm, 0 to disarm.
    let enableFiles: [String]
    private(set) var descriptor: Int32 = -1
    /// Arming releases the buffer, and a safety read that restarted it would take at once, before
    /// the kernel has a sample, and never see that the device moved: it reads raw.
    let traits = SensorLoop.WatchTraits.motionEvent
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

    /// Enables the events and opens the event descriptor (once), dropping what queued since; on
    /// failure leaves nothing enabled.
    func arm() throws(MotionWatchError) {
        do throws(MotionWatchError) {
            try setEnabled(true)
            if descriptor < 0 {
                let opened = orientd_iio_event_open(sysname)
                if opened < 0 { throw .noDescriptor(reason: Self.text(-opened)) }
                descriptor = opened
            }
            _ = try drain()
        } catch {
            try? setEnabled(false)
            throw error
        }
    }

    /// Reads the events waiting on the descriptor: how many (0 when none). One fired: the events
    /// are disabled until the device is still again.
    func takeEvents() throws(MotionWatchError) -> Int {
        let count = try drain()
        if count > 0 { try setEnabled(false) }
        return count
    }

    /// A read ends the watch: the device may be captured next.
    func interrupted() throws(MotionWatchError) {
        try setEnabled(false)
    }

    /// Disables the events and closes the descriptor.
    func close() {
        try? setEnabled(false)
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    private func drain() throws(MotionWatchError) -> Int {
        guard descriptor >= 0 else { return 0 }
        let count = orientd_iio_event_drain(descriptor)
        if count < 0 { throw .descriptorFailed(reason: Self.text(Int32(-count))) }
        return count
    }

    /// Writes each enable file that does not read `on` already; the first failure is thrown once
    /// every file was tried.
    private func setEnabled(_ on: Bool) throws(MotionWatchError) {
        let value = on ? "1" : "0"
        var failure: MotionWatchError?
        for file in enableFiles where MotionEvents.firstLine(of: "/sys/bus/iio/devices/\(sysname)/events/\(file)") != value {
            let result = orientd_iio_event_write(sysname, file, value)
            if result < 0, failure == nil { failure = .cannotEnable(file: file, reason: Self.text(-result)) }
        }
        if let failure { throw failure }
    }

    private static func text(_ error: Int32) -> String {
        switch error {
        case EPIPE: "the event descriptor was closed"
        case EACCES, EPERM: String(cString: strerror(error)) + "; " + IIOError.accessHint
        default: String(cString: strerror(error))
        }
    }
}

/// Why a still device cannot be watched by its motion event (it is read at the still rate instead).
enum MotionWatchError: Error, CustomStringConvertible {
    case cannotEnable(file: String, reason: String)
    case cannotSetThreshold(file: String, reason: String)
    case noDescriptor(reason: String)
    case descriptorFailed(reason: String)
    case cannotSetSensitivity(file: String, reason: String)
    case cannotSetReportRate(file: String, reason: String)

    var description: String {
        switch self {
        case .cannotEnable(let file, let reason): "cannot write events/\(file) (\(reason))"
        case .cannotSetThreshold(let file, let reason): "cannot write its threshold to events/\(file) (\(reason))"
        case .noDescriptor(let reason): "cannot get the event descriptor (IIO_GET_EVENT_FD_IOCTL: \(reason))"
        case .descriptorFailed(let reason): "its event descriptor failed (\(reason))"
        case .cannotSetSensitivity(let file, let reason): "cannot write its change sensitivity to \(file) (\(reason))"
        case .cannotSetReportRate(let file, let reason): "cannot write its report rate to \(file) (\(reason))"
        }
    }
}
