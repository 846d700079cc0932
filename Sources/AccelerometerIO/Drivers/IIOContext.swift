import DaemonThreads
import COrientdShim
import Glibc
import OrientationCore

/// An open libiio context ("local:", "ip:host"). Not thread-safe: keep it on the thread that opened it.
public final class IIOContext {
    public let uri: String
    private let handle: OpaquePointer
    /// Set when libiio refused the local context as a whole (one malformed device anywhere is
    /// enough) and the devices are read from sysfs directly instead, polled only: what libiio
    /// said, and the device it choked on where one was found.
    public let libiioRefusal: String?

    public init(uri: String) throws(IIOError) {
        var error: Int32 = 0
        guard let handle = orientd_iio_open(uri, &error) else {
            throw IIOError(code: error, operation: "open IIO context '\(uri)'", hint: Self.hint(uri: uri, error: error))
        }
        self.uri = uri
        self.handle = handle
        libiioRefusal = orientd_iio_refusal(handle).map { printableExcerpt(String(cString: $0), limit: 300) }
    }

    /// The log line for a context libiio refused, nil for one it opened.
    public var refusalWarning: String? {
        libiioRefusal.map { "libiio cannot open the local IIO context (\($0)); reading this machine's IIO devices from sysfs directly, polled (no kernel buffers), so one bad device does not hide the others: fix or unload that device's driver to get buffered capture back" }
    }

    deinit { orientd_iio_close(handle) }

    private static func hint(uri: String, error: Int32) -> String {
        if uri.hasPrefix("local:") {
            return error == ENOENT
                ? "this machine shows no IIO devices (/sys/bus/iio/devices); is the accelerometer's kernel driver loaded?"
                : "check that /sys/bus/iio/devices is readable"
        }
        if uri.hasPrefix("ip:") {
            return "is iiod running on that host and reachable? URIs look like ip:HOST or ip:HOST:PORT (iiod's port is 30431)"
        }
        return "orientd reads 'local:' (this machine) or 'ip:HOST[:PORT]' (a board running iiod)"
    }

    public var isLocal: Bool { uri.hasPrefix("local:") }

    public var devices: [IIODevice] {
        (0..<orientd_iio_device_count(handle)).map { index in
            IIODevice(
                index: index,
                id: string(orientd_iio_device_id(handle, index)) ?? "device\(index)",
                name: string(orientd_iio_device_name(handle, index)),
                label: string(orientd_iio_device_label(handle, index)))
        }
    }

    public func hasInputChannel(_ channel: String, on device: IIODevice) -> Bool {
        orientd_iio_device_has_input_channel(handle, device.index, channel)
    }

    /// A channel attribute by its IIO name ("raw", "scale"), per-axis before shared; nil if absent.
    /// A channel attribute read as a number (`parseDecimal`) without making a String of it, for the
    /// reads of a still device: `.number`, or the text when it is not one; nil if absent.
    func channelNumber(_ attribute: String, of channel: String, on device: IIODevice) throws(IIOError) -> AttributeNumber? {
        try withUnsafeTemporaryAllocation(of: CChar.self, capacity: Self.longestValue + 1) { (buffer) throws(IIOError) -> AttributeNumber? in
            let result = orientd_iio_read_channel_attribute(handle, device.index, channel, attribute, buffer.baseAddress!, buffer.count)
            // The words of an error only for an error: this runs three times a read.
            var length = result
            if result <= 0 || result >= buffer.count {
                guard let checked = try Self.textLength(result, capacity: buffer.count, what: "read \(channel) \(attribute) of \(device.id)") else { return nil }
                length = checked
            }
            let text = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[..<length]).bindMemory(to: UInt8.self)
            let stop = text.firstIndex(of: 0) ?? text.count
            let bytes = UnsafeBufferPointer(rebasing: text[..<stop])
            return parseDecimal(ascii: bytes).map(AttributeNumber.number) ?? .text(String(decoding: bytes, as: UTF8.self))
        }
    }

    public func channelAttribute(_ attribute: String, of channel: String, on device: IIODevice) throws(IIOError) -> String? {
        try Self.readText(what: "read \(channel) \(attribute) of \(device.id)") { buffer, length in
            orientd_iio_read_channel_attribute(handle, device.index, channel, attribute, buffer, length)
        }
    }

    /// An attribute by its sysfs file name ("mount_matrix", "sampling_frequency"); nil if absent.
    public func attributeFile(_ file: String, on device: IIODevice) throws(IIOError) -> String? {
        try Self.readText(what: "read \(file) of \(device.id)") { buffer, length in
            orientd_iio_read_attribute_file(handle, device.index, file, buffer, length)
        }
    }

    /// Whether the device can fill a buffer with accel_x, accel_y and accel_z scans.
    public func isBufferCapable(_ device: IIODevice) -> Bool {
        orientd_iio_device_is_buffer_capable(handle, device.index)
    }

    /// The names of the context's triggers (triggerN's `name`).
    public var triggerNames: [String] {
        devices.filter { orientd_iio_device_is_trigger(handle, $0.index) }.compactMap(\.name)
    }

    /// The device's trigger slot: nil when it takes no trigger (a buffer clocked by the hardware,
    /// or no buffer), "" when it takes one and none is set, else the trigger's name.
    func currentTrigger(of device: IIODevice) -> String? {
        try? Self.readText(what: "read trigger/current_trigger of \(device.id)") { buffer, length in
            let result = orientd_iio_device_current_trigger(handle, device.index, buffer, length)
            return result < 0 ? -Int(ENOENT) : result + 1
        }
    }

    func setTrigger(_ trigger: String, on device: IIODevice) throws(IIOError) {
        let result = orientd_iio_device_set_trigger_named(handle, device.index, trigger)
        if result < 0 { throw refusal(-result, "set the trigger of \(device.id) to \(trigger)", on: device) }
    }

    /// Starts buffered capture on the device; the kernel keeps up to `kernelSamples` scans.
    func openBuffer(on device: IIODevice, kernelSamples: UInt32 = 64) throws(IIOError) -> IIOBuffer {
        var error: Int32 = 0
        guard let buffer = orientd_iio_buffer_open(handle, device.index, kernelSamples, &error) else {
            throw refusal(error, "start buffered capture on \(device.id)", on: device)
        }
        return IIOBuffer(handle: buffer, context: self, device: device)
    }

    /// Whether the device has an attribute in sysfs file `file`, without reading it.
    func hasAttributeFile(_ file: String, on device: IIODevice) -> Bool {
        orientd_iio_has_attribute_file(handle, device.index, file)
    }

    /// Writes an attribute by its sysfs file name ("sampling_frequency", "in_accel_hysteresis").
    public func writeAttributeFile(_ file: String, value: String, on device: IIODevice) throws(IIOError) {
        let result = orientd_iio_write_attribute_file(handle, device.index, file, value)
        if result < 0 { throw refusal(-result, "write '\(value)' to \(file) of \(device.id)", on: device) }
    }

    /// The error of a failed change to the device; a refusal of a device udev is still setting up
    /// says so, as its files become orientd's user's only once udev's rule has run.
    private func refusal(_ code: Int32, _ operation: String, on device: IIODevice) -> IIOError {
        var error = IIOError(code: code, operation: operation)
        guard isLocal, code == EACCES || code == EPERM else { return error }
        error.hint = IIOError.accessHint
        error.awaitsUdev = UdevProperties.isBeingSetUp(subsystem: "iio", sysname: device.id)
        return error
    }

    /// The longest attribute value read; a longer one is an error (EFBIG), never read in part
    /// (5000 digits cut to their first 511 would be another number). No IIO attribute orientd
    /// reads needs a tenth of this.
    public static let longestValue = 511

    /// Reads an attribute's text with `read` (a shim call filling a buffer of `longestValue` + 1
    /// bytes, libiio's length convention): nil when there is no such file.
    static func readText(what: @autoclosure () -> String, _ read: (UnsafeMutablePointer<CChar>, Int) -> Int) throws(IIOError) -> String? {
        var buffer = [CChar](repeating: 0, count: Self.longestValue + 1)
        let result = buffer.withUnsafeMutableBufferPointer { read($0.baseAddress!, $0.count) }
        guard let length = try textLength(result, capacity: buffer.count, what: what()) else { return nil }
        // libiio counts the terminating NUL in the length it returns: stop at the first NUL.
        return String(cText: buffer.prefix(length))
    }

    /// How much of a buffer of `capacity` libiio's `result` filled; nil when there is no such
    /// attribute (ENOENT).
    private static func textLength(_ result: Int, capacity: Int, what: @autoclosure () -> String) throws(IIOError) -> Int? {
        if result == -Int(ENOENT) { return nil }
        let tooLong = "its value is longer than \(Self.longestValue) bytes, which no IIO attribute needs"
        // libiio refuses a value that does not fit with EFBIG, or (over some backends) fills the
        // whole buffer with its start: either way it is not read in part.
        if result < 0 { throw IIOError(code: Int32(-result), operation: what(), hint: result == -Int(EFBIG) ? tooLong : nil) }
        if result >= capacity { throw IIOError(code: EFBIG, operation: what(), hint: tooLong) }
        return result
    }

    private func string(_ pointer: UnsafePointer<CChar>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}

/// One device of an IIO context, as libiio lists it.
public struct IIODevice: Sendable, CustomStringConvertible {
    public let index: UInt32
    /// The kernel's id, "iio:device0".
    public let id: String
    /// The driver's name, "accel_3d".
    public let name: String?
    /// The sysfs label, "accel-display".
    public let label: String?

    public var description: String { name.map { "\(id) (\($0))" } ?? id }
}

/// A libiio call that failed, with its errno value.
public struct IIOError: Error, CustomStringConvertible {
    public let code: Int32
    public let operation: String
    /// What the person running orientd might check.
    public var hint: String?
    /// Refused because udev has not run its rules for the device yet, which give its files to
    /// orientd's user: its add event, which reopens the device, is on its way.
    public var awaitsUdev = false

    public var description: String {
        "cannot \(operation): \(IIOError.text(for: code))" + (hint.map { "; \($0)" } ?? "")
    }

    /// Why this machine's kernel may refuse orientd a sensor's file, and the fix.
    static let accessHint = "orientd.service runs orientd as user orientd, whose group udev's 61-orientd.rules gives an "
        + "accelerometer's files as it appears: check that the rule is installed, then run 'udevadm trigger --subsystem-match=iio --action=change' "
        + "(started by hand, run orientd as root or as that user)"

    static func text(for code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        orientd_iio_strerror(code, &buffer, buffer.count)
        return String(cText: buffer)
    }
}

/// An attribute read as a number, or its text when it is not one.
enum AttributeNumber {
    case number(Double)
    case text(String)
}
