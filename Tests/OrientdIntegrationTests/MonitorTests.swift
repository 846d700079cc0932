import EmulatedSensor
import Foundation
import OrientationCore
import ProcessHarness
import Testing

extension IntegrationTests {
    @Suite struct MonitorTests {
        /// The acceptance run: turning the emulated device through all six orientations, the real
        /// `orientctl monitor --json` reports each, in order, with no extra events. How fast is the
        /// benchmark's business (scripts/bench's step latency, well under a second): the waits
        /// here are generous, so that a loaded machine cannot fail it.
        @Test func monitorReportsEveryTurnInOrder() throws {
            let sensor = try EmulatedAccelerometer.standard(.portrait)
            let daemon = try Daemon(sensor: sensor)
            let monitor = try ChildProcess(Products.path("orientctl"), ["monitor", "--json", "--socket", daemon.socketPath])
            defer { monitor.stop() }
            try #require(monitor.waitForLines(1, timeout: 5), "monitor printed nothing; daemon log:\n\(daemon.log)")
            #expect(monitor.output[0].text == #"{"events":["deviceOrientationDidChange"],"orientation":"portrait","sensorAvailable":true}"#)

            let turns: [Orientation] = [.landscapeLeft, .portraitUpsideDown, .landscapeRight, .faceUp, .faceDown, .portrait]
            for (index, orientation) in turns.enumerated() {
                sensor.turn(to: orientation)
                try #require(monitor.waitForLines(index + 2, timeout: 4), "no event for \(orientation) within 4 s")
                let line = monitor.output[index + 1]
                let event = try JSONSerialization.jsonObject(with: Data(line.text.utf8)) as? [String: Any]
                #expect(event?["event"] as? String == "deviceOrientationDidChange")
                #expect(event?["orientation"] as? String == orientation.rawValue)
                #expect(event?["previous"] as? String == (index == 0 ? "portrait" : turns[index - 1].rawValue))
                #expect(event?["sequence"] as? Int == index + 2)
                #expect(event?["timestamp"] is Double)
                Thread.sleep(forTimeInterval: 0.3)
            }
            Thread.sleep(forTimeInterval: 1)
            #expect(monitor.output.count == turns.count + 1, "extra events: \(monitor.output.map(\.text))")
        }

        @Test func plainMonitorPrintsOneNamePerLine() throws {
            let sensor = try EmulatedAccelerometer.standard(.landscapeRight)
            let daemon = try Daemon(sensor: sensor)
            let monitor = try ChildProcess(Products.path("orientctl"), ["monitor", "--socket", daemon.socketPath])
            defer { monitor.stop() }
            try #require(monitor.waitForLines(1, timeout: 5))
            sensor.turn(to: .faceUp)
            try #require(monitor.waitForLines(2, timeout: 4))
            #expect(monitor.output.map(\.text) == ["landscapeRight", "faceUp"])
        }
    }
}
