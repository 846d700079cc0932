import DaemonThreads
import Glibc
import OrientdProtocol

/// Watches sway on a thread of its own: its output events (someone changed the outputs, a monitor
/// came or went; sway 1.8 and later), a `reload` of its config, and its end (sway quit or restarts). Reconnects with a growing delay (0.25 s to
/// 2 s: one connect() on a Unix socket, a small price for turning a restarted sway soon) and says
/// when sway is back, so the screen is turned again.
package struct SwayWatcher {
    package let socket: SwaySocket
    package let inbox: RotateInbox

    package init(socket: SwaySocket, inbox: RotateInbox) {
        (self.socket, self.inbox) = (socket, inbox)
    }

    package func start() {
        FeedThread().start(name: "orientctl-sway") { watch() }
    }

    private func watch() {
        var delay = 0.25
        var wasThere = false
        while true {
            do throws(BackendFailure) {
                let sway = try socket.connect()
                try subscribe(sway)
                sway.waitForEvents()
                if !wasThere { inbox.post(.rotator(.compositorBack)) }
                wasThere = true
                delay = 0.25
                while true {
                    let (type, payload) = try sway.receive()
                    if type == SwayIPC.outputEvent { inbox.post(.outputsChanged) }
                    // Workspace events come at every switch: decode only one that may be a reload.
                    if type == SwayIPC.workspaceEvent, payload.count < 65536, Self.mentionsReload(payload),
                       Wire.decode(payload)?["change"] == .string("reload") {
                        inbox.post(.rotator(.compositorReset))
                    }
                    if type == SwayIPC.shutdownEvent { break }
                }
                inbox.post(.rotator(.compositorGone(reason: "sway is shutting down")))
                wasThere = false
            } catch {
                if wasThere { inbox.post(.rotator(.compositorGone(reason: error.description))) }
                wasThere = false
            }
            usleep(UInt32(delay * 1_000_000))
            delay = min(delay * 2, 2)
        }
    }

    private static let reload = Array("\"reload\"".utf8)

    private static func mentionsReload(_ payload: [UInt8]) -> Bool {
        payload.count >= reload.count && (0...(payload.count - reload.count)).contains { payload[$0..<($0 + reload.count)].elementsEqual(reload) }
    }

    /// Output events came with sway 1.8; an older sway refuses the whole subscription for them,
    /// and is then asked for the others alone. A reload comes as a workspace event.
    private func subscribe(_ sway: SwayIPC) throws(BackendFailure) {
        for events in [#"["output","workspace","shutdown"]"#, #"["workspace","shutdown"]"#] {
            if try sway.request(.subscribe, events)["success"] == .bool(true) { return }
        }
        throw BackendFailure(description: "sway at \(sway.socketPath) refused to send its events", compositorGone: false)
    }
}
