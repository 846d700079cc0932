import Glibc
import Testing

/// Runs a suite on a thread of its own instead of Swift concurrency's pool.
///
/// The integration tests wait synchronously (for processes, sockets, a state with a deadline),
/// and a test that waits holds its thread. The pool has one thread a core: on the 2-core machines
/// the serialized integration tests and the comparisons with iio-sensor-proxy held both, and
/// everything else waited behind them. On threads of their own they wait beside the rest.
/// Given to a serialized suite, its whole run (every test in it, one at a time, and the suites
/// nested in it, which inherit the preference) goes to the one thread.
struct OnItsOwnThread: SuiteTrait, TestScoping {
    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let executor = ThreadExecutor()
        defer { executor.finish() }
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OnItsOwnThread {
    static var onItsOwnThread: Self { OnItsOwnThread() }
}

/// A task executor with one thread, which runs the jobs given to it in order until `finish()`.
final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var condition = pthread_cond_t()
    private var jobs: [UnownedJob] = []
    private var finished = false

    init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&condition, nil)
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(&thread, nil, { context in
            let executor = Unmanaged<ThreadExecutor>.fromOpaque(context!).takeRetainedValue()
            executor.runJobs()
            return nil
        }, context)
        precondition(created == 0, "cannot start a test thread: \(String(cString: strerror(created)))")
        pthread_detach(thread)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pthread_mutex_lock(&mutex)
        jobs.append(job)
        pthread_cond_signal(&condition)
        pthread_mutex_unlock(&mutex)
    }

    /// No more jobs will come: the thread ends once it has run the ones it has.
    func finish() {
        pthread_mutex_lock(&mutex)
        finished = true
        pthread_cond_signal(&condition)
        pthread_mutex_unlock(&mutex)
    }

    private func runJobs() {
        while true {
            pthread_mutex_lock(&mutex)
            while jobs.isEmpty && !finished { pthread_cond_wait(&condition, &mutex) }
            if jobs.isEmpty {
                pthread_mutex_unlock(&mutex)
                return
            }
            let job = jobs.removeFirst()
            pthread_mutex_unlock(&mutex)
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
