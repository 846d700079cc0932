import AccelerometerIO
import OrientdHub

extension OrientationHub {
    /// What the ambient sensor thread found and read, told to the hub: the one owner of what
    /// every view (the socket, the D-Bus face) shows. Called on the poller's thread.
    func report(_ event: AmbientEvent) {
        switch event {
        case .lightAppeared(let device): lightSensorChanged(device: device)
        case .lightLevel(let level, let unit): publishLight(level: level, unit: unit)
        case .lightGone: lightSensorChanged(device: nil)
        case .proximityAppeared(let device): proximitySensorChanged(device: device)
        case .proximity(let near): publishProximity(near: near)
        case .proximityGone: proximitySensorChanged(device: nil)
        case .compassAppeared(let device): compassSensorChanged(device: device)
        case .compassHeading(let heading): publishCompass(heading: heading)
        case .compassGone: compassSensorChanged(device: nil)
        }
    }
}
