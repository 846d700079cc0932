/// First-order low-pass filter on the acceleration vector, with a time constant in seconds.
/// It restarts from the raw sample after a gap, when time goes backwards, or on a zero vector.
public struct LowPassFilter: Sendable {
    public let timeConstant: Double
    public let resetGap: Double
    public private(set) var value: Vector3?
    private var lastTime: Double?

    public init(timeConstant: Double, resetGap: Double) {
        self.timeConstant = timeConstant
        self.resetGap = resetGap
    }

    /// Filters one sample; returns the filtered vector and whether the filter restarted.
    public mutating func filter(_ sample: Vector3, at time: Double) -> (value: Vector3, restarted: Bool) {
        defer { lastTime = time }
        guard let previous = value, let lastTime, time >= lastTime, time - lastTime <= resetGap,
              sample != .zero, previous != .zero
        else {
            value = sample
            return (sample, true)
        }
        let dt = time - lastTime
        // A time constant of 0 turns the filter off, even for two samples with one timestamp.
        let alpha = timeConstant + dt > 0 ? dt / (timeConstant + dt) : 1
        let filtered = Vector3(
            previous.x + alpha * (sample.x - previous.x),
            previous.y + alpha * (sample.y - previous.y),
            previous.z + alpha * (sample.z - previous.z))
        value = filtered
        return (filtered, false)
    }

    /// The input held still at the last sample until `time`: the filtered vector is that sample's
    /// by then, and the next sample continues from it instead of restarting the filter.
    public mutating func hold(until time: Double) {
        guard value != nil, let lastTime, time > lastTime else { return }
        self.lastTime = time
    }

    /// Forgets everything: the next sample starts the filter afresh.
    public mutating func reset() {
        value = nil
        lastTime = nil
    }
}
