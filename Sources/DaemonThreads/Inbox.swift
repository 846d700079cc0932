import Synchronization

/// Messages posted from any thread for one thread to take, oldest first: udev's events for a
/// sensor thread. The thread is woken apart (its `FeedThread.wake`). Inlinable: the sensor
/// thread takes from its inboxes at every read, and a generic call across modules would look its
/// types up at run time each time.
package final class Inbox<Message: Sendable>: Sendable {
    @usableFromInline let messages = Mutex<[Message]>([])

    @inlinable package init() {}

    @inlinable package func post(_ message: Message) {
        messages.withLock { $0.append(message) }
    }

    /// The messages posted since the last call, oldest first.
    @inlinable package func take() -> [Message] {
        messages.withLock { messages in
            defer { messages = [] }
            return messages
        }
    }
}
