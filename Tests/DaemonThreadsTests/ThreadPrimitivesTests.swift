import DaemonThreads
import Glibc
import Testing

/// The primitives every thread of orientd waits on: a wait ends when its value is ready or at its
/// deadline, whichever comes first, and a wake or a stop ends a feed thread's sleep.
@Suite struct ThreadPrimitivesTests {
    @Test func aWaitEndsAtItsDeadlineWhenNothingComes() {
        let queue = Guarded<[Int]>([])
        let start = MonotonicClock.now()
        let taken = queue.wait(until: start + 0.05, for: { !$0.isEmpty }, then: { $0.removeFirst() })
        #expect(taken == nil)
        #expect(MonotonicClock.now() - start >= 0.05)
    }

    @Test func aWaitEndsWhenAnotherThreadMakesTheValueReady() {
        let queue = Guarded<[Int]>([])
        let poster = FeedThread()
        poster.start(name: "test-poster") {
            poster.sleep(0.02)
            queue.update { $0.append(7) }
        }
        // A deadline far away: only the post can end this wait.
        let taken = queue.wait(until: MonotonicClock.now() + 60, for: { !$0.isEmpty }, then: { $0.removeFirst() })
        #expect(taken == 7)
        poster.stop()
    }

    @Test func aReadyValueIsTakenAtOnceEvenPastTheDeadline() {
        let queue = Guarded([1, 2])
        #expect(queue.wait(until: MonotonicClock.now() - 1, for: { !$0.isEmpty }, then: { $0.removeFirst() }) == 1)
        #expect(queue.read { $0 } == [2])
    }

    @Test func aWakeEndsASleepAndIsConsumedByIt() {
        let thread = FeedThread()
        let woken = Guarded<[Bool]>([])
        let asleep = Latch()
        thread.start(name: "test-sleeper") {
            asleep.open()
            woken.update { $0.append(thread.sleep(.infinity)) }  // only the wake ends this one
            woken.update { $0.append(thread.sleep(0.01)) }       // the wake was consumed: times out
        }
        asleep.wait()
        thread.wake()
        let results = woken.wait(until: MonotonicClock.now() + 60, for: { $0.count == 2 }, then: { $0 })
        #expect(results == [true, false])
        thread.stop()
    }

    @Test func stopEndsASleepAndWaitsForTheBodyToReturn() {
        let thread = FeedThread()
        let returned = Guarded(false)
        thread.start(name: "test-stopper") {
            while !thread.shouldStop { thread.sleep(.infinity) }
            returned.update { $0 = true }
        }
        thread.stop()
        #expect(returned.read { $0 })
    }

    @Test func aConfinedValueServesItsOwnThread() {
        let counter = ThreadConfined(0)
        for _ in 0..<3 { counter.withValue { $0 += 1 } }
        #expect(counter.withValue { $0 } == 3)
    }
}
