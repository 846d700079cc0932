import OrientationCore
import OrientdClient
import OrientdProtocol
import Synchronization

/// Follows orientd's interface orientation (and tablet mode) through the client library's
/// reconnecting subscription, and posts what it hears to the rotate loop: the subscription, each
/// change, orientd gone (once an outage), and orientd refusing the subscription (fatal). A new
/// subscription names the interface orientation last heard first among the supported ones: a
/// restarted orientd that finds the device lying flat then starts from it, so the screen stays.
package struct OrientdFollower: Sendable {
    package let socketPath: String?
    package let supported: [InterfaceOrientation]
    package let tabletMode: Bool
    package let inbox: RotateInbox

    package init(socketPath: String?, supported: [InterfaceOrientation], tabletMode: Bool, inbox: RotateInbox) {
        (self.socketPath, self.supported, self.tabletMode, self.inbox) = (socketPath, supported, tabletMode, inbox)
    }

    package func start() {
        let current = Current()
        let news = OrientationClient(socketPath: socketPath).subscription { parameters(startingFrom: current.interface.withLock { $0 }) }
        Task {
            do {
                for try await item in news { post(item, current: current) }
            } catch OrientdClientError.serverError(_, let message) {
                inbox.post(.fatal("orientd refused the subscription: \(message)"))
            } catch {
                inbox.post(.fatal("\(error)"))
            }
        }
    }

    /// The interface orientation last heard, shared with the subscription's thread.
    private final class Current: Sendable {
        let interface = Mutex<InterfaceOrientation?>(nil)
    }

    private func parameters(startingFrom current: InterfaceOrientation?) -> SubscribeParameters {
        var preferred = supported
        if let current, let index = preferred.firstIndex(of: current) { preferred.insert(preferred.remove(at: index), at: 0) }
        return SubscribeParameters(events: [.interfaceOrientationDidChange] + (tabletMode ? [.tabletModeDidChange] : []),
                                   supportedInterfaceOrientations: preferred)
    }

    private func post(_ news: SubscriptionNews, current: Current) {
        switch news {
        case .subscribed(let result):
            let interface = result.interfaceOrientation ?? supported[0]
            current.interface.withLock { $0 = interface }
            inbox.post(.rotator(.subscribed(interface, tabletMode: tabletMode ? result.tabletMode : nil)))
            if tabletMode, result.tabletMode == nil {
                Output.error("orientctl rotate: orientd cannot tell tablet mode yet (\(result.hingeProblem ?? "no hinge reading")); the screen stays upright until it can")
            }
        case .event(.interfaceOrientationDidChange(let change)):
            current.interface.withLock { $0 = change.interfaceOrientation }
            inbox.post(.rotator(.interfaceOrientationChanged(change.interfaceOrientation)))
        case .event(.tabletModeDidChange(let change)):
            inbox.post(.rotator(.tabletModeChanged(change.tabletMode)))
        case .event:
            break
        case .lost(let reason):
            inbox.post(.rotator(.orientdGone(reason: reason)))
        }
    }
}
