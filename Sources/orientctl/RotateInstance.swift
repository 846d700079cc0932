import Glibc

/// One `orientctl rotate` per display of a session: the newest takes over from the one before
/// (which gets SIGTERM), so a compositor that restarts and starts it again, or the user service
/// beside an `exec` line, never leaves two turning the same screen (and running the hook twice).
/// The lock is a file in `$XDG_RUNTIME_DIR`, which only its user can write; without that
/// directory there is no lock.
enum RotateInstance {
    /// Takes the lock for the session's display, stopping its holder, and holds it until this
    /// process ends (its descriptor stays open). Nothing without a runtime directory.
    static func takeOver(environment: [String: String]) throws {
        guard let directory = environment["XDG_RUNTIME_DIR"], directory.hasPrefix("/") else { return }
        let display = environment["WAYLAND_DISPLAY"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["DISPLAY"] ?? ""
        let path = directory + "/orientctl-rotate." + safeName(display.isEmpty ? "none" : display) + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw ClientFailure(message: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let holder = readPID(descriptor)
            // The pid may be a dead instance's, since reused: only an orientctl gets the signal.
            if let holder, holder != getpid(), isOrientctl(holder) {
                Output.error("orientctl rotate: taking over from the orientctl rotate already running for this display (pid \(holder))")
                kill(holder, SIGTERM)
            }
            var waited = 0
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                guard waited < 50 else {
                    close(descriptor)
                    throw ClientFailure(message: "another orientctl rotate\(holder.map { " (pid \($0))" } ?? "") holds \(path) and did not stop")
                }
                usleep(100_000)
                waited += 1
            }
        }
        let pid = Array("\(getpid())\n".utf8)
        ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    private static func readPID(_ descriptor: Int32) -> pid_t? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: bytes.prefix(count), as: UTF8.self).split(separator: "\n").first ?? ""
        return pid_t(text).flatMap { $0 > 1 ? $0 : nil }
    }

    private static func isOrientctl(_ pid: pid_t) -> Bool {
        guard let file = fopen("/proc/\(pid)/comm", "re") else { return false }
        defer { fclose(file) }
        var name = [CChar](repeating: 0, count: 32)
        guard fgets(&name, Int32(name.count), file) != nil else { return false }
        return String(cString: name).hasPrefix("orientctl")
    }

    /// A display name as part of a file name: `:0` becomes `_0`.
    private static func safeName(_ text: String) -> String {
        String(text.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "_" })
    }
}
