import OrientationCore
import SensorProxy
import Testing

/// orientd's orientations in iio-sensor-proxy's words.
@Suite struct ProxyAccelerometerTests {
    @Test(arguments: [
        (Orientation.portrait, "normal"), (.portraitUpsideDown, "bottom-up"),
        (.landscapeLeft, "right-up"), (.landscapeRight, "left-up"),
    ])
    func inPlaneOrientationsHaveIioSensorProxysNames(orientation: Orientation, name: String) {
        var accelerometer = ProxyAccelerometer()
        accelerometer.follow(orientation, tilt: .tiltedUp)
        #expect(accelerometer.orientation == name)
        #expect(accelerometer.tilt == "tilted-up")
        // And back, as a client (monitor-sensor, the benchmarks) reads the name.
        #expect(ProxyAccelerometer.orientation(named: name) == orientation)
    }

    @Test func namesNoInPlaneOrientationHasReadBack() {
        #expect(ProxyAccelerometer.orientation(named: "undefined") == .unknown)
        #expect(ProxyAccelerometer.orientation(named: "face-up") == nil)
        #expect(ProxyAccelerometer.orientation(named: "") == nil)
    }

    /// Lying flat keeps the screen as it was (iio-sensor-proxy does the same); the tilt says
    /// which way up.
    @Test func lyingFlatKeepsTheLastInPlaneOrientation() {
        var accelerometer = ProxyAccelerometer()
        accelerometer.follow(.landscapeLeft, tilt: .vertical)
        accelerometer.follow(.faceUp, tilt: .faceUp)
        #expect(accelerometer.orientation == "right-up")
        #expect(accelerometer.tilt == "face-up")
        accelerometer.follow(.faceDown, tilt: .faceDown)
        #expect(accelerometer.orientation == "right-up")
        #expect(accelerometer.tilt == "face-down")
    }

    @Test func anUnknownOrientationChangesNothing() {
        var accelerometer = ProxyAccelerometer()
        #expect(accelerometer.orientation == "undefined" && accelerometer.tilt == "undefined")
        accelerometer.follow(.portrait, tilt: .vertical)
        accelerometer.follow(.unknown, tilt: .unknown)
        #expect(accelerometer.orientation == "normal" && accelerometer.tilt == "vertical")
    }
}
