import Foundation

/// Seconds since the Unix epoch on CLOCK_REALTIME: the clock orientd stamps its events with
/// (`timestamp`), so an event's arrival here and the moment orientd decided it can be subtracted.
func wallClockNow() -> Double {
    seconds(on: CLOCK_REALTIME)
}

/// CPU time all of this process's threads (the subscribers' event loops among them) have used.
/// They share the machine's cores with orientd, so this is what they took from it.
func ownCPUSeconds() -> Double {
    seconds(on: CLOCK_PROCESS_CPUTIME_ID)
}

/// CPU time every process on the machine has used since boot (/proc/stat, in clock ticks), to
/// tell how much of it went to neither orientd nor the subscribers during a measurement.
func machineBusySeconds() -> Double {
    let text = (try? String(contentsOfFile: "/proc/stat", encoding: .utf8)) ?? ""
    guard let total = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return .nan }
    // user nice system idle iowait irq softirq steal: all but idle and iowait were busy.
    let ticks = total.split(separator: " ").dropFirst().prefix(8).map { Double($0) ?? 0 }
    guard ticks.count == 8 else { return .nan }
    return (ticks.reduce(0, +) - ticks[3] - ticks[4]) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

func sleep(seconds: Double) {
    if seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
}

private func seconds(on clock: clockid_t) -> Double {
    var spec = timespec()
    clock_gettime(clock, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
}
