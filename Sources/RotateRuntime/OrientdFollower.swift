import Foundation
import OrientdClient
import OrientationCore
import OrientdProtocol

/// Follows orientd's interface orientation (and tablet mode) on a thread of its own and posts
/// what it hears; reconnects with a growing delay (0.1 s to 2 s) whenever orientd goes away.
/// A new subscription names the interface orientation last heard first among the supported ones:
/// a restarted orientd that finds the device lying flat then starts from it, so the screen stays.
package struct OrientdFollower {
    package let socketPath: String?
    package let supported: [InterfaceOrientation]
    package let tabletMode: Bool
    package let inbox: RotateInbox

    package init(socketPath: String?, supported: [InterfaceOrientation], tabletMode: Bool, inbox: RotateInbox) {
        (self.socketPath, self.supported, self.tabletMode, self.inbox) = (socketPath, supported, tabletMode, inbox)
    }

    package func start() {
        Thread.detachNewThread { follow() }
    }

    private func parameters(startingFrom current: InterfaceOrientation?) -> [String: JSONValue] {
        var events: [EventKind] = [.interfaceOrientationDidChange]
        if tabletMode { events.append(.tabletModeDidChange) }
        var preferred = supported
        if let current, let index = preferred.firstIndex(of: current) { preferred.insert(preferred.remove(at: index), at: 0) }
        return [
            "events": .array(events.map { .string($0.rawValue) }),
            "supportedInterfaceOrientations": .array(preferred.map { .string($0.rawValue) }),
        ]
    }

    private func follow() {
        var delay = 0.1
        var reachable = true
        var current: InterfaceOrientation?
        while true {
            do throws(OrientdClientError) {
                let client = try OrientdClient(socketPath: socketPath)
                let result = try client.subscribe(parameters(startingFrom: current))
                let interface = result.interfaceOrientation ?? supported[0]
                current = interface
                inbox.post(.rotator(.subscribed(interface, tabletMode: tabletMode ? result.tabletMode : nil)))
                if tabletMode, result.tabletMode == nil {
                    Output.error("orientctl rotate: orientd cannot tell tablet mode yet (\(result.hingeProblem ?? "no hinge reading")); the screen stays upright until it can")
                }
                reachable = true
                delay = 0.1
                client.setReadTimeout(nil)
                while let event = try client.nextServerEvent() {
                    switch event {
                    case .interfaceOrientationDidChange(let change):
                        current = change.interfaceOrientation
                        inbox.post(.rotator(.interfaceOrientationChanged(change.interfaceOrientation)))
                    case .tabletModeDidChange(let change):
                        inbox.post(.rotator(.tabletModeChanged(change.tabletMode)))
                    default:
                        break
                    }
                }
                inbox.post(.rotator(.orientdGone(reason: "orientd closed the connection")))
                reachable = false
            } catch .serverError(let code, let message) where code == ProtocolError.Code.invalidParameters.rawValue {
                inbox.post(.fatal("orientd refused the subscription: \(message)"))
                return
            } catch {
                if reachable { inbox.post(.rotator(.orientdGone(reason: error.description))) }
                reachable = false
            }
            Thread.sleep(forTimeInterval: delay)
            delay = min(delay * 2, 2)
        }
    }
}
