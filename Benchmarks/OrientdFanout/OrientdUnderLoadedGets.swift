import Foundation
import NIOConcurrencyHelpers
import OrientationCore
import OrientdClient
import ProcessHarness

/// orientd under the loaded-gets benchmark: subscribers on its socket (`SubscriberPool`), `get`
/// through the client library, and its decisions from one more subscriber's events (their
/// `timestamp` is when orientd decided).
final class OrientdUnderLoadedGets: LoadedService {
    let name = "orientd"
    private let daemon: DaemonUnderLoad
    private let pool: SubscriberPool
    private let watcher: OrientdClient
    private let watching: Thread
    private let decided = NIOLockedValueBox<[(time: Double, orientation: Orientation)]>([])

    init(executable: String, socketPath: String, maxClients: Int, options: [String], environment: [String: String], log: String) throws {
        daemon = try DaemonUnderLoad(executable: executable, socketPath: socketPath, maxClients: maxClients,
                                     options: options, environment: environment, log: log)
        pool = SubscriberPool(socketPath: socketPath)
        watcher = try OrientdClient(socketPath: socketPath, timeout: 5)
        _ = try watcher.subscribe()
        watcher.setReadTimeout(nil)
        // Read on its own thread only, once subscribed here.
        nonisolated(unsafe) let watcher = watcher
        let decided = decided
        watching = Thread {
            while let event = try? watcher.nextServerEvent() {
                if case .deviceOrientationDidChange(let change) = event {
                    decided.withLockedValue { $0.append((change.timestamp, change.orientation)) }
                }
            }
        }
        watching.start()
    }

    deinit {
        watcher.interrupter()
        waitUntil(timeout: 10) { watching.isFinished }
        pool.close()
        daemon.stop()
    }

    func subscribe(count: Int, timeout: Double, progress: (Int) -> Void) throws {
        pool.open(count: count, timeout: timeout, progress: progress)
    }

    func getter() throws -> @Sendable () -> Orientation? {
        nonisolated(unsafe) let client = try OrientdClient(socketPath: daemon.socketPath, timeout: 5)
        return {
            guard let reply = try? client.call("get"), let name = reply["orientation"]?.stringValue else { return nil }
            return Orientation(rawValue: name)
        }
    }

    func decisions() -> [(time: Double, orientation: Orientation)] { decided.withLockedValue { $0 } }

    var complaints: [String] { daemon.complaints }
}
