/// The hub's side of power-aware sensing: it says who needs readings, the sensor layer decides
/// when to read. orientd connects it to the poller's `ReadingDemand`.
public protocol SensorDemand: AnyObject, Sendable {
    /// A subscription starts needing readings.
    func hold()
    /// A subscription no longer needs readings.
    func release()
    /// A one-off request (a `get`): read for a few seconds from now.
    func request()
    /// Whether the sensor is being read now.
    var isReading: Bool { get }
}
