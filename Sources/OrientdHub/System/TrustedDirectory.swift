import Glibc

/// Whether orientd (often root) may create files in a directory without another user being able
/// to swap them under it: the directory must belong to orientd's user or root, and be writable by
/// nobody else, unless it is sticky (like /tmp: nobody may replace another's file there). Used for
/// the socket's directory and the state file's.
enum TrustedDirectory {
    /// Why the directory (its mode and owner, `user` being orientd's) is refused, as words that
    /// follow its name, or nil.
    static func problem(mode: mode_t, owner: uid_t, user: uid_t) -> String? {
        if mode & S_IFMT != S_IFDIR { return "is not a directory" }
        if owner != user && owner != 0 { return "belongs to another user (uid \(owner)); it must belong to orientd's user or root" }
        if mode & (S_IWGRP | S_IWOTH) != 0 && mode & S_ISVTX == 0 {
            return "is writable by other users and has no sticky bit, so they could replace what orientd puts there (chmod go-w it)"
        }
        return nil
    }
}

/// A file's path as its directory and its name within it ("/run/orientd.sock": "/run",
/// "orientd.sock"; a bare name is in "."), for the calls that work relative to a directory.
struct PathInDirectory {
    let directory: String
    let name: String

    init(_ path: String) {
        let slash = path.lastIndex(of: "/")
        directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    }
}
