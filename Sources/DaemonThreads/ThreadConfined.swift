import Glibc
import Synchronization

/// A value that belongs to one thread: the first one to use it (a sensor thread, the event thread).
/// Debug builds check that every later use is on that thread, as `NIOLoopBound` checks its event
/// loop; it is the one place such a rule is promised to the compiler (`@unchecked Sendable`)
/// rather than proved, so the classes that hold one need no promise of their own.
package final class ThreadConfined<Value>: @unchecked Sendable {
    private var value: Value
    #if DEBUG
    /// The owning thread's pthread_t, 0 until the first use.
    private let owner = Atomic<UInt>(0)
    #endif

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` on the value; on the owning thread only.
    package func withValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        #if DEBUG
        let thread = UInt(pthread_self())
        let (claimed, current) = owner.compareExchange(expected: 0, desired: thread, ordering: .relaxed)
        precondition(claimed || current == thread, "a thread-confined value used off the thread that owns it")
        #endif
        return try body(&value)
    }
}
