import EmulatedSensor
import Foundation
import OrientationCore
import ProcessHarness
import Testing

extension IntegrationTests {
    /// The Python clients of the README and of docs/protocol.md, taken verbatim from their fenced
    /// blocks and run with python3 against the real daemon on an emulated sensor: each must do what
    /// its comments say.
    @Suite struct ReadmeExampleTests {
        /// The one ```python block of a document, exactly as written.
        static func pythonExample(in document: String) throws -> String {
            let text = try String(contentsOfFile: SystemdTests.root + "/" + document, encoding: .utf8)
            let opening = "```python\n"
            let blocks = text.components(separatedBy: opening).dropFirst()
            try #require(blocks.count == 1, "\(document) should have one ```python block, has \(blocks.count)")
            let block = try #require(blocks.first?.components(separatedBy: "\n```").first, "the ```python block is not closed")
            return block + "\n"
        }

        @Test(arguments: ["README.md", "docs/protocol.md"])
        func thePythonClientPrintsTheHelloTheCurrentOrientationThenEachChange(document: String) throws {
            let code = try Self.pythonExample(in: document)
            let sensor = try EmulatedAccelerometer.standard(.landscapeRight)
            let daemon = try Daemon(sensor: sensor)
            let script = daemon.directory + "/readme-client.py"
            try code.write(toFile: script, atomically: true, encoding: .utf8)
            let errors = daemon.directory + "/readme-client.err"
            // Unbuffered, so each line arrives when printed, as in a terminal.
            let client = try ChildProcess("/usr/bin/env", ["python3", script],
                                          environment: ["ORIENTD_SOCKET": daemon.socketPath, "PYTHONUNBUFFERED": "1"],
                                          standardError: errors)
            defer { client.stop() }
            func report() -> String {
                "it printed \(client.output.map(\.text)); its errors:\n\((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")\ndaemon log:\n\(daemon.log)"
            }

            // The hello, then the current orientation before anything changes.
            try #require(client.waitForLines(2, timeout: 10), "\(report())")
            #expect(client.output[0].text.hasPrefix("{'event': 'hello', 'protocol': 1,"), "\(report())")
            #expect(client.output[1].text == "landscapeRight", "\(report())")

            // Then every change, one name a line.
            for (index, orientation) in [Orientation.portrait, .faceUp].enumerated() {
                sensor.turn(to: orientation)
                try #require(client.waitForLines(3 + index, timeout: 5), "no line for \(orientation); \(report())")
                #expect(client.output[2 + index].text == orientation.rawValue, "\(report())")
            }
            #expect(client.isRunning, "\(report())")
        }
    }
}
