/// The hub's side of power-aware sensing: it says who needs readings, the sensor layer decides
/// when to read. orientd connects it to the poller's `ReadingDemand`.
public protocol SensorDemand: AnyObject, Sendable {
    /// A subscription starts needing readings.
    func hold()
    /// A subscription no longer needs readings.
    func release()
    /// A one-off request (a `get`): read for a few seconds from now. `needsFreshReading`: the
    /// hub has no reading recent enough to answer with, so a sensor not read now must be read.
    func request(needsFreshReading: Bool)
    /// Whether the sensor is being read now.
    var isReading: Bool { get }
}
