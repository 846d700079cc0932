import OrientationCore

/// A daemon under the loaded-gets benchmark: it takes subscribers, answers "what is the
/// orientation now?" on many connections at once, and says when it decided each change.
protocol LoadedService: AnyObject {
    var name: String { get }
    /// Connects and subscribes `count` listeners, read by the benchmark for as long as it runs.
    func subscribe(count: Int, timeout: Double, progress: (Int) -> Void) throws
    /// One connection's way to ask for the orientation (nil: the call failed), for one thread.
    func getter() throws -> @Sendable () -> Orientation?
    /// The changes the daemon decided so far, as (wall-clock time, orientation).
    func decisions() -> [(time: Double, orientation: Orientation)]
    /// Warnings and errors from the daemon's log.
    var complaints: [String] { get }
}
