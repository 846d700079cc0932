import AccelerometerIO
import OrientdHub

/// Connects the hub's demand for readings to the poller's.
final class PollerDemand: SensorDemand {
    private let demand: ReadingDemand

    init(_ demand: ReadingDemand) { self.demand = demand }

    func hold() { demand.hold() }
    func release() { demand.release() }
    func request(needsFreshReading: Bool) { demand.request(needsFreshReading: needsFreshReading) }
    var isReading: Bool { demand.isReading }
}
