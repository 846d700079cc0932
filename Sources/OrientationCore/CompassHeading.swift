/// Where an IIO magnetometer keeps its tilt-compensated heading (HID sensor hubs' magn_3d has it):
/// the channel iio-sensor-proxy's compass driver reads, in degrees clockwise from magnetic north.
public enum CompassChannel {
    /// The file read on every poll; a device that has it is a compass.
    public static let file = "in_rot_from_north_magnetic_tilt_comp_raw"
    /// The channel's own scale first, else the one its driver shares among its rotation channels.
    public static let scaleFiles = ["in_rot_from_north_magnetic_tilt_comp_scale", "in_rot_scale"]
    /// Likewise for the offset.
    public static let offsetFiles = ["in_rot_from_north_magnetic_tilt_comp_offset", "in_rot_offset"]
    /// Polled this often while claimed, as iio-sensor-proxy does.
    public static let interval = 0.7
}

/// How a compass's raw value becomes a heading: (raw + offset) × scale, the IIO ABI's formula.
/// iio-sensor-proxy multiplies by the scale alone; the drivers that have the channel give an
/// offset of 0 when they give one, so both read the same headings. A missing or zero scale
/// counts as 1, as in iio-sensor-proxy; the scale and offset follow a light sensor's rules.
public struct CompassCalibration: Equatable, Sendable {
    public var scale: Double
    public var offset: Double

    public init(scale: Double = 1, offset: Double = 0) {
        self.scale = scale
        self.offset = offset
    }

    /// The scale from the text of the scale file (nil: none), refused when unusable.
    public static func scale(fromText text: String?) throws(CalibrationValueError) -> Double {
        try LightCalibration.scale(fromText: text)
    }

    /// The offset from the text of the offset file (nil: none, 0), refused when unusable.
    public static func offset(fromText text: String?) throws(CalibrationValueError) -> Double {
        try LightCalibration.offset(fromText: text)
    }

    /// The heading in degrees of a raw value.
    public func heading(fromRaw raw: Double) -> Double { (raw + offset) * scale }

    /// Why `heading` cannot be a compass heading (at least 0, below 360 degrees); nil when it can.
    public static func problem(withHeading heading: Double) -> String? {
        guard heading.isFinite else { return "a heading of \(heading) degrees is not a finite angle" }
        guard heading >= 0, heading < 360 else { return "a heading of \(formatDecimal(heading)) degrees is not between 0 and 360" }
        return nil
    }
}
