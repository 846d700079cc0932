import Glibc

/// Where sway listens. `$SWAYSOCK` first; when nothing answers there, the newest socket of this
/// user's sway in `$XDG_RUNTIME_DIR`: a sway that restarts names its socket after its new
/// process id (`sway-ipc.UID.PID.sock`), and programs started before keep the old path.
struct SwaySocket {
    let configuredPath: String
    let runtimeDirectory: String?

    /// Connects to the first place that answers; the error is the one for `$SWAYSOCK`.
    func connect(timeout: Double = 5) throws(BackendFailure) -> SwayIPC {
        var firstFailure: BackendFailure?
        for path in candidates() {
            do {
                return try SwayIPC(socketPath: path, timeout: timeout)
            } catch {
                firstFailure = firstFailure ?? error
            }
        }
        throw firstFailure ?? BackendFailure(description: "sway is not answering at \(configuredPath)", compositorGone: true)
    }

    /// `$SWAYSOCK`, then this user's other sway sockets, newest first.
    func candidates() -> [String] {
        guard let runtimeDirectory, let directory = opendir(runtimeDirectory) else { return [configuredPath] }
        defer { closedir(directory) }
        let prefix = "sway-ipc.\(getuid())."
        var found: [(path: String, changed: Int)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix(prefix), name.hasSuffix(".sock") else { continue }
            let path = runtimeDirectory + "/" + name
            var info = stat()
            guard path != configuredPath, lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK, info.st_uid == getuid() else { continue }
            found.append((path, info.st_mtim.tv_sec))
        }
        return [configuredPath] + found.sorted { $0.changed > $1.changed }.map(\.path)
    }
}
