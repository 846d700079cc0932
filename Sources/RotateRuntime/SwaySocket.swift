import Glibc

/// Where sway listens. `$SWAYSOCK` first; when that socket is gone (or left behind by a sway that
/// died), the socket of this user's one other running sway in `$XDG_RUNTIME_DIR`: a sway that
/// restarts names its socket after its new process id (`sway-ipc.UID.PID.sock`), and programs
/// started before keep the old path. With two or more other sways running (a nested one, another
/// seat) it cannot tell which is this session's, and waits instead.
package struct SwaySocket {
    package let configuredPath: String
    package let runtimeDirectory: String?

    package init(configuredPath: String, runtimeDirectory: String?) {
        (self.configuredPath, self.runtimeDirectory) = (configuredPath, runtimeDirectory)
    }

    /// Connects to `$SWAYSOCK`, or to the one other sway when that is gone; the error is the one
    /// for `$SWAYSOCK`.
    package func connect(timeout: Double = 5) throws(BackendFailure) -> SwayIPC {
        do {
            return try SwayIPC(socketPath: configuredPath, timeout: timeout)
        } catch {
            // A sway that is there but slow is this session's: wait for it, not for another.
            guard error.code == ENOENT || error.code == ECONNREFUSED else { throw error }
            let others = otherSways()
            guard others.count == 1, let restarted = try? SwayIPC(socketPath: others[0], timeout: timeout) else { throw error }
            return restarted
        }
    }

    /// The sockets of this user's other sways still running, in the runtime directory.
    package func otherSways() -> [String] {
        guard let runtimeDirectory, let directory = opendir(runtimeDirectory) else { return [] }
        defer { closedir(directory) }
        let prefix = "sway-ipc.\(getuid())."
        var found: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix(prefix), name.hasSuffix(".sock"),
                  let pid = pid_t(name.dropFirst(prefix.count).dropLast(".sock".count)), pid > 0, kill(pid, 0) == 0 || errno == EPERM
            else { continue }
            let path = runtimeDirectory + "/" + name
            var info = stat()
            guard path != configuredPath, lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == getuid() else { continue }
            found.append(path)
        }
        return found
    }
}
