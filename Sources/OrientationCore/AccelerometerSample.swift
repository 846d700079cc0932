/// One reading of the accelerometer in orientd's frame (after calibration and mount matrix), in
/// m/s², at a monotonic time in seconds. Time is always passed in: the core has no clock.
public struct AccelerometerSample: Equatable, Sendable {
    public var time: Double
    public var acceleration: Vector3

    public init(time: Double, acceleration: Vector3) {
        self.time = time
        self.acceleration = acceleration
    }
}

/// A published change of the device orientation.
public struct OrientationChange: Equatable, Sendable {
    public var orientation: Orientation
    public var previous: Orientation
    /// The monotonic time of the sample (or missed sample) that decided it, in seconds.
    public var time: Double

    public init(orientation: Orientation, previous: Orientation, time: Double) {
        self.orientation = orientation
        self.previous = previous
        self.time = time
    }
}
