import CEpoll
import Foundation
import NIOConcurrencyHelpers

/// Reads the subscribed subscribers' sockets: one thread per core, each waiting on its share of
/// the sockets with one epoll set, and leaving every line on the board stamped as it was read.
/// The readers run on the cores orientd runs on, so they are kept as cheap as a reader can be:
/// one system call per socket with data, no parsing, one lock per batch of lines.
final class SubscriberReaders: Sendable {
    private let board: ReceiptBoard
    private let sets: [Int32]
    private let running = NIOLockedValueBox(true)
    private let stopped = DispatchGroup()
    /// Each subscriber's socket, by subscriber index, for closing.
    private let descriptors = NIOLockedValueBox<[Int32]>([])

    init(board: ReceiptBoard, threads: Int) {
        self.board = board
        sets = (0..<threads).map { _ in epoll_create1(Int32(EPOLL_CLOEXEC)) }
        for set in sets {
            stopped.enter()
            Thread.detachNewThread { [self] in
                readUntilStopped(set)
                stopped.leave()
            }
        }
    }

    /// Starts reading `socket` for subscriber `index`; the indices must be 0, 1, 2, … in turn.
    func add(_ socket: SubscriberSocket, index: Int) {
        let flags = fcntl(socket.descriptor, F_GETFL)
        _ = fcntl(socket.descriptor, F_SETFL, flags | O_NONBLOCK)
        descriptors.withLockedValue { $0.append(socket.descriptor) }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue
        event.data.u64 = UInt64(index) << 32 | UInt64(UInt32(socket.descriptor))
        epoll_ctl(sets[index % sets.count], EPOLL_CTL_ADD, socket.descriptor, &event)
    }

    /// Stops the threads and closes every socket.
    func close() {
        running.withLockedValue { $0 = false }
        stopped.wait()
        for descriptor in descriptors.withLockedValue({ $0 }) + sets { Glibc.close(descriptor) }
        descriptors.withLockedValue { $0 = [] }
    }

    private func readUntilStopped(_ set: Int32) {
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        /// What a subscriber read after its last newline, until the rest arrives.
        var partial: [Int: [UInt8]] = [:]
        var arrivals: [ReceiptBoard.Arrival] = []
        while running.withLockedValue({ $0 }) {
            let ready = epoll_wait(set, &events, Int32(events.count), 50)
            for event in events.prefix(max(0, Int(ready))) {
                let subscriber = Int(event.data.u64 >> 32)
                let descriptor = Int32(truncatingIfNeeded: event.data.u64)
                while true {
                    let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                    let time = wallClockNow()
                    if count > 0 {
                        split(chunk[..<count], of: subscriber, at: time, into: &arrivals, partial: &partial)
                        continue
                    }
                    if count == 0 || errno != EAGAIN {
                        epoll_ctl(set, EPOLL_CTL_DEL, descriptor, nil)
                        board.closed()
                    }
                    break
                }
            }
            if !arrivals.isEmpty {
                board.deliver(arrivals)
                arrivals.removeAll(keepingCapacity: true)
            }
        }
    }

    private func split(_ bytes: ArraySlice<UInt8>, of subscriber: Int, at time: Double,
                       into arrivals: inout [ReceiptBoard.Arrival], partial: inout [Int: [UInt8]]) {
        var rest = bytes
        while let newline = rest.firstIndex(of: UInt8(ascii: "\n")) {
            // A copy: a slice would keep `chunk` shared, and the next read would copy it whole.
            var line = Array(rest[..<newline])
            if let start = partial.removeValue(forKey: subscriber) { line = start + line }
            arrivals.append(.init(subscriber: subscriber, time: time, line: line))
            rest = rest[(newline + 1)...]
        }
        if !rest.isEmpty { partial[subscriber, default: []] += rest }
    }
}
