import Glibc

/// Puts the listening socket at its path without a moment where another user could redirect
/// what orientd (often root) does there: the directory must be writable by no one else (or be
/// sticky, like /tmp, where no one may replace another's file); the socket is bound in a private
/// directory beside the path, given its mode there, and renamed into place, so no `chmod` ever
/// goes through a path someone else could swap for a symlink. What stands at the path already
/// must be a socket (a stale one is replaced); anything else is refused.
struct SocketPlacement {
    /// The socket's name inside the private directory.
    static let privateName = "s"
    /// How much longer the private path is than the final one's directory part plus name at most.
    static let extraLength = ".orientd.XXXXXX/".utf8.count + privateName.utf8.count

    let path: String
    let directory: String
    private var privateDirectory: String?

    init(_ path: String) throws(HubError) {
        self.path = path
        let slash = path.lastIndex(of: "/")
        directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        try Self.checkDirectory(directory, for: path)
    }

    /// Refuses a directory that another user could write to (or that is not a directory).
    static func checkDirectory(_ directory: String, for path: String) throws(HubError) {
        var status = stat()
        guard stat(directory, &status) == 0 else {
            let reason = errno == ENOENT ? "the directory \(directory) does not exist" : String(cString: strerror(errno))
            throw HubError("cannot listen on \(path): \(reason)")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw HubError("cannot listen on \(path): \(directory) is not a directory")
        }
        let owner = status.st_uid
        guard owner == 0 || owner == geteuid() else {
            throw HubError("refusing to listen on \(path): its directory \(directory) belongs to uid \(owner), who could "
                + "replace the socket; choose a --socket in a directory owned by root or by orientd's user")
        }
        let writableByOthers = status.st_mode & (S_IWGRP | S_IWOTH) != 0
        let sticky = status.st_mode & S_ISVTX != 0
        guard !writableByOthers || sticky else {
            throw HubError("refusing to listen on \(path): its directory \(directory) is writable by other users "
                + "(mode \(String(status.st_mode & 0o7777, radix: 8))), who could swap the socket for a symlink; "
                + "choose a --socket in a directory only orientd's user can write (such as /run), or make it sticky")
        }
    }

    /// Makes the private directory the socket is bound in; returns its path.
    mutating func makePrivateDirectory() throws(HubError) -> String {
        var template = Array((directory + "/.orientd.XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw HubError("cannot listen on \(path): cannot create a private directory in \(directory): \(String(cString: strerror(errno)))")
        }
        let created = String(cString: made)
        privateDirectory = created
        return created
    }

    /// Opens the socket at `privatePath` to every local user and moves it to `path`.
    func publish(_ privatePath: String) throws(HubError) {
        guard chmod(privatePath, 0o666) == 0 else {
            throw HubError("cannot make \(path) usable by every user: \(String(cString: strerror(errno)))")
        }
        var existing = stat()
        if lstat(path, &existing) == 0, existing.st_mode & S_IFMT != S_IFSOCK {
            throw HubError("cannot listen on \(path): something that is not a socket is in the way; remove it or choose another --socket")
        }
        guard rename(privatePath, path) == 0 else {
            throw HubError("cannot listen on \(path): cannot move the socket into place: \(String(cString: strerror(errno)))")
        }
    }

    /// Removes the private directory and whatever is left in it.
    func removePrivateDirectory() {
        guard let privateDirectory else { return }
        unlink(privateDirectory + "/" + Self.privateName)
        rmdir(privateDirectory)
    }
}
