import OrientationCore

/// Something that delivers readings to the daemon on a thread of its own: the libiio poller, or a
/// trace being replayed.
public protocol SampleFeed: AnyObject, Sendable {
    /// Starts delivering; returns once the first reading has been delivered, with the sensor it
    /// reads, or nil when there is none yet (the feed then waits for one to appear).
    func start() async throws -> SensorInfo?
    /// Stops delivering and waits until the feed's thread has ended.
    func stop()
}

/// One delivery: a sample, or the reason none could be taken, with its time in seconds; the news
/// that reading stopped for want of demand (the next sample comes after a gap of unknown motion);
/// or that a sensor was opened, or lost (removed, or failing until it was closed).
public enum Reading: Sendable {
    case sample(AccelerometerSample)
    case failure(SensorReadError, time: Double)
    case paused(time: Double)
    case opened(SensorInfo)
    case lost(reason: String)
}
