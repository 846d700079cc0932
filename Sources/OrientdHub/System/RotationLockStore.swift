import Glibc
import Logging
import OrientationCore
import OrientdProtocol

/// Whether the interface orientation is locked, and the device orientation it was locked in.
public struct RotationLock: Codable, Equatable, Sendable {
    public var locked: Bool
    /// The in-plane device orientation that drives interfaces while locked; nil if none was known.
    public var orientation: Orientation?

    public static let unlocked = RotationLock(locked: false, orientation: nil)
}

/// Keeps the rotation lock across restarts in a small JSON file, replaced atomically (written
/// beside, synced, renamed over), so a crash leaves either the old state or the new one.
///
/// orientd runs as root and the file's directory may be reachable by others, so nothing here
/// follows a symbolic link: the directory must be a real directory, owned by orientd's user (or
/// root) and writable by no one else unless it has the sticky bit; the file is opened with
/// O_NOFOLLOW and read, written and renamed relative to the directory's descriptor. What the file
/// holds is never written to the log. Temporaries (`state.json.XXXXXX`) left by a save that was
/// interrupted are removed when the store is loaded.
public struct RotationLockStore: Sendable {
    public let path: String
    /// The file's directory and its name in it.
    let directory: String
    let name: String
    /// A real state file is some 50 bytes; anything much larger is not one.
    static let maximumBytes = 4096
    /// The random part of a temporary's name: `name` + "." + this many of `temporaryCharacters`.
    static let temporarySuffixLength = 6
    static let temporaryCharacters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    public init(path: String) {
        self.path = path
        let place = PathInDirectory(path)
        directory = place.directory
        name = place.name
    }

    /// The saved lock; unlocked when there is no file; nil when the file is torn, corrupt,
    /// unreadable or not to be trusted, which is reported and ignored: it never keeps the daemon
    /// from starting. Removes temporaries an interrupted save left behind first.
    public func load(logger: Logger) -> RotationLock? {
        let directoryDescriptor: Int32
        switch openDirectory(create: false) {
        case .success(let descriptor):
            directoryDescriptor = descriptor
        case .failure(let error) where error.errno == ENOENT:
            return .unlocked
        case .failure(let error):
            logger.error("\(error.description); starting unlocked, and a lock holds only until orientd restarts")
            return nil
        }
        defer { close(directoryDescriptor) }
        removeStaleTemporaries(in: directoryDescriptor, logger: logger)

        let descriptor = openat(directoryDescriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let error = errno
            if error == ENOENT { return .unlocked }
            if error == ELOOP {
                logger.warning("ignoring the rotation-lock state in \(path): it is a symbolic link, which orientd does not follow; starting unlocked, the next lock or unlock replaces the link with the file")
            } else {
                logger.warning("cannot read the rotation-lock state in \(path): \(String(cString: strerror(error))); starting unlocked (check the file's permissions)")
            }
            return nil
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            logger.warning("ignoring the rotation-lock state in \(path): it is not a regular file; starting unlocked")
            return nil
        }
        // In a sticky directory another user may have planted the file: only orientd's own counts.
        guard status.st_uid == geteuid() || status.st_uid == 0 else {
            logger.warning("ignoring the rotation-lock state in \(path): it belongs to uid \(status.st_uid), not to orientd's user; starting unlocked, the next lock or unlock replaces it")
            return nil
        }
        guard status.st_size <= Self.maximumBytes else {
            logger.warning("ignoring the rotation-lock state in \(path): it is not valid (\(status.st_size) bytes, far more than a state file holds); starting unlocked, the next lock or unlock rewrites it")
            return nil
        }
        var bytes = [UInt8](repeating: 0, count: Self.maximumBytes + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else {
                logger.warning("cannot read the rotation-lock state in \(path): \(String(cString: strerror(errno))); starting unlocked")
                return nil
            }
            if got == 0 { break }
            count += got
        }
        // Only the size is told: the file may not be what it claims, and the log is read by more
        // people than the file.
        guard count <= Self.maximumBytes, let lock = try? Wire.decode(bytes.prefix(count))?.decoded(as: RotationLock.self) else {
            logger.warning("ignoring the rotation-lock state in \(path): it is not valid JSON (\(count) bytes); starting unlocked, the next lock or unlock rewrites it")
            return nil
        }
        return lock
    }

    /// Writes a new file beside the old one (a name of its own), syncs it, renames it over the old
    /// one and syncs the directory, all relative to the directory's descriptor.
    public func save(_ lock: RotationLock) throws {
        let directoryDescriptor: Int32
        switch openDirectory(create: true) {
        case .success(let descriptor): directoryDescriptor = descriptor
        case .failure(let error): throw error
        }
        defer { close(directoryDescriptor) }
        var temporary = ""
        var descriptor: Int32 = -1
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            let suffix = (0..<Self.temporarySuffixLength).map { _ in Self.temporaryCharacters.randomElement(using: &generator)! }
            temporary = name + "." + String(decoding: suffix, as: UTF8.self)
            descriptor = openat(directoryDescriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw StateFileError(path: "\(directory)/\(temporary)", errno: errno) }
        let bytes = Wire.line(lock)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let writeError = errno
        let synced = written == bytes.count && fchmod(descriptor, 0o644) == 0 && fsync(descriptor) == 0
        let syncError = errno
        close(descriptor)
        guard synced else {
            unlinkat(directoryDescriptor, temporary, 0)
            throw StateFileError(path: "\(directory)/\(temporary)", errno: written == bytes.count ? syncError : writeError)
        }
        guard renameat(directoryDescriptor, temporary, directoryDescriptor, name) == 0 else {
            let renameError = errno
            unlinkat(directoryDescriptor, temporary, 0)
            throw StateFileError(path: path, errno: renameError)
        }
        fsync(directoryDescriptor)
    }

    /// The directory, opened without following a link, once it passes `TrustedDirectory.problem`;
    /// with `create`, a missing directory is made first (its parents too, as root-owned 0755).
    /// `mkdir -p` with mode 0755 for each directory made; failures show when the directory is opened.
    private static func makeDirectory(_ path: String) {
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += "/" + component
            _ = mkdir(prefix, 0o755)
        }
    }

    private func openDirectory(create: Bool) -> Result<Int32, StateFileError> {
        if create {
            var status = stat()
            if lstat(directory, &status) != 0, errno == ENOENT {
                Self.makeDirectory(directory)
            }
        }
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let error = errno
            var status = stat()
            if lstat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFLNK {
                return .failure(StateFileError(path: path, errno: ELOOP, reason: "its directory \(directory) is a symbolic link, which orientd does not follow (make it a real directory, writable only by orientd's user)"))
            }
            return .failure(StateFileError(path: path, errno: error))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let error = errno
            close(descriptor)
            return .failure(StateFileError(path: path, errno: error))
        }
        if let problem = TrustedDirectory.problem(mode: status.st_mode, owner: status.st_uid, user: geteuid()) {
            close(descriptor)
            return .failure(StateFileError(path: path, errno: EPERM, reason: "its directory \(directory) \(problem)"))
        }
        return .success(descriptor)
    }

    /// Removes `name.XXXXXX` temporaries a save left when orientd was killed before renaming:
    /// only regular files owned by orientd's user, never through a link.
    private func removeStaleTemporaries(in directoryDescriptor: Int32, logger: Logger) {
        let listing = dup(directoryDescriptor)
        guard listing >= 0, let stream = fdopendir(listing) else {
            if listing >= 0 { close(listing) }
            return
        }
        defer { closedir(stream) }
        var removed = 0
        while let entry = readdir(stream) {
            let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard Self.isTemporary(entryName, of: name) else { continue }
            var status = stat()
            guard fstatat(directoryDescriptor, entryName, &status, AT_SYMLINK_NOFOLLOW) == 0,
                  status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else { continue }
            if unlinkat(directoryDescriptor, entryName, 0) == 0 { removed += 1 }
        }
        if removed > 0 {
            logger.info("removed \(removed) temporary file\(removed == 1 ? "" : "s") (\(name).XXXXXX) left in \(directory) by a save that was interrupted")
        }
    }

    /// Whether `candidate` is a temporary of the state file `name`: the name, a dot, and exactly
    /// `temporarySuffixLength` letters or digits.
    static func isTemporary(_ candidate: String, of name: String) -> Bool {
        let bytes = Array(candidate.utf8), prefix = Array((name + ".").utf8)
        guard bytes.count == prefix.count + temporarySuffixLength, bytes.starts(with: prefix) else { return false }
        return bytes.dropFirst(prefix.count).allSatisfy { temporaryCharacters.contains($0) }
    }
}

/// When the state file's directory is not to be trusted: anyone who may replace its entries could
/// plant the file orientd reads, or a link where it writes.
struct StateFileError: Error, CustomStringConvertible {
    let path: String
    let errno: Int32
    var reason: String?

    init(path: String, errno: Int32, reason: String? = nil) {
        self.path = path
        self.errno = errno
        self.reason = reason
    }

    var description: String {
        if let reason { return "cannot keep the rotation lock in \(path): \(reason)" }
        return "cannot write \(path): \(String(cString: strerror(errno)))"
    }
}
