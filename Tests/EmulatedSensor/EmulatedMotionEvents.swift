import CUmockdevShim
import Glibc

/// The event descriptor of an emulated IIO device, where the accelerometer's motion interrupt
/// arrives: `IIO_GET_EVENT_FD_IOCTL` on its device node answers `descriptor`, a number the daemon
/// is started with open on a FIFO (through `wrapper`), and `fire` writes `struct iio_event_data`
/// records into that FIFO, as the kernel's IIO core writes them into the event descriptor.
/// (umockdev's ioctl handler cannot hand a new descriptor to the emulated process.)
public final class EmulatedMotionEvents: @unchecked Sendable {
    /// The descriptor number the daemon has the FIFO open at.
    public static let descriptor: Int32 = 50
    public let fifo: String
    private let writer: Int32
    private let handle: OpaquePointer

    init(testbed: OpaquePointer, root: String, sysname: String) throws {
        fifo = root + "/\(sysname.replacingColons)-events"
        unlink(fifo)
        guard mkfifo(fifo, 0o600) == 0 else { throw EmulationError("cannot make the FIFO \(fifo): \(String(cString: strerror(errno)))") }
        // Read and write: opening waits for no reader, and the reader never sees the end.
        writer = open(fifo, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard writer >= 0 else { throw EmulationError("cannot open \(fifo): \(String(cString: strerror(errno)))") }
        var error = [CChar](repeating: 0, count: 512)
        guard let handle = umockdev_shim_iio_events_attach(testbed, "/dev/\(sysname)", Self.descriptor, &error, UInt(error.count)) else {
            close(writer)
            throw EmulationError("cannot emulate /dev/\(sysname): \(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        }
        self.handle = handle
    }

    deinit {
        umockdev_shim_iio_events_free(handle)
        close(writer)
        unlink(fifo)
    }

    /// The command that starts a daemon (its command line follows) with the FIFO open at `descriptor`.
    public var wrapper: [String] { ["/bin/bash", "-c", "exec \(Self.descriptor)<>\"$0\" && exec \"$@\"", fifo] }

    /// The accelerometer's motion interrupt: `count` records of an accel rate-of-change event.
    public func fire(count: Int = 1) {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        // IIO_EVENT_CODE(IIO_ACCEL, 0, IIO_MOD_X, IIO_EV_TYPE_ROC, IIO_EV_DIR_EITHER, 0, 0, 0)
        let id = UInt64(2) << 56 | UInt64(0) << 48 | UInt64(1) << 40 | UInt64(3) << 32
        let timestamp = Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        var records: [UInt64] = []
        for _ in 0..<count { records += [id.littleEndian, UInt64(bitPattern: timestamp).littleEndian] }
        _ = records.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
    }

    /// What `IIO_GET_EVENT_FD_IOCTL` answers from now on (a negative errno: the ioctl fails).
    public func answer(_ descriptor: Int32) { umockdev_shim_iio_events_answer(handle, descriptor) }

    /// How many times the daemon asked for the event descriptor.
    public var asked: Int { Int(umockdev_shim_iio_events_asked(handle)) }
}

extension EmulatedAccelerometer {
    /// Gives the device `sysname` an event descriptor (`EmulatedMotionEvents`).
    public func emulateMotionEvents(sysname: String = "iio:device0") throws -> EmulatedMotionEvents {
        try EmulatedMotionEvents(testbed: testbed, root: root, sysname: sysname)
    }
}

private extension String {
    var replacingColons: String { String(map { $0 == ":" ? "-" : $0 }) }
}
