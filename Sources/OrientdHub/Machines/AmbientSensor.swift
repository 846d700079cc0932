import NIOCore
import OrientdProtocol

/// What an ambient sensor reads: a proximity state or a light level. Each knows its sensor and
/// the event that tells subscribers of a new value.
protocol AmbientValue: Equatable, Sendable {
    static var sensor: SensorKind { get }
    /// Why `sensorAvailability` says false: the words for "there is no such sensor".
    static var absence: String { get }
    func line(timestamp: Double) -> ByteBuffer
}

/// Whether something is near the proximity sensor.
struct Proximity: AmbientValue {
    static let sensor = SensorKind.proximity
    static let absence = "no proximity sensor (none was found, or it went away)"
    let near: Bool

    func line(timestamp: Double) -> ByteBuffer {
        ByteBuffer(bytes: Wire.line(ProximityStateDidChangeEvent(proximityState: near, timestamp: timestamp)))
    }
}

extension AmbientLight: AmbientValue {
    static let sensor = SensorKind.light
    static let absence = "no ambient light sensor (none was found, or it went away)"

    func line(timestamp: Double) -> ByteBuffer {
        ByteBuffer(bytes: Wire.line(AmbientLightDidChangeEvent(self, timestamp: timestamp)))
    }
}

/// An ambient sensor as the hub holds it: the device (nil while there is none), its last value
/// (nil while unknown), and the lines that tell subscribers of both, encoded once when they
/// change and shared by every subscription.
struct AmbientSensor<Value: AmbientValue>: Sendable {
    private(set) var device: String?
    private(set) var value: Value?
    private(set) var availabilityLine: ByteBuffer
    private(set) var valueLine: ByteBuffer?

    var available: Bool { device != nil }

    init(timestamp: Double) {
        availabilityLine = Self.availabilityLine(device: nil, timestamp: timestamp)
    }

    /// A sensor came, another replaced it, or it went (nil); its value is unknown until read.
    /// Returns whether that is news.
    mutating func deviceChanged(to device: String?, at timestamp: Double) -> Bool {
        guard device != self.device else { return false }
        self.device = device
        availabilityLine = Self.availabilityLine(device: device, timestamp: timestamp)
        forget()
        return true
    }

    /// The sensor read `value`. Returns whether that is news; a value read while no sensor is
    /// known is none.
    mutating func read(_ value: Value, at timestamp: Double) -> Bool {
        guard device != nil, value != self.value else { return false }
        self.value = value
        valueLine = value.line(timestamp: timestamp)
        return true
    }

    /// The same sensor with its value unknown.
    var withoutValue: AmbientSensor {
        var copy = self
        copy.forget()
        return copy
    }

    /// The value held may be stale (the sensor slept): it is unknown until the next reading,
    /// which is then news whatever it reads.
    mutating func forget() {
        value = nil
        valueLine = nil
    }

    private static func availabilityLine(device: String?, timestamp: Double) -> ByteBuffer {
        ByteBuffer(bytes: Wire.line(SensorAvailabilityEvent(
            available: device != nil, device: device, reason: device == nil ? Value.absence : nil,
            sensor: Value.sensor, timestamp: timestamp)))
    }
}

/// What one subscriber was last told of an ambient sensor.
struct AmbientTold<Value: AmbientValue> {
    private(set) var device: String?
    private(set) var value: Value?

    /// Told what the subscribe result said.
    init(_ start: AmbientSensor<Value>) {
        device = start.device
        value = start.value
    }

    /// The lines that bring this subscriber up to `latest`, counted as told: the sensor's
    /// coming or going first, then its value if it is a new one.
    mutating func catchUp(with latest: AmbientSensor<Value>) -> [ByteBuffer] {
        var lines: [ByteBuffer] = []
        if latest.device != device {
            lines.append(latest.availabilityLine)
            device = latest.device
            value = nil
        }
        if let newValue = latest.value, newValue != value, let line = latest.valueLine {
            lines.append(line)
            value = newValue
        }
        return lines
    }
}
