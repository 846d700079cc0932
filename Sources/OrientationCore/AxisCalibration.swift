/// How one axis turns a raw reading into m/s²: the IIO ABI's (raw + offset) × scale.
public struct AxisCalibration: Equatable, Sendable {
    public var scale: Double
    public var offset: Double

    public init(scale: Double = 1, offset: Double = 0) {
        self.scale = scale
        self.offset = offset
    }

    public func acceleration(fromRaw raw: Double) -> Double { (raw + offset) * scale }
}

/// The calibration of the three axes of one accelerometer.
public struct AccelerometerCalibration: Equatable, Sendable {
    public var x: AxisCalibration
    public var y: AxisCalibration
    public var z: AxisCalibration

    public init(x: AxisCalibration, y: AxisCalibration, z: AxisCalibration) {
        self.x = x
        self.y = y
        self.z = z
    }

    public func acceleration(fromRaw raw: Vector3) -> Vector3 {
        Vector3(x.acceleration(fromRaw: raw.x), y.acceleration(fromRaw: raw.y), z.acceleration(fromRaw: raw.z))
    }
}
