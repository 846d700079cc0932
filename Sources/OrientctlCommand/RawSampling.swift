import DaemonThreads
import RotateRuntime
import OrientationCore
import OrientdClient
import OrientdProtocol

/// One calibration step's samples: the `raw` member (sensor axes, before the mount matrix) of
/// about a second of `angles` events from one accelerometer.
enum RawSampling {
    /// The fewest samples a step needs, however slow the sensor.
    static let fewestSamples = 5
    /// How long to wait for a sample before saying the sensor gives none.
    static let silence = 5.0
    /// Samples of the first moments are left out: pressing Enter on the device's own keyboard,
    /// or tapping its screen, shakes it.
    static let settle = 0.3

    static func measure(device: String?, seconds: Double, options: ConnectionOptions) throws -> [Vector3] {
        let client = try options.connect()
        var samples: [Vector3] = []
        do {
            _ = try client.subscribe(SubscribeParameters(events: [.angles]), device: device)
            client.setReadTimeout(silence)
            var start: Double?
            while let event = try client.nextServerEvent() {
                guard case .angles(let sample) = event else { continue }
                guard let raw = sample.raw, raw.count == 3 else {
                    throw ClientFailure(message: "orientd sends no raw readings (it is older than this orientctl, or replays a trace): "
                        + "update orientd and calibrate with the real sensor")
                }
                let now = MonotonicClock.now()
                if start == nil { start = now + settle }
                guard let start, now >= start else { continue }
                samples.append(Vector3(raw[0], raw[1], raw[2]))
                if now - start >= seconds, samples.count >= fewestSamples { return samples }
            }
        } catch let error as OrientdClientError {
            // A read that timed out surfaces as a lost connection.
            if samples.isEmpty, case .connectionLost = error {
                throw ClientFailure(message: "no reading from the accelerometer within \(Int(silence)) s (\(error)); check `orientctl status`")
            }
            throw ClientFailure(error)
        }
        throw ClientFailure(message: "orientd at \(client.socketPath) closed the connection while measuring")
    }
}
