import AccelerometerIO
import OrientdHub
import OrientdProtocol
import SensorProxy

/// The ambient light and proximity sensors' news, told to the hub (socket subscribers) and to
/// the D-Bus face; the compass's, to the D-Bus face alone (the socket protocol has no compass). Set up before the poller starts; then called on the poller's thread only.
final class AmbientNews: @unchecked Sendable {
    private var hub: OrientationHub?
    private var sensorProxy: SensorProxyBus?
    /// What the D-Bus face was last told.
    private var light = ProxyLight()
    private var proximity = ProxyProximity()
    private var compass = ProxyCompass()

    func deliver(to hub: OrientationHub, sensorProxy: SensorProxyBus?) {
        self.hub = hub
        self.sensorProxy = sensorProxy
    }

    @Sendable func handle(_ event: AmbientEvent) {
        switch event {
        case .lightAppeared(let device):
            hub?.lightSensorChanged(device: device)
            light.present = true
            sensorProxy?.lightChanged(light, read: false)
        case .lightLevel(let level):
            hub?.publishLight(level: level, unit: .lux)
            (light.level, light.unit) = (level, LightUnit.lux.rawValue)
            sensorProxy?.lightChanged(light, read: true)
        case .lightGone:
            hub?.lightSensorChanged(device: nil)
            light = ProxyLight()
            sensorProxy?.lightChanged(light, read: false)
        case .proximityAppeared(let device):
            hub?.proximitySensorChanged(device: device)
            proximity.present = true
            sensorProxy?.proximityChanged(proximity, read: false)
        case .proximity(let near):
            hub?.publishProximity(near: near)
            proximity.near = near
            sensorProxy?.proximityChanged(proximity, read: true)
        case .proximityGone:
            hub?.proximitySensorChanged(device: nil)
            proximity = ProxyProximity()
            sensorProxy?.proximityChanged(proximity, read: false)
        case .compassAppeared:
            compass.present = true
            sensorProxy?.compassChanged(compass, read: false)
        case .compassHeading(let heading):
            compass.heading = heading
            sensorProxy?.compassChanged(compass, read: true)
        case .compassGone:
            compass = ProxyCompass()
            sensorProxy?.compassChanged(compass, read: false)
        }
    }
}
