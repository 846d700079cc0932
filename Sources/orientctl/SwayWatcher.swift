import Foundation

/// Watches sway on a thread of its own: its output events (someone changed the outputs, a monitor
/// came or went) and its end (sway quit or restarts). Reconnects with a growing delay (0.25 s to
/// 2 s: one connect() on a Unix socket, a small price for turning a restarted sway soon) and says
/// when sway is back, so the screen is turned again.
struct SwayWatcher {
    let socketPath: String
    let inbox: RotateInbox

    func start() {
        Thread.detachNewThread { watch() }
    }

    private func watch() {
        var delay = 0.25
        var wasThere = false
        while true {
            do throws(BackendFailure) {
                let sway = try SwayIPC(socketPath: socketPath, timeout: nil)
                try subscribe(sway)
                if !wasThere { inbox.post(.rotator(.compositorBack)) }
                wasThere = true
                delay = 0.25
                while true {
                    let (type, _) = try sway.receive()
                    if type == SwayIPC.outputEvent { inbox.post(.outputsChanged) }
                    if type == SwayIPC.shutdownEvent { break }
                }
                inbox.post(.rotator(.compositorGone(reason: "sway is shutting down")))
                wasThere = false
            } catch {
                if wasThere { inbox.post(.rotator(.compositorGone(reason: error.description))) }
                wasThere = false
            }
            Thread.sleep(forTimeInterval: delay)
            delay = min(delay * 2, 2)
        }
    }

    /// Output events came with sway 1.8; an older sway refuses the whole subscription for them,
    /// and is then asked for its shutdown alone.
    private func subscribe(_ sway: SwayIPC) throws(BackendFailure) {
        for events in [#"["output","shutdown"]"#, #"["shutdown"]"#] {
            if try sway.request(.subscribe, events)["success"] == .bool(true) { return }
        }
        throw BackendFailure(description: "sway at \(socketPath) refused to report its shutdown", compositorGone: false)
    }
}
