/// Notices a suspend without logind: the time the system spent suspended (CLOCK_BOOTTIME less
/// CLOCK_MONOTONIC, `MonotonicClock.suspendedSeconds`) grew since the last look.
///
/// A look reads the two clocks one after the other, so it can come out short (the thread was
/// preempted between the reads, as under an emulated CPU), never long. The largest look so far is
/// the baseline: a short look followed by a true one is then no resume.
struct SuspendNotice {
    /// Seconds of growth that mean a suspend: more than any preemption between two reads of the
    /// clocks, less than any real suspend.
    static let least = 0.5

    private var baseline: Double

    init(suspendedSeconds: Double) {
        baseline = suspendedSeconds
    }

    /// Whether the system slept since the last look, given what this one reads.
    mutating func resumed(suspendedSeconds: Double) -> Bool {
        defer { baseline = max(baseline, suspendedSeconds) }
        return suspendedSeconds - baseline > Self.least
    }
}
