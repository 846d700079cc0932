import Foundation
import NIOConcurrencyHelpers
import OrientationCore
import OrientdProtocol

/// The one place that knows the current orientation and who wants to hear of changes.
/// `publish` is called from the sensor thread; everything else from the connections' event loops.
public final class OrientationHub: Sendable {
    private struct State {
        var orientation: Orientation = .unknown
        var sequence = 0
        var subscriptions: [ObjectIdentifier: Subscription] = [:]
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    public var orientation: Orientation { state.withLockedValue { $0.orientation } }

    /// Records a change and hands it to every subscriber. Never blocks on a client.
    public func publish(_ change: OrientationChange, at timestamp: Double = Date().timeIntervalSince1970) {
        let (sequence, subscriptions) = state.withLockedValue { state in
            state.orientation = change.orientation
            state.sequence += 1
            return (state.sequence, Array(state.subscriptions.values))
        }
        let published = PublishedOrientation(orientation: change.orientation, timestamp: timestamp, sequence: sequence)
        for subscription in subscriptions {
            subscription.deliver(published)
        }
    }

    /// Adds a subscription and returns the orientation it starts from. Done under the same lock
    /// as `publish`, so a change is either in the returned orientation or delivered as an event.
    func add(_ subscription: Subscription) -> Orientation {
        state.withLockedValue { state in
            state.subscriptions[ObjectIdentifier(subscription)] = subscription
            return state.orientation
        }
    }

    func remove(_ subscription: Subscription) {
        _ = state.withLockedValue { $0.subscriptions.removeValue(forKey: ObjectIdentifier(subscription)) }
    }
}

/// A change as the hub numbered and stamped it.
struct PublishedOrientation: Sendable {
    let orientation: Orientation
    let timestamp: Double
    let sequence: Int
}
