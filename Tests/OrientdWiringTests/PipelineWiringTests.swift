@testable import AccelerometerIO
import Logging
import NIOConcurrencyHelpers
import OrientationCore
import OrientdHub
import OrientdProtocol
import SensorProxy
import Testing
@testable import orientd

/// The daemon's wiring in process, with no thread, socket or bus: readings go through the real
/// pipeline into the real hub, ambient reports through `AmbientReports`, and a D-Bus face's
/// machine follows the hub as `SensorProxyBus` makes it (observing its facts).
@Suite struct PipelineWiringTests {
    static let g = 9.80665
    static let display = SensorInfo(id: "local:/accel_3d", uri: "local:", device: "accel_3d", location: .display,
                                    mountMatrix: .identity, mountMatrixSource: "test",
                                    calibration: AccelerometerCalibration(x: AxisCalibration(), y: AxisCalibration(), z: AxisCalibration()),
                                    sysname: "iio:device0")
    static let quiet = Logger(label: "orientd-test") { _ in SwiftLogNoOpLogHandler() }

    /// Who holds the sensor, as the poller's demand would count.
    final class Demand: SensorDemand, Sendable {
        private let count = NIOLockedValueBox(0)
        var held: Int { count.withLockedValue { $0 } }
        func hold() { count.withLockedValue { $0 += 1 } }
        func release() { count.withLockedValue { $0 -= 1 } }
        func request(needsFreshReading: Bool) {}
        var isReading: Bool { true }
    }

    /// The D-Bus face's machine, fed what the hub tells its observers, with a client that has
    /// claimed every sensor (before any claim, its values read as iio-sensor-proxy's defaults).
    final class ProxyView: Sendable {
        private let state: NIOLockedValueBox<SensorProxyState> = {
            var state = SensorProxyState()
            for (call, sensor) in HubSensor.allCases.enumerated() {
                _ = state.handle(.called(ProxyRequest(ProxyCall(call + 1), from: ":1.1", claiming: true, sensor), at: 0))
            }
            return NIOLockedValueBox(state)
        }()
        func show(_ facts: HubFacts) { state.withLockedValue { _ = $0.handle(.facts(facts)) } }
        func value(of property: ProxyProperty) -> ProxyValue { state.withLockedValue { $0.value(of: property) } }
    }

    struct Daemon {
        let hub: OrientationHub
        let pipeline: OrientationPipeline
        let view = ProxyView()
        let demand = Demand()

        init() {
            hub = OrientationHub(serverName: "orientd test", lockPolicy: LockPolicy(groupName: nil, logger: PipelineWiringTests.quiet),
                                 lockStore: nil, demand: demand, logger: PipelineWiringTests.quiet)
            pipeline = OrientationPipeline(hub: hub, rate: 25, staleAfter: { _ in 0.5 }, logger: PipelineWiringTests.quiet)
            hub.observe { [view] in view.show($0) }
        }

        /// The device held still at `gravity` (m/s², the sensor's axes) for `seconds` at 25 Hz, from `start`.
        func hold(_ gravity: Vector3, from start: Double, for seconds: Double = 2) {
            for step in 0..<Int(seconds * 25) {
                let time = start + Double(step) / 25
                pipeline.handle(.sample(AccelerometerSample(time: time, acceleration: gravity), device: PipelineWiringTests.display.id))
            }
        }
    }

    @Test func readingsReachTheHubAndItsViewsInTheirWords() {
        let daemon = Daemon()
        #expect(daemon.view.value(of: .hasAccelerometer) == .boolean(false))
        daemon.pipeline.handle(.opened([Self.display]))
        #expect(daemon.view.value(of: .hasAccelerometer) == .boolean(true))
        daemon.hold(Vector3(0, -Self.g, 0), from: 0)
        #expect(daemon.hub.orientation == .portrait)
        #expect(daemon.view.value(of: .accelerometerOrientation) == .text("normal"))
        daemon.hold(Vector3(-Self.g, 0, 0), from: 2)
        #expect(daemon.hub.orientation == .landscapeLeft)
        #expect(daemon.view.value(of: .accelerometerOrientation) == .text("right-up"))
        daemon.hold(Vector3(0, 0, Self.g), from: 4)
        #expect(daemon.hub.orientation == .faceUp)
        #expect(daemon.view.value(of: .accelerometerOrientation) == .text("right-up"), "lying flat keeps the last in-plane one")
        #expect(daemon.view.value(of: .accelerometerTilt) == .text("face-up"))

        daemon.pipeline.handle(.lost(reason: "iio:device0 was removed"))
        #expect(daemon.hub.orientation == .unknown)
        #expect(daemon.view.value(of: .hasAccelerometer) == .boolean(false))
        #expect(daemon.view.value(of: .accelerometerOrientation) == .text("undefined"))
    }

    /// A reading answers whoever waits for a fresh one: the wait a D-Bus claim and a socket `get` share.
    @Test func aReadingAnswersTheWaitForAFreshOne() {
        let daemon = Daemon()
        daemon.pipeline.handle(.opened([Self.display]))
        daemon.pipeline.handle(.paused(time: 0))
        let answered = NIOLockedValueBox(false)
        daemon.hub.hold(.accelerometer)
        daemon.hub.whenFresh(.accelerometer) { answered.withLockedValue { $0 = true } }
        #expect(!answered.withLockedValue { $0 }, "asleep: the value may be stale")
        #expect(daemon.demand.held == 1)
        daemon.hold(Vector3(0, -Self.g, 0), from: 10, for: 0.04)
        #expect(answered.withLockedValue { $0 })
        daemon.hub.release(.accelerometer)
        #expect(daemon.demand.held == 0)
    }

    /// The ambient thread's reports reach the hub and, through it, both views.
    @Test func ambientReportsReachBothViews() {
        let daemon = Daemon()
        daemon.hub.report(.lightAppeared(device: "iio:device1 (als)"))
        daemon.hub.report(.lightLevel(120.5, unit: .lux))
        daemon.hub.report(.proximityAppeared(device: "iio:device2 (prox)"))
        daemon.hub.report(.proximity(near: true))
        daemon.hub.report(.compassAppeared(device: "iio:device3 (magn_3d)"))
        daemon.hub.report(.compassHeading(271.25))
        #expect(daemon.view.value(of: .lightLevel) == .number(120.5))
        #expect(daemon.view.value(of: .proximityNear) == .boolean(true))
        #expect(daemon.view.value(of: .compassHeading) == .number(271.25))
        let status = daemon.hub.status(clients: 0)
        #expect(status.light?.device == "iio:device1 (als)" && status.proximity?.device == "iio:device2 (prox)")
        daemon.hub.report(.lightGone(reason: "removed"))
        #expect(daemon.view.value(of: .hasAmbientLight) == .boolean(false))
    }
}
