import Synchronization

/// Messages posted from any thread for one thread to take, oldest first: udev's events for a
/// sensor thread. The thread is woken apart (its `FeedThread.wake`).
package final class Inbox<Message: Sendable>: Sendable {
    private let messages = Mutex<[Message]>([])

    package init() {}

    package func post(_ message: Message) {
        messages.withLock { $0.append(message) }
    }

    /// The messages posted since the last call, oldest first.
    package func take() -> [Message] {
        messages.withLock { messages in
            defer { messages = [] }
            return messages
        }
    }
}
