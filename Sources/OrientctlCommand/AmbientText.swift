import RotateRuntime
import OrientdProtocol

/// How orientctl writes the ambient sensors' values and sensors coming and going, for people.
enum AmbientText {
    static func light(_ light: AmbientLight) -> String {
        "light \(number(light.level))" + (light.unit == .lux ? " lux" : " (the sensor's own unit)")
    }

    static func proximity(near: Bool) -> String { near ? "proximity near" : "proximity far" }

    /// "sensor available: DEVICE", "light sensor unavailable: REASON", ...
    static func availability(_ availability: SensorAvailabilityEvent) -> String {
        let sensor = availability.sensor.map { "\($0.rawValue) sensor" } ?? "sensor"
        return availability.available
            ? "\(sensor) available: \(availability.device ?? "?")"
            : "\(sensor) unavailable: \(availability.reason ?? "no reason given")"
    }

    /// A number as JSON would write it: whole numbers without a fraction.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
