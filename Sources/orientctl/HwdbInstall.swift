import Foundation
import OrientationCore

/// `orientctl calibrate --install`: puts the entry into the local hwdb file, has udev reload it
/// and tell the sensor's new properties (`systemd-hwdb update`, `udevadm trigger`).
enum HwdbInstall {
    static let defaultFile = "/etc/udev/hwdb.d/61-sensor-local.hwdb"

    /// Writes `entry` into `path`, keeping its other entries, replacing an older one for the same
    /// match: a temporary file beside it renamed over it, so udev never reads half a file. A
    /// symlink is refused (root would write wherever it points).
    static func write(_ entry: HwdbEntry, to path: String) throws {
        var status = stat()
        var existing = ""
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT != S_IFLNK else {
                throw ClientFailure(message: "\(path) is a symbolic link; refusing to write through it. Remove it, or choose another file with --hwdb-file")
            }
            guard status.st_mode & S_IFMT == S_IFREG else { throw ClientFailure(message: "\(path) is not a regular file") }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ClientFailure(message: "cannot read \(path): \(String(cString: strerror(errno)))")
            }
            existing = String(decoding: data, as: UTF8.self)
        } else if errno != ENOENT {
            throw ClientFailure(message: "cannot look at \(path): \(String(cString: strerror(errno)))")
        }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            } catch {
                throw ClientFailure(message: "cannot create \(directory): \(error.localizedDescription)")
            }
        }
        let text = HwdbFile.putting(entry, into: existing)
        var template = Array(((directory.isEmpty ? "." : directory) + "/.61-sensor-local.hwdb.XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw ClientFailure(message: "cannot write in \(directory): \(String(cString: strerror(errno)))") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let synced = fchmod(descriptor, 0o644) == 0 && fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw ClientFailure(message: "cannot write \(path): \(reason)")
        }
    }

    /// Runs a program found on PATH, as a shell would; throws with its exit status when it fails.
    static func run(_ program: String, _ arguments: [String]) throws {
        guard let executable = lookUp(program) else {
            throw ClientFailure(message: "\(program) is not on PATH; run it yourself: \(([program] + arguments).joined(separator: " "))")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        do {
            try process.run()
        } catch {
            throw ClientFailure(message: "cannot run \(executable): \(error.localizedDescription)")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ClientFailure(message: "'\(([program] + arguments).joined(separator: " "))' failed with exit status \(process.terminationStatus)")
        }
    }

    static func lookUp(_ program: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
        return path.split(separator: ":").map { "\($0)/\(program)" }.first { access($0, X_OK) == 0 }
    }
}
