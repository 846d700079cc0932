import Foundation

/// An emulated device capturing at 50 Hz: every 20 ms, `capture` is called with the kernel time of
/// the scan (nanoseconds, from 1 s on) to write what the device captured, until `stop`.
public final class CapturingThread: @unchecked Sendable {
    public static let period = 0.02
    private let lock = NSLock()
    private var running = true
    private let done = DispatchSemaphore(value: 0)

    public init(_ capture: @escaping @Sendable (_ nanoseconds: Int64) -> Void) {
        Thread.detachNewThread { [self] in
            var time: Int64 = 1_000_000_000
            while lock.withLock({ running }) {
                capture(time)
                time += Int64(Self.period * 1e9)
                Thread.sleep(forTimeInterval: Self.period)
            }
            done.signal()
        }
    }

    /// Ends the capture; returns once the thread wrote its last scan.
    public func stop() {
        let wasRunning = lock.withLock { () -> Bool in
            defer { running = false }
            return running
        }
        if wasRunning { done.wait() }
    }
}
