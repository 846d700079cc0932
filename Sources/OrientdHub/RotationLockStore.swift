import Foundation
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
public struct RotationLockStore: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The saved lock; unlocked when there is no file; nil when the file is torn, corrupt or
    /// unreadable, which is reported and ignored: it never keeps the daemon from starting.
    public func load(logger: Logger) -> RotationLock? {
        guard FileManager.default.fileExists(atPath: path) else { return .unlocked }
        guard let data = FileManager.default.contents(atPath: path) else {
            logger.warning("cannot read the rotation-lock state in \(path); starting unlocked (check the file's permissions)")
            return nil
        }
        guard let lock = try? JSONDecoder().decode(RotationLock.self, from: data) else {
            let shown = String(decoding: data.prefix(80), as: UTF8.self).debugDescription
            logger.warning("ignoring the rotation-lock state in \(path): it is not valid (\(shown)); starting unlocked, the next lock or unlock rewrites it")
            return nil
        }
        return lock
    }

    /// Writes a new file beside the old one (a name of its own), syncs it, renames it over the old
    /// one and syncs the directory.
    public func save(_ lock: RotationLock) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var template = Array((path + ".XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw StateFileError(path: path + ".XXXXXX", errno: errno) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let bytes = Wire.line(lock)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let writeError = errno
        let synced = written == bytes.count && fchmod(descriptor, 0o644) == 0 && fsync(descriptor) == 0
        let syncError = errno
        close(descriptor)
        guard synced else {
            unlink(temporary)
            throw StateFileError(path: temporary, errno: written == bytes.count ? syncError : writeError)
        }
        guard rename(temporary, path) == 0 else {
            let renameError = errno
            unlink(temporary)
            throw StateFileError(path: path, errno: renameError)
        }
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }
}

struct StateFileError: Error, CustomStringConvertible {
    let path: String
    let errno: Int32
    var description: String { "cannot write \(path): \(String(cString: strerror(errno)))" }
}
