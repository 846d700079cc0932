import RotateRuntime
import ArgumentParser
import OrientdProtocol

struct Lock: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lock the rotation: freeze the interface orientation for every client.",
        discussion: """
            Device orientation events go on; interfaceOrientationDidChange events stop until \
            'orientctl unlock'. The lock survives a restart of orientd. Only root and members of \
            orientd's lock-group may change it. With --toggle, unlocks a locked rotation instead: \
            one command for a keyboard shortcut (sway: 'bindsym XF86RotationLockToggle exec \
            orientctl lock --toggle').
            """)

    @OptionGroup var options: ConnectionOptions
    @OptionGroup var output: JSONOption

    @Flag(help: "Unlock if the rotation is locked, lock it otherwise.")
    var toggle = false

    func run() throws {
        guard toggle else { return try setLock(.lock, options: options, json: output.json) }
        let (status, _) = try options.call(.status, as: StatusResult.self)
        try setLock(status.locked ? .unlock : .lock, options: options, json: output.json)
    }
}

/// Locks or unlocks (`lock`/`unlock` share it), and says whether the lock was saved.
func setLock(_ method: Method, options: ConnectionOptions, json printsJSON: Bool) throws {
    let (result, json) = try options.call(method, as: LockResult.self)
    if printsJSON {
        Output.line(ConnectionOptions.json(json))
        return
    }
    Output.line(method == .lock ? "rotation locked" : "rotation unlocked")
    if !result.persisted {
        Output.error("orientctl: warning: orientd could not save the lock; it holds until orientd restarts (see its log)")
    }
}
