import COrientdShim
import Glibc
import DaemonThreads
import OrientationCore
import OrientdProtocol

/// Who is behind a name on the system bus, for `status` and the log: the pid the bus daemon
/// vouches for (not what the client says of itself), and that process's command line. A client's
/// is asked once while it claims, and forgotten once it no longer does; on orientd's event thread.
final class BusPeers {
    private var known: [String: BusPeer] = [:]

    /// The process behind `name`; just the name when the bus cannot tell (it left already).
    func peer(_ name: String, on bus: OpaquePointer) -> BusPeer {
        if let peer = known[name] { return peer }
        let peer = Self.resolve(name, on: bus)
        // A well-known name's owner changes: only unique names (":1.42") are kept.
        if name.hasPrefix(":") { known[name] = peer }
        return peer
    }

    /// Forgets every name but these (the clients that claim now).
    func keepOnly(_ names: Set<String>) {
        known = known.filter { names.contains($0.key) }
    }

    private static func resolve(_ name: String, on bus: OpaquePointer) -> BusPeer {
        var pid: Int32 = 0
        var unique = [CChar](repeating: 0, count: 256)
        guard orientd_bus_name_pid(bus, name, &pid, &unique, unique.count) >= 0, pid > 0 else { return BusPeer(busName: name) }
        let busName = String(cText: unique)
        return BusPeer(busName: busName.isEmpty ? name : busName, pid: Int(pid), command: command(of: pid))
    }

    /// /proc/PID/cmdline, its arguments joined by spaces, at most 120 printable characters.
    static func command(of pid: Int32) -> String? {
        let descriptor = open("/proc/\(pid)/cmdline", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        let arguments = buffer[..<count].split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        let line = arguments.joined(separator: " ")
        return line.isEmpty ? nil : printableExcerpt(line, limit: 120)
    }
}
