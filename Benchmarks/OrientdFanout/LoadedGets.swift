import EmulatedSensor
import Foundation
import NIOConcurrencyHelpers
import OrientationCore
import OrientdClient
import ProcessHarness

/// How fresh `get` answers are under load: `subscribers` subscribers and `loops` clients calling
/// `get` back to back, while the device turns round the four upright orientations every
/// `interval` seconds for `seconds`. Each answer is judged against the turns written before it
/// arrived (a turn counts once its last file is written): the current orientation, one turn behind
/// (by how long since that turn), or two.
struct LoadedGetsRun {
    let sensor: EmulatedAccelerometer
    let timeout: Double
    /// Steps of each 90° turn (`turn(from:to:)`).
    let turnSteps: Int
    let say: (String) -> Void

    struct Result {
        var answers = 0
        var current = 0
        /// For each answer one turn behind: seconds since the turn it missed.
        var oneBehind: [Double] = []
        var twoBehind = 0
        /// Answers that were none of the last turns' orientations, by orientation.
        var others: [String: Int] = [:]
        var failures = 0
        var complaints: [String] = []
        /// For each turn orientd decided: seconds from the turn's last write to orientd's decision
        /// (the event's `timestamp`; below 0 when decided while the turn was still being written),
        /// the sensor and judge's share of the staleness.
        var decisionLags: [Double] = []
        /// Turns orientd never decided (or decided only after the next turn was written).
        var undecidedTurns = 0
        /// For each answer two turns behind: seconds from sending `get` to its answer, the
        /// queue's share (the hub's loop, or this process's own starved threads).
        var staleRoundTrips: [Double] = []
        /// Whether the turns were written at a raised priority (needs root), and how long they took.
        var handPriorityRaised = false
        var turningSeconds = 0.0
        /// How long writing each turn's nine steps took (90 ms of pauses unloaded).
        var turnWritingSeconds: [Double] = []
        /// Answers two turns behind that orientd itself had already decided past when `get` was sent.
        var staleAfterDecision = 0
    }

    /// A turn of the device: when its first and last axis files were written.
    struct Turn {
        var begun: Double
        var written: Double
        var orientation: Orientation
    }

    static let cycle: [Orientation] = [.portrait, .landscapeLeft, .portraitUpsideDown, .landscapeRight]

    func measure(_ service: any LoadedService, subscribers count: Int, loops: Int, interval: Double, seconds: Double) throws -> Result {
        say("loaded gets (\(service.name)): connecting \(count) subscribers")
        try service.subscribe(count: count, timeout: timeout) { say("loaded gets:   \($0) connected") }
        sleep(seconds: 1)

        // (time sent, answer time, orientation) from every loop; turns as (time written, orientation).
        let answers = NIOLockedValueBox<[(sent: Double, time: Double, orientation: Orientation)]>([])
        var result = Result()
        let failures = NIOLockedValueBox(0)
        let stop = NIOLockedValueBox(false)
        let getters = try (0..<loops).map { _ in try service.getter() }
        let threads = getters.map { get in
            Thread {
                var mine: [(sent: Double, time: Double, orientation: Orientation)] = []
                while !stop.withLockedValue({ $0 }) {
                    let sent = wallClockNow()
                    guard let orientation = get() else {
                        failures.withLockedValue { $0 += 1 }
                        continue
                    }
                    mine.append((sent, wallClockNow(), orientation))
                }
                answers.withLockedValue { $0 += mine }
            }
        }
        say("loaded gets (\(service.name)): \(loops) get loops, a turn every \(interval.formatted()) s for \(seconds.formatted()) s")
        threads.forEach { $0.start() }
        // A hand is not starved of CPU by the load: the turns are written at a higher priority
        // (as root), so they come every `interval` seconds rather than whenever the writer runs.
        result.handPriorityRaised = setThreadNice(-10)
        var turns: [Turn] = [Turn(begun: wallClockNow(), written: wallClockNow(), orientation: .portrait)]
        let end = wallClockNow() + seconds
        var index = 0
        while wallClockNow() < end {
            sleep(seconds: interval)
            index = (index + 1) % Self.cycle.count
            let target = Self.cycle[index]
            let begun = wallClockNow()
            turn(from: Self.cycle[(index + Self.cycle.count - 1) % Self.cycle.count], to: target)
            turns.append(Turn(begun: begun, written: wallClockNow(), orientation: target))
        }
        _ = setThreadNice(0)
        result.turningSeconds = wallClockNow() - turns[0].begun
        result.turnWritingSeconds = turns.dropFirst().map { $0.written - $0.begun }
        stop.withLockedValue { $0 = true }
        waitUntil(timeout: 10) { threads.allSatisfy(\.isFinished) }
        sleep(seconds: 1)
        let decided = service.decisions()

        result.failures = failures.withLockedValue { $0 }
        for answer in answers.withLockedValue({ $0 }) {
            // The last turn finished before the answer arrived; a turn still being written then
            // may already be decided (orientd decides past 45° and a bit), which is current too.
            guard let last = turns.lastIndex(where: { $0.written <= answer.time }) else { continue }
            result.answers += 1
            let inProgress = last + 1 < turns.count && turns[last + 1].begun <= answer.time ? turns[last + 1] : nil
            if turns[last].orientation == answer.orientation || inProgress?.orientation == answer.orientation {
                result.current += 1
            } else if last >= 1, turns[last - 1].orientation == answer.orientation {
                result.oneBehind.append(answer.time - turns[last].written)
            } else if last >= 2, turns[last - 2].orientation == answer.orientation {
                result.twoBehind += 1
                result.staleRoundTrips.append(answer.time - answer.sent)
                // What orientd had last decided when the request left: already past the answer, a
                // decision of one of the two turns after it (made after the next turn began)?
                if let known = decided.last(where: { $0.time <= answer.sent }), known.time >= turns[last - 1].begun,
                   [turns[last - 1].orientation, turns[last].orientation].contains(known.orientation) {
                    result.staleAfterDecision += 1
                }
            } else {
                result.others[answer.orientation.rawValue, default: 0] += 1
            }
        }
        for (index, turn) in turns.enumerated().dropFirst() {
            let next = index + 1 < turns.count ? turns[index + 1].begun : .infinity
            if let decision = decided.first(where: { $0.orientation == turn.orientation && $0.time >= turn.begun && $0.time < next }) {
                result.decisionLags.append(decision.time - turn.written)
            } else {
                result.undecidedTurns += 1
            }
        }
        result.complaints = service.complaints
        return result
    }
}

extension LoadedGetsRun {
    /// Turns the emulated device by 90° as a quick hand does, in `turnSteps` steps 10 ms apart (9:
    /// 10° steps, 90 ms in all), each step's three axis files written one after the other: a reader
    /// that comes between two writes, or finds the writer starved for a while under this load, sees
    /// two directions 10° apart mixed, about 1 g (as a real sensor read axis by axis during a turn).
    /// With one step it sees two orientations' axes mixed: 1.41 g or 0 g, which reads as a knock.
    func turn(from start: Orientation, to end: Orientation) {
        let from = EmulatedAccelerometer.rawCounts(for: start), to = EmulatedAccelerometer.rawCounts(for: end)
        let begin = atan2(from.x, from.y)
        var finish = atan2(to.x, to.y)
        while finish - begin > .pi { finish -= 2 * .pi }
        while finish - begin < -.pi { finish += 2 * .pi }
        let steps = turnSteps
        for step in 1...steps {
            let angle = begin + (finish - begin) * Double(step) / Double(steps)
            sensor.setRaw(Vector3((EmulatedAccelerometer.countsPerG * sin(angle)).rounded(),
                                  (EmulatedAccelerometer.countsPerG * cos(angle)).rounded(), 0))
            if step < steps { usleep(10_000) }
        }
    }
}

extension LoadedGetsRun.Result {
    var markdown: String {
        let behind = oneBehind.sorted()
        func percent(_ count: Int) -> String { answers == 0 ? "-" : String(format: "%.1f %%", 100 * Double(count) / Double(answers)) }
        func quantile(_ q: Double) -> String { behind.isEmpty ? "-" : milliseconds(behind[min(behind.count - 1, Int(q * Double(behind.count)))]) }
        func summary(_ values: [Double]) -> String {
            values.isEmpty ? "-" : "\(milliseconds(percentile(50, of: values))) / \(milliseconds(percentile(99, of: values))) / \(milliseconds(values.max()))"
        }
        return """
            | answers | current | one turn behind | of which > 400 ms after the turn | one behind, p50 / p99 / max (ms) | two turns behind | none of these (three behind is the next turn, not yet begun) | failed calls |
            |---:|---:|---:|---:|---:|---:|---|---:|
            | \(answers) | \(percent(current)) | \(percent(oneBehind.count)) | \(percent(oneBehind.filter { $0 > 0.4 }.count)) | \(quantile(0.5)) / \(quantile(0.99)) / \(behind.last.map(milliseconds) ?? "-") | \(percent(twoBehind)) | \(others.isEmpty ? "0" : others.sorted { $0.key < $1.key }.map { "\(percent($0.value)) \($0.key)" }.joined(separator: ", ")) | \(failures) |
            
            Where the staleness comes from: the daemon's decision after each turn (iio-sensor-proxy's: when monitor-sensor prints it), and the round trip of the answers two turns behind.

            | turns (in s, hand at raised priority) | writing a turn, p50 / max (ms) | decided | decision after the turn, p50 / p99 / max (ms) | two turns behind: round trip p50 / p99 / max (ms) | of those, the daemon had decided past them before the call |
            |---:|---:|---:|---:|---:|---:|
            | \(decisionLags.count + undecidedTurns) (\(String(format: "%.1f", turningSeconds)), \(handPriorityRaised ? "yes" : "no")) | \(milliseconds(percentile(50, of: turnWritingSeconds))) / \(milliseconds(turnWritingSeconds.max())) | \(decisionLags.count) | \(summary(decisionLags)) | \(summary(staleRoundTrips)) | \(staleAfterDecision) |
            """
    }
}

/// Sets the calling thread's nice value (on Linux, PRIO_PROCESS with 0 is this thread alone);
/// false when not allowed (raising priority needs root or CAP_SYS_NICE).
private func setThreadNice(_ nice: Int32) -> Bool {
    setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, nice) == 0
}
