import EmulatedSensor
import Foundation
import OrientationCore
import ProcessHarness

/// What one row of the table measured: `subscribers` subscribers, with or without the stalled
/// reader beside them, on a fresh orientd.
struct FanoutResult {
    var subscribers: Int
    var withStalledReader: Bool
    var tally: ReceiptBoard.Tally
    var changes: [ChangeTiming] = []
    var residentAfterSubscribingMiB = Double.nan
    var peakMiB = Double.nan
    var cpuSecondsDuringChanges = Double.nan
    /// CPU time the subscribers (this process) used meanwhile, on the same cores.
    var subscribersCPUSecondsDuringChanges = Double.nan
    /// CPU time every other process used meanwhile: a busy machine makes every figure worse.
    var othersCPUSecondsDuringChanges = Double.nan
    /// How long the changes took, settling included.
    var changesSeconds = Double.nan
    var unexpectedEvents = 0
    var lateEvents = 0
    /// What the stalled reader got when it read again, in words.
    var stalledReaderOutcome: String?
    /// orientd's warnings and errors.
    var complaints: [String] = []
    /// Why the row could not be measured.
    var failure: String?
}

/// One row: starts orientd, subscribes everybody, turns the device `changes` times between
/// portrait and landscapeLeft and times each change's arrival at every subscriber.
struct FanoutRun {
    let executable: String
    let sensor: EmulatedAccelerometer
    let scratch: String
    /// Further options for orientd.
    let options: [String]
    let changes: Int
    let settle: Double
    let timeout: Double
    let say: (String) -> Void

    func measure(subscribers count: Int, withStalledReader: Bool) throws -> FanoutResult {
        let name = "\(count)\(withStalledReader ? "+stalled" : "")"
        sensor.turn(to: .portrait)
        try FileLimit.check(connections: count + 1)
        let daemon = try DaemonUnderLoad(executable: executable, socketPath: scratch + "/orientd.sock", maxClients: count + 64,
                                         options: options, environment: sensor.environment, log: scratch + "/orientd-\(name).log")
        defer { daemon.stop() }
        let pool = SubscriberPool(socketPath: daemon.socketPath)
        defer { pool.close() }

        say("\(name): connecting \(count) subscribers")
        let started = wallClockNow()
        pool.open(count: count, timeout: timeout) { say("\(name):   \($0) connected") }
        var result = FanoutResult(subscribers: count, withStalledReader: withStalledReader, tally: pool.board.tally)
        say("\(name): \(result.tally.subscribed) subscribed in \(String(format: "%.1f", wallClockNow() - started)) s"
            + (result.tally.subscribed < count ? "; \(describe(result.tally))" : ""))
        let stalled: StalledReader?
        do {
            stalled = withStalledReader ? try pool.openStalledReader(timeout: timeout) : nil
        } catch {
            result.failure = "\(error)"
            result.complaints = daemon.complaints
            return result
        }
        if let stalled {
            say("\(name): the stalled reader is subscribed and orientd stopped reading it after \(stalled.state.withLockedValue { $0.requestBytesSent } / 1024) KiB of requests")
        }
        result.residentAfterSubscribingMiB = daemon.residentMiB
        sleep(seconds: settle)

        say("\(name): \(changes) changes")
        var collector = ChangeCollector(board: pool.board)
        var target = Orientation.portrait
        let cpuBefore = try daemon.cpuSeconds()
        let ownCPUBefore = ownCPUSeconds()
        let machineBefore = machineBusySeconds()
        let changesStarted = wallClockNow()
        for _ in 0..<changes {
            target = target == .portrait ? .landscapeLeft : .portrait
            let written = wallClockNow()
            sensor.turn(to: target)
            let timing = collector.collect(changeTo: target, writtenAt: written, timeout: timeout)
            if timing.missing > 0 { say("\(name):   \(timing.missing) subscribers did not receive the change to \(target) within \(timeout.formatted()) s") }
            result.changes.append(timing)
            sleep(seconds: settle)
        }
        result.changesSeconds = wallClockNow() - changesStarted
        result.cpuSecondsDuringChanges = try daemon.cpuSeconds() - cpuBefore
        result.subscribersCPUSecondsDuringChanges = ownCPUSeconds() - ownCPUBefore
        result.othersCPUSecondsDuringChanges = max(0, machineBusySeconds() - machineBefore
            - result.cpuSecondsDuringChanges - result.subscribersCPUSecondsDuringChanges)
        result.peakMiB = daemon.peakMiB
        result.tally = pool.board.tally
        result.unexpectedEvents = collector.unexpected
        result.lateEvents = collector.late
        if let stalled { result.stalledReaderOutcome = resume(stalled, expecting: target, sequence: collector.sequence) }
        result.complaints = daemon.complaints
        return result
    }

    /// Lets the stalled reader read again and says what orientd kept for it: the latest change,
    /// if the latest orientation is not the one it was last told of, else nothing.
    private func resume(_ reader: StalledReader, expecting final: Orientation, sequence: Int) -> String {
        reader.resume()
        let caughtUp = waitUntil(timeout: timeout) { reader.state.withLockedValue { $0.caughtUp } }
        let state = reader.state.withLockedValue { $0 }
        let events = state.eventsAfterResuming
        let received = events.isEmpty ? "no event"
            : "\(events.count) event\(events.count == 1 ? "" : "s") (" + events.map { "\($0.orientation) #\($0.sequence)" }.joined(separator: ", ") + ")"
        guard caughtUp else {
            return "after reading again for \(timeout.formatted()) s it had not read all orientd had sent; it received \(received)"
        }
        let start = state.startOrientation ?? "?"
        let due = final.rawValue != start
        let verdict = switch (due, events.last?.orientation == final.rawValue, events.count) {
        case (true, true, 1): "as due: only the latest change"
        case (false, _, 0): "as due: the latest orientation, \(final), is the one it was told of when it subscribed"
        default: "but \(due ? "one event, the change to \(final)," : "none") was due"
        }
        return "after reading again it received \(received) of the \(changes) changes (the last #\(sequence)), \(verdict)"
    }
}

func milliseconds(_ seconds: Double?) -> String {
    guard let seconds, seconds.isFinite else { return "-" }
    return seconds < 0.01 ? String(format: "%.1f", seconds * 1000) : String(Int((seconds * 1000).rounded()))
}

func describe(_ tally: ReceiptBoard.Tally) -> String {
    var parts: [String] = []
    for (reason, count) in tally.refusals.sorted(by: { $0.value > $1.value }) { parts.append("\(count) refused: \(reason)") }
    for (reason, count) in tally.failures.sorted(by: { $0.value > $1.value }) { parts.append("\(count) failed: \(reason)") }
    if tally.closed > 0 { parts.append("\(tally.closed) closed after subscribing") }
    return parts.joined(separator: "; ")
}
