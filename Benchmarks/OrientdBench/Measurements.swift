import Foundation
import EmulatedSensor
import OrientationCore
import ScenarioCorpus

/// The turns of the latency trials: 90° steps round the four upright orientations.
let stepCycle: [Orientation] = [.landscapeLeft, .portraitUpsideDown, .landscapeRight, .portrait]

/// Step latency: the sensor is turned at a random moment; how long until each daemon's client
/// hears of it. The pause before each turn (0.7 to 2.1 s) spreads the turns over several of
/// iio-sensor-proxy's 700 ms polls, so its figures do not lock to its phase.
/// With `pause`, the pause before each turn; on a sensor with motion events, the interrupt is
/// raised as the turn is written (a real slope detector raises it a sample or two into it).
func measureStepLatency(sensor: BenchSensor, daemons: [any DaemonUnderTest], trials: Int, pause: ClosedRange<Double> = 0.7...2.1,
                        random: inout SeededRandom) -> [String: [Double]] {
    timeTurns(daemons: daemons, trials: trials) { target in
        sleep(seconds: Double.random(in: pause, using: &random))
        return {
            let turned = now()
            sensor.turn(to: target)
            sensor.events?.fire()
            return turned
        }
    }
}

/// Runs `trials` turns round `stepCycle`: `prepare` waits before a turn and returns the turn,
/// which moves the sensor and returns the moment latency is counted from; then how long after
/// it each daemon's client heard of the new orientation (infinity: not within 3 s).
private func timeTurns(daemons: [any DaemonUnderTest], trials: Int,
                       prepare: (Orientation) -> () -> Double) -> [String: [Double]] {
    var latencies: [String: [Double]] = [:]
    // The cycle goes on from where the device is, so that no turn is to the orientation it shows.
    let start = daemons.first.flatMap { stepCycle.firstIndex(of: $0.latest) }.map { $0 + 1 } ?? 0
    for trial in 0..<trials {
        let target = stepCycle[(start + trial) % stepCycle.count]
        let turn = prepare(target)
        let counts = daemons.map(\.reports.count)
        let from = turn()
        for (daemon, count) in zip(daemons, counts) {
            let heard = daemon.waitForReport(of: target, after: count, timeout: 3)
            latencies[daemon.name, default: []].append(heard.map { $0 - from } ?? .infinity)
        }
    }
    return latencies
}

/// What a daemon reported while a scenario played, against what it should have reported.
struct ScenarioScore {
    var spurious: Int
    var missed: Int
}

/// Plays every scenario on the sensor in real time while the daemons watch. Each starts as the
/// corpus tests start it: the device first shows the scenario's first expected orientation (a
/// fresh classifier decides that from the first samples; a daemon still in the last scenario's
/// orientation might keep it, within its hysteresis), then its first sample held for 2 s (both
/// daemons settle); it ends with its last sample held for 1.5 s. `mismatch` hears what a daemon
/// reported in a scenario it did not pass.
func measureScenarios(_ scenarios: [Scenario], sensor: BenchSensor, daemons: [any DaemonUnderTest],
                      progress: (String) -> Void,
                      mismatch: (String) -> Void) -> [(scenario: String, scores: [String: ScenarioScore])] {
    scenarios.map { scenario in
        progress(scenario.name)
        if let first = scenario.expected.first?.orientation, Orientation.inPlane.contains(first) {
            let counts = daemons.map(\.reports.count)
            sensor.turn(to: first)
            for (daemon, count) in zip(daemons, counts) where daemon.latest != first {
                if daemon.waitForReport(of: first, after: count, timeout: 3) == nil {
                    mismatch("\(scenario.name): \(daemon.name) did not reach the starting orientation, \(first.rawValue), within 3 s")
                }
            }
        }
        sensor.show(scenario.samples[0].acceleration)
        sleep(seconds: 2)
        let starts = daemons.map { ($0.reports.count, $0.latest) }
        let begin = now()
        sensor.play(scenario.samples, from: begin)
        sleep(seconds: 1.5)
        var scores: [String: ScenarioScore] = [:]
        for (daemon, (count, state)) in zip(daemons, starts) {
            let reported = daemon.reports.dropFirst(count).map(\.orientation)
            var expected = scenario.expected.map(\.orientation)
            if daemon is SensorProxyUnderTest { expected = inPlaneOnly(expected) }
            while expected.first == state { expected.removeFirst() }
            let matched = matchedInOrder(reported, expected)
            scores[daemon.name] = ScenarioScore(spurious: reported.count - matched, missed: expected.count - matched)
            if matched != reported.count || matched != expected.count {
                mismatch("\(scenario.name): \(daemon.name) reported \(describe(daemon.reports.dropFirst(count), from: begin))"
                    + " after \(state), expected \(expected.map(\.rawValue).joined(separator: ", "))")
            }
        }
        return (scenario.name, scores)
    }
}

/// "portrait at 0.12 s, landscapeLeft at 1.53 s": reports timed from the scenario's start.
private func describe(_ reports: ArraySlice<(orientation: Orientation, time: Double)>, from begin: Double) -> String {
    reports.isEmpty ? "nothing" : reports.map { "\($0.orientation.rawValue) at \(String(format: "%.2f", $0.time - begin)) s" }
        .joined(separator: ", ")
}

/// iio-sensor-proxy has no faceUp/faceDown orientation (lying flat keeps the last one), so its
/// expected changes are the upright ones alone.
private func inPlaneOnly(_ orientations: [Orientation]) -> [Orientation] {
    var result: [Orientation] = []
    for orientation in orientations where ![.faceUp, .faceDown, .unknown].contains(orientation) {
        if result.last != orientation { result.append(orientation) }
    }
    return result
}

/// Physical-turn latency: the device is turned as a hand turns it (gravity sweeping through the
/// screen's plane over `motion` seconds) after a still pause long enough for a daemon that samples
/// a still device slowly to be doing so; how long after the motion ends each daemon's client hears
/// of the new orientation (negative: before it ended).
func measurePhysicalTurns(sensor: BenchSensor, daemons: [any DaemonUnderTest], trials: Int, motion: Double,
                          random: inout SeededRandom) -> [String: [Double]] {
    timeTurns(daemons: daemons, trials: trials) { target in
        sleep(seconds: Double.random(in: 3...4.5, using: &random))
        return { sensor.sweep(to: target, over: motion) }
    }
}

/// Pick-up latency: the device lies flat (screen up) for 4 to 4.7 s after showing the previous
/// orientation, then is picked up into the next one, either at once (`over` nil: from the moment
/// it stands) or by hand (tilted from flat to 20° back over `over` seconds: from the end of the
/// motion); how long until each daemon's client hears of the new orientation.
func measurePickUps(sensor: BenchSensor, daemons: [any DaemonUnderTest], trials: Int, over motion: Double?,
                    random: inout SeededRandom) -> [String: [Double]] {
    timeTurns(daemons: daemons, trials: trials) { target in
        sensor.lieFlat(for: Double.random(in: 4...4.7, using: &random))
        return {
            guard let motion else {
                let stood = now()
                sensor.turn(to: target)
                return stood
            }
            return sensor.tiltUp(into: target, over: motion)
        }
    }
}

/// What a daemon costs while the device lies still and one client is subscribed.
struct ResourceUse {
    var cpuSecondsPerMinute: Double
    var percentOfOneCore: Double
    var peakMemoryMiB: Double
    var anonymousMemoryMiB: Double
    /// Resident memory at the end of the window (VmRSS): what the daemon keeps, past its start.
    var residentMemoryMiB: Double
    /// Its share of what it maps (Pss), and what only it maps (Private_Clean + Private_Dirty).
    var proportionalMemoryMiB: Double
    var privateMemoryMiB: Double
    var threads: Int
    /// Reads of the sensor (of its x attribute) per second.
    var samplesPerSecond: Double
    /// Voluntary context switches per second, all threads.
    var wakeUpsPerSecond: Double
}

/// Measures one daemon over `seconds` while it alone reads the sensor (the other daemon has no
/// client then), so every read of the sensor's files in the window is its own.
func measureResourceUse(of daemon: any DaemonUnderTest, sensor: BenchSensor, seconds: Double) throws -> ResourceUse {
    func failure() -> BenchFailure { BenchFailure("\(daemon.name) has died") }
    let reads = try FileAccessCounter(directory: sensor.emulated.root + "/sys" + EmulatedAccelerometer.devicePath) { $0 == "in_accel_x_raw" }
    guard let cpuBefore = daemon.daemonProcess.cpuSeconds, let wakeUpsBefore = daemon.daemonProcess.wakeUps else { throw failure() }
    let threadsBefore = daemon.daemonProcess.wakeUpsByThread
    _ = reads.take()
    sleep(seconds: seconds)
    let samples = reads.take()
    reportWakeUpsByThread(of: daemon, since: threadsBefore, seconds: seconds)
    guard let cpuAfter = daemon.daemonProcess.cpuSeconds, let wakeUpsAfter = daemon.daemonProcess.wakeUps else { throw failure() }
    let spent = cpuAfter - cpuBefore
    return ResourceUse(cpuSecondsPerMinute: spent * 60 / seconds, percentOfOneCore: spent / seconds * 100,
                       peakMemoryMiB: daemon.daemonProcess.peakMemoryMiB,
                       anonymousMemoryMiB: daemon.daemonProcess.anonymousMemoryMiB,
                       residentMemoryMiB: daemon.daemonProcess.residentMemoryMiB,
                       proportionalMemoryMiB: daemon.daemonProcess.proportionalMemoryMiB,
                       privateMemoryMiB: daemon.daemonProcess.privateMemoryMiB,
                       threads: daemon.daemonProcess.threadCount,
                       samplesPerSecond: Double(samples) / seconds,
                       wakeUpsPerSecond: Double(wakeUpsAfter - wakeUpsBefore) / seconds)
}

/// Prints on stderr where a daemon's wake-ups went in the window, thread by thread, busiest first.
private func reportWakeUpsByThread(of daemon: any DaemonUnderTest, since before: [Int: (name: String, wakeUps: Int)],
                                   seconds: Double) {
    let perThread = daemon.daemonProcess.wakeUpsByThread.map { id, now in
        (name: now.name, perSecond: Double(now.wakeUps - (before[id]?.wakeUps ?? 0)) / seconds)
    }.sorted { $0.perSecond > $1.perSecond }
    let listed = perThread.map { "\($0.name) \(String(format: "%.1f", $0.perSecond))" }.joined(separator: ", ")
    FileHandle.standardError.write(Data("orientd-bench: \(daemon.name)'s wake-ups per second by thread: \(listed)\n".utf8))
}
