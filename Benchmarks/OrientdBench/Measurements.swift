import OrientationCore
import ScenarioCorpus

/// The turns of the latency trials: 90° steps round the four upright orientations.
let stepCycle: [Orientation] = [.landscapeLeft, .portraitUpsideDown, .landscapeRight, .portrait]

/// Step latency: the sensor is turned at a random moment; how long until each daemon's client
/// hears of it. The pause before each turn (0.7 to 2.1 s) spreads the turns over several of
/// iio-sensor-proxy's 700 ms polls, so its figures do not lock to its phase.
func measureStepLatency(sensor: BenchSensor, daemons: [any DaemonUnderTest], trials: Int,
                        random: inout SeededRandom) -> [String: [Double]] {
    var latencies: [String: [Double]] = [:]
    for trial in 0..<trials {
        sleep(seconds: Double.random(in: 0.7...2.1, using: &random))
        let target = stepCycle[trial % stepCycle.count]
        let counts = daemons.map(\.reports.count)
        let turned = now()
        sensor.turn(to: target)
        for (daemon, count) in zip(daemons, counts) {
            if let heard = daemon.waitForReport(of: target, after: count, timeout: 3) {
                latencies[daemon.name, default: []].append(heard - turned)
            } else {
                latencies[daemon.name, default: []].append(.infinity)
            }
        }
    }
    return latencies
}

/// What a daemon reported while a scenario played, against what it should have reported.
struct ScenarioScore {
    var spurious: Int
    var missed: Int
}

/// Plays every scenario on the sensor in real time while the daemons watch. Each starts from its
/// first sample held for 2 s (both daemons settle) and ends with its last held for 1.5 s.
func measureScenarios(_ scenarios: [Scenario], sensor: BenchSensor, daemons: [any DaemonUnderTest],
                      progress: (String) -> Void) -> [(scenario: String, scores: [String: ScenarioScore])] {
    scenarios.map { scenario in
        progress(scenario.name)
        sensor.show(scenario.samples[0].acceleration)
        sleep(seconds: 2)
        let starts = daemons.map { ($0.reports.count, $0.latest) }
        let begin = now()
        for sample in scenario.samples {
            sleep(seconds: begin + sample.time - now())
            sensor.show(sample.acceleration)
        }
        sleep(seconds: 1.5)
        var scores: [String: ScenarioScore] = [:]
        for (daemon, (count, state)) in zip(daemons, starts) {
            let reported = daemon.reports.dropFirst(count).map(\.orientation)
            var expected = scenario.expected.map(\.orientation)
            if daemon is SensorProxyUnderTest { expected = inPlaneOnly(expected) }
            while expected.first == state { expected.removeFirst() }
            let matched = matchedInOrder(reported, expected)
            scores[daemon.name] = ScenarioScore(spurious: reported.count - matched, missed: expected.count - matched)
        }
        return (scenario.name, scores)
    }
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

/// CPU time and peak memory while the device lies still and one client is subscribed.
struct ResourceUse {
    var cpuSecondsPerMinute: Double
    var percentOfOneCore: Double
    var peakMemoryMiB: Double
}

func measureResourceUse(of daemons: [any DaemonUnderTest], seconds: Double) throws -> [String: ResourceUse] {
    func cpu(_ daemon: any DaemonUnderTest) throws -> Double {
        guard let spent = daemon.daemonProcess.cpuSeconds else { throw BenchFailure("\(daemon.name) has died") }
        return spent
    }
    let before = try daemons.map(cpu)
    sleep(seconds: seconds)
    var use: [String: ResourceUse] = [:]
    for (daemon, start) in zip(daemons, before) {
        let spent = try cpu(daemon) - start
        use[daemon.name] = ResourceUse(cpuSecondsPerMinute: spent * 60 / seconds, percentOfOneCore: spent / seconds * 100,
                                       peakMemoryMiB: daemon.daemonProcess.peakMemoryMiB)
    }
    return use
}
