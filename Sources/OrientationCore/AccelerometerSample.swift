/// One reading of the accelerometer in orientd's frame (after calibration and mount matrix), in
/// m/s², at a monotonic time in seconds. Time is always passed in: the core has no clock.
public struct AccelerometerSample: Equatable, Sendable {
    public var time: Double
    public var acceleration: Vector3
    /// The same reading in the sensor's own axes: scale and offset applied, not the mount matrix
    /// (what `orientctl calibrate` measures the matrix from). Nil where it is not known: a
    /// replayed trace holds the device-frame vector only.
    public var raw: Vector3?

    public init(time: Double, acceleration: Vector3, raw: Vector3? = nil) {
        self.time = time
        self.acceleration = acceleration
        self.raw = raw
    }

    /// A reading in the sensor's axes turned into the device frame by `mountMatrix`.
    public init(time: Double, raw: Vector3, mountMatrix: MountMatrix) {
        self.init(time: time, acceleration: mountMatrix.apply(to: raw), raw: raw)
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
