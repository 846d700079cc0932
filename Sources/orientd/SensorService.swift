import AccelerometerIO
import Logging
import ServiceLifecycle

/// Runs one sample feed for the life of the daemon: starts it, unless it was started before
/// orientd said it was ready (the main one), and stops it on shutdown. A board that is never
/// reached holds up nothing: its feed keeps trying on its own thread.
struct SampleFeedService: Service {
    let feed: any SampleFeed
    let uri: String
    let startedAlready: Bool
    let logger: Logger

    func run() async throws {
        if !startedAlready {
            do {
                _ = try await feed.start()
            } catch {
                logger.error("cannot read \(uri): \(error); the other sensors are served on")
            }
        }
        try? await gracefulShutdown()
        feed.stop()
    }
}

/// On shutdown, tells systemd orientd is stopping and stops the event thread (udev, D-Bus) and
/// the ambient sensors. Listed after the feeds in the service group, so it is shut down before them.
struct StoppingService: Service {
    let events: OutsideEvents
    let ambient: AmbientSensorPoller?
    let notifier: SystemdNotifier
    let statusLine: SystemdStatusLine

    func run() async throws {
        try? await gracefulShutdown()
        statusLine.stop()
        notifier.stopping()
        events.stop()
        ambient?.stop()
    }
}

/// With `--replay --fast`, the end of the trace: it returns once the player has played the last
/// sample, and the group then shuts down gracefully, as on SIGTERM (clients are told orientd is
/// stopping). Without --fast it is not in the group: a replay in real time serves on.
final class ReplayEnd: Service, Sendable {
    private let (ended, continuation) = AsyncStream<Void>.makeStream()

    /// The player's `onFinished`.
    var reached: @Sendable () -> Void {
        let continuation = continuation
        return { continuation.yield() }
    }

    func run() async throws {
        for await _ in ended.cancelOnGracefulShutdown() { return }
    }
}
