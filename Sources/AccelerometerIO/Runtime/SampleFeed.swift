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

/// One delivery: a sample of one accelerometer (by its id), or the reason none could be taken,
/// with its time in seconds; the news that reading stopped for want of demand (the next sample
/// comes after a gap of unknown motion); or that the feed's accelerometers were opened (the
/// display one first), or lost (removed, or failing until they were closed); or how a still display
/// accelerometer is watched (by its motion event or its hub's change reports, or read at the still rate, and why).
public enum Reading: Sendable {
    case sample(AccelerometerSample, device: String)
    case failure(SensorReadError, time: Double, device: String)
    case paused(time: Double)
    case opened([SensorInfo])
    case lost(reason: String)
    case stillWatch(StillDeviceWatch)
    /// The display accelerometer was watched still by its motion interrupt until then; `byMotion`:
    /// the interrupt fired then (else a client asked for a reading, or a safety read was due).
    case watchEnded(time: Double, byMotion: Bool)
}
