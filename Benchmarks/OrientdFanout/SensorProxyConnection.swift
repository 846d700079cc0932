import CSdBus
import Glibc
import OrientationCore
import SensorProxy

/// One D-Bus connection to iio-sensor-proxy (net.hadess.SensorProxy), as a desktop client has:
/// it claims the accelerometer, hears PropertiesChanged, or reads the orientation property.
/// Used from one thread at a time.
final class SensorProxyConnection {
    private static let service = "net.hadess.SensorProxy"
    private static let path = "/net/hadess/SensorProxy"
    private let bus: OpaquePointer

    /// Connects to the bus at `address` (a D-Bus address, `unix:path=...`).
    init(address: String) throws {
        var bus: OpaquePointer?
        guard sd_bus_new(&bus) >= 0, let bus else { throw FanoutFailure("sd_bus_new failed") }
        self.bus = bus
        sd_bus_set_address(bus, address)
        sd_bus_set_bus_client(bus, 1)
        let started = sd_bus_start(bus)
        guard started >= 0 else { throw FanoutFailure("cannot connect to \(address): \(String(cString: strerror(-started)))") }
    }

    deinit {
        sd_bus_flush_close_unref(bus)
    }

    /// ClaimAccelerometer, and a match for the proxy's PropertiesChanged signals (read by `process`).
    func claimAndListen() throws {
        var call: OpaquePointer?
        var reply: OpaquePointer?
        var error = sd_bus_error(name: nil, message: nil, _need_free: 0)
        defer {
            sd_bus_message_unref(call)
            sd_bus_message_unref(reply)
            sd_bus_error_free(&error)
        }
        guard sd_bus_message_new_method_call(bus, &call, Self.service, Self.path, Self.service, "ClaimAccelerometer") >= 0,
              sd_bus_call(bus, call, 10_000_000, &error, &reply) >= 0 else {
            throw FanoutFailure("ClaimAccelerometer failed: \(error.message.map { String(cString: $0) } ?? "no reply")")
        }
        let rule = "type='signal',sender='\(Self.service)',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'"
        guard sd_bus_add_match(bus, nil, rule, { _, _, _ in 0 }, nil) >= 0 else { throw FanoutFailure("AddMatch failed") }
    }

    /// The AccelerometerOrientation property, read now (nil when the call fails).
    func orientation() -> Orientation? {
        var error = sd_bus_error(name: nil, message: nil, _need_free: 0)
        var value: UnsafeMutablePointer<CChar>?
        defer {
            free(value)
            sd_bus_error_free(&error)
        }
        guard sd_bus_get_property_string(bus, Self.service, Self.path, Self.service, "AccelerometerOrientation", &error, &value) >= 0,
              let value else { return nil }
        return ProxyAccelerometer.orientation(named: String(cString: value))
    }

    /// Handles what has arrived without waiting; false once the connection is gone.
    func process() -> Bool {
        while true {
            let handled = sd_bus_process(bus, nil)
            if handled < 0 { return false }
            if handled == 0 { return true }
        }
    }

    /// What to poll: the descriptor and the events sd-bus waits for.
    var pollDescriptor: pollfd {
        pollfd(fd: sd_bus_get_fd(bus), events: Int16(truncatingIfNeeded: sd_bus_get_events(bus)), revents: 0)
    }
}
