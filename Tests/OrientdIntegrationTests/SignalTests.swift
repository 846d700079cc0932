import EmulatedSensor
import Foundation
import ProcessHarness
import Testing

/// The signals a daemon is sent besides SIGTERM: SIGHUP reloads the config file, the others that
/// would end a process by default are ignored. Before, each of them killed orientd on the spot:
/// no `stopping` event, the socket file left behind.
extension IntegrationTests {
    @Suite struct SignalTests {
        @Test func userSignalsAndSIGALRMAreIgnored() throws {
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(.portrait))
            for (signal, name) in [(SIGUSR1, "SIGUSR1"), (SIGUSR2, "SIGUSR2"), (SIGALRM, "SIGALRM")] {
                #expect(kill(daemon.process.processIdentifier, signal) == 0)
                // The harness runs orientd at debug level, where each ignored signal is logged.
                #expect(waitUntil(timeout: 10) { daemon.log.contains("ignoring \(name)") || !daemon.process.isRunning }, "\(daemon.log)")
                #expect(daemon.process.isRunning, "\(name) ended orientd")
                #expect(try daemon.currentOrientation() == "portrait")
            }
            #expect(daemon.stop() == 0)
            #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
        }

        /// SIGHUP re-reads the file: classifier keys apply at once (a face delay of 10 s becomes
        /// none: lying flat shows faceUp well within the 10 s the old delay would take), keys that
        /// need a restart are named, and a file with problems changes nothing and keeps orientd serving.
        @Test func sighupReloadsTheConfigFile() throws {
            let config = makeScratchDirectory() + "/orientd.conf"
            try "[Classifier]\nface-delay-ms=10000\n".write(toFile: config, atomically: true, encoding: .utf8)
            let sensor = try EmulatedAccelerometer.standard(.landscapeLeft)
            let daemon = try Daemon(sensor: sensor, arguments: ["--config", config])
            let pid = daemon.process.processIdentifier
            #expect(try daemon.currentOrientation() == "landscapeLeft")

            try "[Daemon]\nrate=30\n[Classifier]\nface-delay-ms=0\n".write(toFile: config, atomically: true, encoding: .utf8)
            #expect(kill(pid, SIGHUP) == 0)
            #expect(waitUntil(timeout: 10) { daemon.log.contains("reloaded the configuration") || !daemon.process.isRunning }, "\(daemon.log)")
            #expect(daemon.process.isRunning, "SIGHUP ended orientd")
            #expect(daemon.log.contains("reloaded the configuration from \(config): applied [Classifier] face-delay-ms 0"), "\(daemon.log)")
            #expect(daemon.log.contains("rate changed in \(config) but takes effect only when orientd restarts"), "\(daemon.log)")
            sensor.turn(to: .faceUp)
            #expect(waitUntil(timeout: 5, every: 0.05) { (try? daemon.currentOrientation()) == "faceUp" }, "\(daemon.log)")

            try "[Daemon]\nrat=30\n".write(toFile: config, atomically: true, encoding: .utf8)
            #expect(kill(pid, SIGHUP) == 0)
            #expect(waitUntil(timeout: 10) { daemon.log.contains("not reloading the configuration") || !daemon.process.isRunning }, "\(daemon.log)")
            #expect(daemon.log.contains("\(config):2: unknown key 'rat' in [Daemon]; did you mean 'rate'?"), "\(daemon.log)")
            #expect(daemon.process.isRunning)
            #expect(try daemon.currentOrientation() == "faceUp")
            #expect(daemon.stop() == 0)
        }

        /// calibrate's advice for a sensor without a hwdb key, followed: a [Device] section with
        /// the matrix, then `systemctl reload orientd` (SIGHUP). orientd reopens the sensor with it:
        /// status names the config file as the matrix's source and the orientation follows it.
        @Test func aReloadAppliesADeviceSectionsMountMatrix() throws {
            let config = makeScratchDirectory() + "/orientd.conf"
            try "".write(toFile: config, atomically: true, encoding: .utf8)
            let daemon = try Daemon(sensor: try EmulatedAccelerometer.standard(.portrait), arguments: ["--config", config])
            #expect(try daemon.currentOrientation() == "portrait")
            // The matrix that turns this sensor's portrait reading into landscapeLeft.
            try "[Device \"local:/accel_3d\"]\nmount-matrix=0, 1, 0; -1, 0, 0; 0, 0, 1\n".write(toFile: config, atomically: true, encoding: .utf8)
            #expect(kill(daemon.process.processIdentifier, SIGHUP) == 0)
            #expect(waitUntil(timeout: 10) { (try? daemon.currentOrientation()) == "landscapeLeft" }, "\(daemon.log)")
            #expect(daemon.log.contains("applied [Device] sections (reopening the accelerometers)"), "\(daemon.log)")
            #expect(daemon.log.contains("the [Device] settings changed: reopening the accelerometers to apply them"), "\(daemon.log)")
            #expect(!daemon.log.contains("devices changed"), "\(daemon.log)")
            let status = try run("orientctl", ["status", "--socket", daemon.socketPath]).standardOutput
            #expect(status.contains(#"mount matrix:  0, 1, 0; -1, 0, 0; 0, 0, 1 from config file [Device "local:/accel_3d"] mount-matrix"#), "\(status)")
        }
    }
}
