import EmulatedSensor
import Foundation
import OrientationCore
import ProcessHarness
import ScenarioCorpus
import Testing

extension IntegrationTests {
    /// `orientctl rotate` against a real sway (headless) and the real daemon on an emulated
    /// accelerometer: the transform is read back from sway.
    @Suite struct RotateSwayTests {
        /// sway's transforms count clockwise (sway-output(5)); the device turned left shows its
        /// content turned a quarter clockwise.
        static let expectedTransform: [Orientation: String] = [
            .portrait: "normal", .landscapeLeft: "90", .portraitUpsideDown: "180", .landscapeRight: "270",
        ]

        @Test func followsEveryOrientationAndIgnoresLyingFlat() throws {
            let (sensor, daemon, sway) = try start(.portrait)
            let hookLog = sway.directory + "/hook.log"
            let rotate = try startRotate(daemon, sway, ["--exec", #"echo "$ORIENTD_ROTATION $ORIENTD_INTERFACE_ORIENTATION $ORIENTD_OUTPUT $ORIENTD_BACKEND" >> "# + hookLog])
            defer { rotate.stop() }
            try expectTurns(rotate, sway, ["turned HEADLESS-1 to 0° clockwise (portrait)"], transform: "normal")
            for orientation in [Orientation.landscapeLeft, .portraitUpsideDown, .landscapeRight] {
                sensor.turn(to: orientation)
                let expected = Self.expectedTransform[orientation]!
                #expect(waitUntil(timeout: 10) { sway.transform(of: "HEADLESS-1") == expected },
                        "\(orientation): sway shows \(sway.transform(of: "HEADLESS-1") ?? "nothing"), not \(expected)")
            }
            sensor.turn(to: .faceUp)
            #expect(waitUntil(timeout: 10) { (try? daemon.currentOrientation()) == "faceUp" })
            sensor.turn(to: .portrait)
            #expect(waitUntil(timeout: 10) { sway.transform(of: "HEADLESS-1") == "normal" })
            // orientctl prints a turn once sway has answered it: the line may follow the transform.
            _ = rotate.waitForLines(5, timeout: 5)
            #expect(rotate.output.map(\.text) == [
                "turned HEADLESS-1 to 0° clockwise (portrait)", "turned HEADLESS-1 to 90° clockwise (landscapeRight)",
                "turned HEADLESS-1 to 180° clockwise (portraitUpsideDown)", "turned HEADLESS-1 to 270° clockwise (landscapeLeft)",
                "turned HEADLESS-1 to 0° clockwise (portrait)",
            ], "lying flat turns nothing")
            #expect(waitUntil(timeout: 5) { lines(of: hookLog).count == 5 }, "\(lines(of: hookLog))")
            #expect(lines(of: hookLog) == [
                "0 portrait HEADLESS-1 sway", "90 landscapeRight HEADLESS-1 sway", "180 portraitUpsideDown HEADLESS-1 sway",
                "270 landscapeLeft HEADLESS-1 sway", "0 portrait HEADLESS-1 sway",
            ])
        }

        /// While locked (by `orientctl lock --toggle`, as a key binding would) the screen stays;
        /// unlocked by the same command, it follows the device again.
        @Test func respectsTheRotationLock() throws {
            let (sensor, daemon, sway) = try start(.landscapeLeft)
            let rotate = try startRotate(daemon, sway)
            defer { rotate.stop() }
            try expectTurns(rotate, sway, ["turned HEADLESS-1 to 90° clockwise (landscapeRight)"], transform: "90")
            let locked = try run("orientctl", ["lock", "--toggle", "--socket", daemon.socketPath])
            #expect(locked.standardOutput == "rotation locked\n", "\(locked.standardOutput)\(locked.standardError)")
            sensor.turn(to: .portrait)
            #expect(waitUntil(timeout: 10) { (try? daemon.currentOrientation()) == "portrait" })
            let unlocking = ProcessHarness.monotonicNow()
            let unlocked = try run("orientctl", ["lock", "--toggle", "--socket", daemon.socketPath])
            #expect(unlocked.standardOutput == "rotation unlocked\n")
            #expect(waitUntil(timeout: 10) { sway.transform(of: "HEADLESS-1") == "normal" })
            _ = rotate.waitForLines(2, timeout: 5)
            let turns = rotate.output
            #expect(turns.map(\.text) == ["turned HEADLESS-1 to 90° clockwise (landscapeRight)", "turned HEADLESS-1 to 0° clockwise (portrait)"])
            #expect(turns.count == 2 && turns[1].time > unlocking, "the screen turned only once unlocked")
        }

        /// sway's `reload` puts the config's transform back (and drops the touch mapping): the
        /// screen is turned again.
        @Test func turnsItAgainAfterSwayReloadsItsConfig() throws {
            let (_, daemon, sway) = try start(.portraitUpsideDown)
            let rotate = try startRotate(daemon, sway)
            defer { rotate.stop() }
            try expectTurns(rotate, sway, ["turned HEADLESS-1 to 180° clockwise (portraitUpsideDown)"], transform: "180")
            #expect(sway.message(["reload"]) != nil)
            #expect(waitUntil(timeout: 10) { rotate.output.count == 2 }, "\(rotate.output.map(\.text))")
            #expect(sway.transform(of: "HEADLESS-1") == "180")
        }

        /// A second `orientctl rotate` for the same display takes over from the first, which ends.
        @Test func theNewestOfTwoTakesOver() throws {
            let (_, daemon, sway) = try start(.landscapeLeft)
            let runtime = makeScratchDirectory()
            let first = try startRotate(daemon, sway, environment: ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": "wayland-7"])
            defer { first.stop() }
            try #require(first.waitForLines(1, timeout: 15))
            let errors = runtime + "/second.err"
            let second = try startRotate(daemon, sway, environment: ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": "wayland-7"], standardError: errors)
            defer { second.stop() }
            #expect(waitUntil(timeout: 10) { !first.isRunning }, "the first one still runs")
            #expect(second.waitForLines(1, timeout: 15))
            #expect(second.isRunning)
            #expect(lines(of: errors).contains { $0.contains("taking over from the orientctl rotate already running for this display (pid \(first.pid))") },
                    "\(lines(of: errors))")
        }

        /// `--supported allButUpsideDown`: upside down keeps the orientation before.
        @Test func turnsOnlyToSupportedOrientations() throws {
            let (sensor, daemon, sway) = try start(.landscapeRight)
            let rotate = try startRotate(daemon, sway, ["--supported", "allButUpsideDown"])
            defer { rotate.stop() }
            try expectTurns(rotate, sway, ["turned HEADLESS-1 to 270° clockwise (landscapeLeft)"], transform: "270")
            sensor.turn(to: .portraitUpsideDown)
            #expect(waitUntil(timeout: 10) { (try? daemon.currentOrientation()) == "portraitUpsideDown" })
            sensor.turn(to: .landscapeLeft)
            #expect(waitUntil(timeout: 10) { sway.transform(of: "HEADLESS-1") == "90" })
            #expect(!rotate.output.contains { $0.text.contains("180°") }, "\(rotate.output.map(\.text))")
        }

        /// `--tablet-mode-only` on a convertible (two accelerometers): a laptop standing on its side
        /// (landscape to the device) keeps its screen upright; folded into a tent (tablet mode, its
        /// display lying face up, so the interface orientation stays) the screen turns; back to a
        /// laptop, upright again.
        @Test func tabletModeOnlyTurnsOnlyATablet() throws {
            // On its side the hinge axis is vertical, so the hinge angle is unknown: no tablet mode.
            let onItsSide = Vector3(-9.80665, 0, 0)
            let sensor = try EmulatedAccelerometer.convertible((onItsSide, onItsSide))
            let daemon = try Daemon(sensor: sensor)
            #expect(try daemon.currentOrientation() == "landscapeLeft")
            let sway = try HeadlessSway()
            try sway.start()
            let rotate = try startRotate(daemon, sway, ["--tablet-mode-only"])
            defer { rotate.stop() }
            try expectTurns(rotate, sway, ["turned HEADLESS-1 to 0° clockwise (portrait)"], transform: "normal")
            sensor.pose(display: ConvertiblePose.tent.display, base: ConvertiblePose.tent.base)
            #expect(waitUntil(timeout: 10) { sway.transform(of: "HEADLESS-1") == "90" }, "\(rotate.output.map(\.text))")
            sensor.pose(display: ConvertiblePose.laptop.display, base: ConvertiblePose.laptop.base)
            #expect(waitUntil(timeout: 10) { sway.transform(of: "HEADLESS-1") == "normal" }, "\(rotate.output.map(\.text))")
            _ = rotate.waitForLines(3, timeout: 5)
            #expect(rotate.output.map(\.text) == ["turned HEADLESS-1 to 0° clockwise (portrait)",
                                                  "turned HEADLESS-1 to 90° clockwise (landscapeRight)",
                                                  "turned HEADLESS-1 to 0° clockwise (portrait)"])
        }

        /// Started before sway, orientctl waits for it (saying so once) and turns it when it comes.
        /// When sway restarts (its transform back to normal), the screen is turned again; also when
        /// the new sway names its socket after its own process id, as a sway started without
        /// `$SWAYSOCK` does: orientctl finds it in `$XDG_RUNTIME_DIR`. orientctl runs as sway's
        /// user, as in a session.
        @Test func waitsForSwayAndFollowsItsRestarts() throws {
            let sensor = try EmulatedAccelerometer.standard(.landscapeLeft)
            let daemon = try Daemon(sensor: sensor)
            chmod(daemon.directory, 0o755)
            let sway = try HeadlessSway()
            let errors = sway.directory + "/rotate.err"
            let command = HeadlessSway.asSwayUser([Products.path("orientctl"), "rotate", "--socket", daemon.socketPath, "--output", "HEADLESS-1"])
            let rotate = try ChildProcess("/usr/bin/env", command,
                                          environment: ["SWAYSOCK": sway.configuredSocketPath, "XDG_RUNTIME_DIR": sway.directory, "WAYLAND_DISPLAY": ""],
                                          standardError: errors)
            defer { rotate.stop() }
            #expect(waitUntil(timeout: 10) { lines(of: errors).contains { $0.contains("could not turn the screen: sway is not answering at \(sway.configuredSocketPath)") } },
                    "\(lines(of: errors))")
            #expect(lines(of: errors).filter { $0.contains("sway is not answering") }.count == 1, "said once: \(lines(of: errors))")
            try sway.start()
            try expectTurns(rotate, sway, ["turned HEADLESS-1 to 90° clockwise (landscapeRight)"], transform: "90")

            sway.stop()
            try sway.start()
            #expect(waitUntil(timeout: 20) { sway.transform(of: "HEADLESS-1") == "90" }, "\(lines(of: errors))")
            #expect(lines(of: errors).contains { $0.contains("the compositor went away (sway closed its socket") }, "\(lines(of: errors))")

            sway.stop()
            try sway.start(namingItsOwnSocket: true)
            #expect(sway.socketPath != sway.configuredSocketPath)
            #expect(waitUntil(timeout: 20) { sway.transform(of: "HEADLESS-1") == "90" }, "\(lines(of: errors))")
            #expect(rotate.isRunning)
            #expect(lines(of: errors).filter { $0.contains("sway is not answering") }.count <= 3,
                    "an absent sway is reported once per outage, not at every retry: \(lines(of: errors))")
        }

        /// Without a compositor, orientctl rotate says how to give it one; under a desktop that turns
        /// its own screen, it says there is nothing to do.
        @Test func explainsAMissingCompositor() throws {
            let finished = try run("orientctl", ["rotate", "--socket", "/nonexistent"],
                                   environment: ["SWAYSOCK": "", "HYPRLAND_INSTANCE_SIGNATURE": "", "NIRI_SOCKET": "", "WAYLAND_DISPLAY": "", "DISPLAY": ""])
            #expect(finished.status == 1)
            #expect(finished.standardError.contains("no compositor found"), "\(finished.standardError)")
            #expect(finished.standardError.contains("--backend"))

            // GNOME turns its own screen: orientctl says so and ends with the status the user unit takes as success.
            let gnome = try run("orientctl", ["rotate", "--socket", "/nonexistent"],
                                environment: ["XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "WAYLAND_DISPLAY": "wayland-0"])
            #expect(gnome.status == 3)
            #expect(gnome.standardError.contains("GNOME turns its own screen"), "\(gnome.standardError)")
        }

        private func start(_ orientation: Orientation) throws -> (EmulatedAccelerometer, Daemon, HeadlessSway) {
            let sensor = try EmulatedAccelerometer.standard(orientation)
            let daemon = try Daemon(sensor: sensor)
            let sway = try HeadlessSway()
            try sway.start()
            return (sensor, daemon, sway)
        }

        private func startRotate(_ daemon: Daemon, _ sway: HeadlessSway, _ arguments: [String] = [],
                                 environment: [String: String] = [:], standardError: String? = nil) throws -> ChildProcess {
            try ChildProcess(Products.path("orientctl"), ["rotate", "--socket", daemon.socketPath, "--output", "HEADLESS-1"] + arguments,
                             environment: ["SWAYSOCK": sway.socketPath, "XDG_RUNTIME_DIR": "", "XDG_CURRENT_DESKTOP": ""].merging(environment) { $1 },
                             standardError: standardError)
        }

        private func expectTurns(_ rotate: ChildProcess, _ sway: HeadlessSway, _ expected: [String], transform: String,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws {
            try #require(rotate.waitForLines(expected.count, timeout: 15), "orientctl rotate printed \(rotate.output.map(\.text))", sourceLocation: sourceLocation)
            #expect(rotate.output.map(\.text) == expected, sourceLocation: sourceLocation)
            #expect(sway.transform(of: "HEADLESS-1") == transform, sourceLocation: sourceLocation)
        }

        private func lines(of path: String) -> [String] {
            ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
    }
}
