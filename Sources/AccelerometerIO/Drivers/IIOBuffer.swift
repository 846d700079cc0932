import COrientdShim
import OrientationCore

/// Buffered capture on one device: the scans the kernel has filled in, taken without waiting.
/// Capture stops when the buffer is released. Used only on the thread of its context.
final class IIOBuffer {
    /// One scan: the raw values of x, y and z, and the kernel's timestamp in nanoseconds where
    /// the device stamps its scans.
    struct Scan {
        let raw: Vector3
        let timestamp: Int64?
    }

    static let mostScansPerTake = 256
    private let handle: OpaquePointer
    /// Kept alive as long as the buffer: destroying it needs the context's device.
    private let context: IIOContext
    private let device: IIODevice
    let hasTimestamps: Bool
    private var values = [Double](repeating: 0, count: 3 * mostScansPerTake)
    private var stamps = [Int64](repeating: 0, count: mostScansPerTake)

    init(handle: OpaquePointer, context: IIOContext, device: IIODevice) {
        self.handle = handle
        self.context = context
        self.device = device
        hasTimestamps = orientd_iio_buffer_has_timestamps(handle)
    }

    deinit { orientd_iio_buffer_close(handle) }

    /// Polls readable when a scan waits; nil over iiod.
    var descriptor: Int32? {
        let descriptor = orientd_iio_buffer_descriptor(handle)
        return descriptor >= 0 ? descriptor : nil
    }

    /// The scans waiting now, oldest first; none when the kernel has none. Over iiod, refills go
    /// on for `budget` seconds.
    func take(budget: Double) throws(IIOError) -> [Scan] {
        let count = values.withUnsafeMutableBufferPointer { values in
            stamps.withUnsafeMutableBufferPointer { stamps in
                orientd_iio_buffer_take(handle, values.baseAddress, stamps.baseAddress, Self.mostScansPerTake, budget)
            }
        }
        if count < 0 { throw IIOError(code: Int32(-count), operation: "take scans from the buffer of \(device.id)") }
        return (0..<count).map { index in
            Scan(raw: Vector3(values[3 * index], values[3 * index + 1], values[3 * index + 2]),
                 timestamp: hasTimestamps ? stamps[index] : nil)
        }
    }
}
