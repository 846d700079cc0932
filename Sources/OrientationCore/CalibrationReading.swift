/// What one step of `orientctl calibrate` measured: the mean of about a second of raw samples
/// (m/s² after scale and offset, in the sensor's own axes: before any mount matrix), and how far
/// the samples strayed from it.
public struct CalibrationReading: Equatable, Sendable {
    public var mean: Vector3
    /// The largest distance of a sample from the mean, in m/s²: a device held still strays by a
    /// few tenths at most; one that moved during the step by far more.
    public var spread: Double
    public var sampleCount: Int

    public init(mean: Vector3, spread: Double, sampleCount: Int = 1) {
        self.mean = mean
        self.spread = spread
        self.sampleCount = sampleCount
    }

    /// The mean and spread of `samples`; nil when there are none.
    public init?(samples: [Vector3]) {
        guard !samples.isEmpty else { return nil }
        let sum = samples.reduce(Vector3.zero, +)
        mean = sum * (1 / Double(samples.count))
        let mean = mean
        spread = samples.map { ($0 - mean).magnitude }.max() ?? 0
        sampleCount = samples.count
    }
}
