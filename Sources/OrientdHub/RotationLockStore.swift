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

    /// The saved lock; unlocked when there is no file. A torn or corrupt file is reported and
    /// ignored: it never keeps the daemon from starting.
    public func load(logger: Logger) -> RotationLock {
        guard let data = FileManager.default.contents(atPath: path) else { return .unlocked }
        guard let lock = try? JSONDecoder().decode(RotationLock.self, from: data) else {
            let shown = String(decoding: data.prefix(80), as: UTF8.self).debugDescription
            logger.warning("ignoring the rotation-lock state in \(path): it is not valid (\(shown)); starting unlocked, the next lock or unlock rewrites it")
            return .unlocked
        }
        return lock
    }

    public func save(_ lock: RotationLock) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = path + ".new"
        let bytes = Wire.line(lock)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw StateFileError(path: temporary, errno: errno) }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == bytes.count, synced == 0 else {
            let error = StateFileError(path: temporary, errno: errno)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else { throw StateFileError(path: path, errno: errno) }
    }
}

struct StateFileError: Error, CustomStringConvertible {
    let path: String
    let errno: Int32
    var description: String { "cannot write \(path): \(String(cString: strerror(errno)))" }
}
