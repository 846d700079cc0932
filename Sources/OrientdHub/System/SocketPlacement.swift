import Glibc

/// Puts the listening socket at its path without a moment where another user could redirect
/// what orientd (often root) does there. The directory is opened once and checked through its
/// descriptor: it must belong to root or orientd's user and be writable by no one else (or be
/// sticky, like /tmp, where no one may replace another's file). The socket is bound in a private
/// directory made inside it, given its mode there and renamed into place, every step relative to
/// those descriptors, so no `chmod` goes through a path someone else could swap for a symlink.
/// What stands at the path already must be a socket (a stale one is replaced); anything else is
/// refused. (The listening socket keeps the private name it was bound under, which clients never
/// need: they connect to `path`.)
struct SocketPlacement {
    /// The socket's name inside the private directory.
    static let privateName = "s"
    /// How much longer the private path is than `path`, at most.
    static let extraLength = ".orientd.".utf8.count + String(UInt32.max, radix: 36).utf8.count + "/".utf8.count + privateName.utf8.count

    let path: String
    private let directory: String
    private let name: String
    private let directoryDescriptor: Int32
    /// The private directory's name and descriptor, once made.
    private var privateDirectory: (name: String, descriptor: Int32)?

    init(_ path: String) throws(HubError) {
        self.path = path
        let place = PathInDirectory(path)
        directory = place.directory
        name = place.name
        guard !name.isEmpty else { throw HubError("cannot listen on \(path): it names a directory, not a socket") }
        directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directoryDescriptor >= 0 else {
            let reason = errno == ENOENT ? "the directory \(directory) does not exist" : "\(directory): \(String(cString: strerror(errno)))"
            throw HubError("cannot listen on \(path): \(reason)")
        }
        if let problem = Self.problem(withDirectory: directoryDescriptor, named: directory) {
            close(directoryDescriptor)
            throw HubError("refusing to listen on \(path): \(problem)")
        }
    }

    /// Why the directory open as `descriptor` is not safe to put the socket in, if it is not.
    static func problem(withDirectory descriptor: Int32, named directory: String) -> String? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return "cannot examine \(directory): \(String(cString: strerror(errno)))" }
        return TrustedDirectory.problem(mode: status.st_mode, owner: status.st_uid, user: geteuid()).map {
            "its directory \(directory) \($0); choose a --socket in a directory only orientd's user can write, such as /run"
        }
    }

    /// Makes the private directory the socket is bound in (mode 0700, orientd's); returns the path
    /// to bind.
    mutating func makePrivateDirectory() throws(HubError) -> String {
        for _ in 0..<100 {
            let candidate = ".orientd." + String(UInt32.random(in: 0...UInt32.max), radix: 36)
            guard mkdirat(directoryDescriptor, candidate, 0o700) == 0 else {
                if errno == EEXIST { continue }
                throw HubError("cannot listen on \(path): cannot create a private directory in \(directory): \(String(cString: strerror(errno)))")
            }
            let descriptor = openat(directoryDescriptor, candidate, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            var status = stat()
            guard descriptor >= 0, fstat(descriptor, &status) == 0, status.st_uid == geteuid(), status.st_mode & 0o077 == 0 else {
                if descriptor >= 0 { close(descriptor) }
                throw HubError("cannot listen on \(path): the private directory made in \(directory) was replaced; is someone else writing there?")
            }
            privateDirectory = (candidate, descriptor)
            return directory + "/" + candidate + "/" + Self.privateName
        }
        throw HubError("cannot listen on \(path): cannot find a free name for a private directory in \(directory)")
    }

    /// Opens the socket bound in the private directory to every local user and moves it to `path`.
    func publish() throws(HubError) {
        guard let privateDirectory else { throw HubError("cannot listen on \(path): no private directory") }
        // Only orientd can write in its private directory: the name there is the socket it bound.
        var bound = stat()
        guard fstatat(privateDirectory.descriptor, Self.privateName, &bound, AT_SYMLINK_NOFOLLOW) == 0,
              bound.st_mode & S_IFMT == S_IFSOCK,
              fchmodat(privateDirectory.descriptor, Self.privateName, 0o666, 0) == 0
        else {
            throw HubError("cannot make \(path) usable by every user: \(String(cString: strerror(errno)))")
        }
        var existing = stat()
        if fstatat(directoryDescriptor, name, &existing, AT_SYMLINK_NOFOLLOW) == 0, existing.st_mode & S_IFMT != S_IFSOCK {
            throw HubError("cannot listen on \(path): something that is not a socket is in the way; remove it or choose another --socket")
        }
        guard renameat(privateDirectory.descriptor, Self.privateName, directoryDescriptor, name) == 0 else {
            throw HubError("cannot listen on \(path): cannot move the socket into place: \(String(cString: strerror(errno)))")
        }
    }

    /// Removes the private directory and whatever is left in it, and lets go of the directories.
    func finish() {
        if let privateDirectory {
            unlinkat(privateDirectory.descriptor, Self.privateName, 0)
            close(privateDirectory.descriptor)
            unlinkat(directoryDescriptor, privateDirectory.name, AT_REMOVEDIR)
        }
        close(directoryDescriptor)
    }
}
