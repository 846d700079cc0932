import Glibc

/// One `orientctl rotate` per display of a session: the newest takes over from the one before
/// (which gets SIGTERM), so a compositor that restarts and starts it again, or the user service
/// beside an `exec` line, never leaves two turning the same screen (and running the hook twice).
/// The lock is a file in `$XDG_RUNTIME_DIR`, taken only when that directory is this user's own
/// and no one else's to write (as systemd makes it); the holder's pid comes from the kernel
/// (F_GETLK), not from the file, and only an `orientctl rotate` is ever signalled.
package enum RotateInstance {
    /// Takes the lock for the session's display, stopping its holder, and holds it until this
    /// process ends (its descriptor stays open). Nothing without a private runtime directory.
    package static func takeOver(environment: [String: String]) throws {
        guard let directory = environment["XDG_RUNTIME_DIR"], directory.hasPrefix("/"), isPrivate(directory) else { return }
        let display = environment["WAYLAND_DISPLAY"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["DISPLAY"] ?? ""
        let path = directory + "/orientctl-rotate." + safeName(display.isEmpty ? "none" : display) + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw ClientFailure(message: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_uid == geteuid(), status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return
        }
        if !lock(descriptor) {
            if let holder = holder(of: descriptor), isRotate(holder) {
                Output.error("orientctl rotate: taking over from the orientctl rotate already running for this display (pid \(holder))")
                kill(holder, SIGTERM)
            }
            var waited = 0
            while !lock(descriptor) {
                guard waited < 50 else {
                    close(descriptor)
                    throw ClientFailure(message: "another process holds \(path) and did not let go within 5 s")
                }
                usleep(100_000)
                waited += 1
            }
        }
    }

    private static func lock(_ descriptor: Int32) -> Bool {
        var request = flock()
        request.l_type = Int16(F_WRLCK)
        request.l_whence = Int16(SEEK_SET)
        return fcntl(descriptor, F_SETLK, &request) == 0
    }

    /// The pid of the process holding the lock, as the kernel knows it.
    private static func holder(of descriptor: Int32) -> pid_t? {
        var request = flock()
        request.l_type = Int16(F_WRLCK)
        request.l_whence = Int16(SEEK_SET)
        guard fcntl(descriptor, F_GETLK, &request) == 0, request.l_type != Int16(F_UNLCK), request.l_pid > 0 else { return nil }
        return request.l_pid
    }

    /// A directory this user owns and no one else may write in.
    private static func isPrivate(_ directory: String) -> Bool {
        var status = stat()
        return lstat(directory, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR && status.st_uid == geteuid()
            && status.st_mode & 0o022 == 0
    }

    /// Whether `pid` runs `orientctl rotate`.
    private static func isRotate(_ pid: pid_t) -> Bool {
        guard let file = fopen("/proc/\(pid)/cmdline", "re") else { return false }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = fread(&bytes, 1, bytes.count, file)
        let arguments = bytes.prefix(count).split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        guard let program = arguments.first, program.hasSuffix("orientctl") else { return false }
        return arguments.dropFirst().contains("rotate")
    }

    /// A display name as part of a file name: `:0` becomes `_0`.
    private static func safeName(_ text: String) -> String {
        String(text.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "." ? $0 : "_" })
    }
}
