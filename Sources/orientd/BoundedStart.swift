import AccelerometerIO
import NIOCore
import NIOPosix
import Synchronization

/// Starts `feed` and waits for its first open at most `seconds`: a board slow to answer (libiio's
/// network connect waits up to 5 s for a host that is down) must not keep every client waiting.
/// Returns false when it had not opened by then; it goes on opening on its own thread, and the
/// hub hears of it when it does.
///
/// The deadline is an event loop's timer, cancelled once the feed opens, not `Task.sleep`: a
/// delayed job goes through libdispatch, whose worker pool, once used, keeps a timer that wakes
/// the daemon once a second for the rest of its life.
func start(_ feed: any SampleFeed, waitingAtMost seconds: Double) async -> Bool {
    await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let answer = FirstAnswer(continuation)
        let deadline = MultiThreadedEventLoopGroup.singleton.any()
            .scheduleTask(in: .milliseconds(Int64(seconds * 1000))) { answer.give(false) }
        Task {
            _ = try? await feed.start()
            deadline.cancel()
            answer.give(true)
        }
    }
}

/// Whichever comes first, the feed's open or the deadline, resumes the waiting start; the other
/// finds it resumed already.
private final class FirstAnswer: Sendable {
    private let continuation: Mutex<CheckedContinuation<Bool, Never>?>

    init(_ continuation: CheckedContinuation<Bool, Never>) {
        self.continuation = Mutex(continuation)
    }

    func give(_ opened: Bool) {
        continuation.withLock { waiting in
            waiting?.resume(returning: opened)
            waiting = nil
        }
    }
}
