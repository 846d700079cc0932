/// logind as orientd hears it: a process that owns org.freedesktop.login1 on a private system bus
/// and sends `PrepareForSleep` when told to (python3-dbus; no real suspend involved).
public final class FakeLogind: @unchecked Sendable {
    private let process: ChildProcess
    private var sent = 0

    private static let script = """
        import sys, dbus, dbus.lowlevel
        bus = dbus.bus.BusConnection(sys.argv[1])
        bus.request_name("org.freedesktop.login1")
        print("ready", flush=True)
        for line in sys.stdin:
            signal = dbus.lowlevel.SignalMessage("/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep")
            signal.append(line.strip() == "sleep", signature="b")
            bus.send_message(signal)
            bus.flush()
            print("sent", flush=True)
        """

    public init(on bus: PrivateSystemBus) throws {
        process = try ChildProcess("/usr/bin/python3", ["-c", Self.script, "unix:path=\(bus.socketPath)"],
                                   standardError: bus.directory + "/logind.log", writableInput: true)
        guard process.waitForLines(1, timeout: 10) else { throw HarnessError("the fake logind did not start; see \(bus.directory)/logind.log") }
    }

    /// The system is about to sleep.
    public func sleep() throws { try send("sleep") }

    /// The system woke.
    public func resume() throws { try send("resume") }

    private func send(_ word: String) throws {
        process.writeInput(word + "\n")
        sent += 1
        guard process.waitForLines(1 + sent, timeout: 10) else { throw HarnessError("the fake logind did not send PrepareForSleep") }
    }
}
