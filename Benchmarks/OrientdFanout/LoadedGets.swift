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
/// (by how long since that turn), or two or more.
struct LoadedGetsRun {
    let executable: String
    let sensor: EmulatedAccelerometer
    let scratch: String
    let options: [String]
    let timeout: Double
    let say: (String) -> Void

    struct Result {
        var answers = 0
        var current = 0
        /// For each answer one turn behind: seconds since the turn it missed.
        var oneBehind: [Double] = []
        var twoOrMoreBehind = 0
        /// Answers that were none of the last turns' orientations, by orientation.
        var others: [String: Int] = [:]
        var failures = 0
        var complaints: [String] = []
    }

    static let cycle: [Orientation] = [.portrait, .landscapeLeft, .portraitUpsideDown, .landscapeRight]

    func measure(subscribers count: Int, loops: Int, interval: Double, seconds: Double) throws -> Result {
        sensor.turn(to: .portrait)
        let daemon = try DaemonUnderLoad(executable: executable, socketPath: scratch + "/orientd.sock", maxClients: count + loops + 64,
                                         options: options, environment: sensor.environment, log: scratch + "/orientd-loaded-gets.log")
        defer { daemon.stop() }
        let pool = SubscriberPool(socketPath: daemon.socketPath)
        defer { pool.close() }
        say("loaded gets: connecting \(count) subscribers")
        pool.open(count: count, timeout: timeout) { say("loaded gets:   \($0) connected") }
        sleep(seconds: 1)

        // (answer time, orientation) from every loop; turns as (time written, orientation).
        let answers = NIOLockedValueBox<[(time: Double, orientation: Orientation)]>([])
        let failures = NIOLockedValueBox(0)
        let stop = NIOLockedValueBox(false)
        let socketPath = daemon.socketPath
        let threads = (0..<loops).map { _ in
            Thread {
                guard let client = try? OrientdClient(socketPath: socketPath, timeout: 5) else {
                    failures.withLockedValue { $0 += 1 }
                    return
                }
                var mine: [(time: Double, orientation: Orientation)] = []
                while !stop.withLockedValue({ $0 }) {
                    guard let reply = try? client.call("get"),
                          let name = reply["orientation"]?.stringValue, let orientation = Orientation(rawValue: name) else {
                        failures.withLockedValue { $0 += 1 }
                        continue
                    }
                    mine.append((wallClockNow(), orientation))
                }
                answers.withLockedValue { $0 += mine }
            }
        }
        say("loaded gets: \(loops) get loops, a turn every \(interval.formatted()) s for \(seconds.formatted()) s")
        threads.forEach { $0.start() }
        var turns: [(time: Double, orientation: Orientation)] = [(wallClockNow(), .portrait)]
        let end = wallClockNow() + seconds
        var index = 0
        while wallClockNow() < end {
            sleep(seconds: interval)
            index = (index + 1) % Self.cycle.count
            let target = Self.cycle[index]
            // A turn counts from when its last file is written: the writer is starved too.
            turn(from: Self.cycle[(index + Self.cycle.count - 1) % Self.cycle.count], to: target)
            turns.append((wallClockNow(), target))
        }
        stop.withLockedValue { $0 = true }
        waitUntil(timeout: 10) { threads.allSatisfy(\.isFinished) }

        var result = Result()
        result.failures = failures.withLockedValue { $0 }
        for answer in answers.withLockedValue({ $0 }) {
            // The last turn written before the answer arrived, and the ones before it.
            guard let last = turns.lastIndex(where: { $0.time <= answer.time }) else { continue }
            result.answers += 1
            if turns[last].orientation == answer.orientation {
                result.current += 1
            } else if last >= 1, turns[last - 1].orientation == answer.orientation {
                result.oneBehind.append(answer.time - turns[last].time)
            } else if turns[..<last].suffix(3).contains(where: { $0.orientation == answer.orientation }) {
                result.twoOrMoreBehind += 1
            } else {
                result.others[answer.orientation.rawValue, default: 0] += 1
            }
        }
        result.complaints = daemon.complaints
        return result
    }
}

extension LoadedGetsRun {
    /// Turns the emulated device by 90° as a quick hand does, in 10° steps 10 ms apart (90 ms in
    /// all), each step's three axis files written one after the other: a reader that comes between
    /// two writes, or finds the writer starved for a while under this load, sees two directions
    /// 10° apart mixed, about 1 g (as a real sensor read axis by axis during a turn), never the
    /// 1.41 g or 0 g of two orientations' axes mixed, which would read as a knock.
    func turn(from start: Orientation, to end: Orientation) {
        let from = EmulatedAccelerometer.rawCounts(for: start), to = EmulatedAccelerometer.rawCounts(for: end)
        let begin = atan2(from.x, from.y)
        var finish = atan2(to.x, to.y)
        while finish - begin > .pi { finish -= 2 * .pi }
        while finish - begin < -.pi { finish += 2 * .pi }
        let steps = 9
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
        return """
            | answers | current | one turn behind | of which > 400 ms after the turn | one behind, p50 / p99 / max (ms) | two or more behind | none of these | failed calls |
            |---:|---:|---:|---:|---:|---:|---|---:|
            | \(answers) | \(percent(current)) | \(percent(oneBehind.count)) | \(percent(oneBehind.filter { $0 > 0.4 }.count)) | \(quantile(0.5)) / \(quantile(0.99)) / \(behind.last.map(milliseconds) ?? "-") | \(percent(twoOrMoreBehind)) | \(others.isEmpty ? "0" : others.sorted { $0.key < $1.key }.map { "\(percent($0.value)) \($0.key)" }.joined(separator: ", ")) | \(failures) |
            """
    }
}
