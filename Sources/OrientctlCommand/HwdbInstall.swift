import RotateRuntime
import Glibc
import OrientationCore

/// `orientctl calibrate --install`: puts the entry into the local hwdb file, has udev reload it
/// and tell the sensor's new properties (`systemd-hwdb update`, `udevadm trigger`).
enum HwdbInstall {
    static let defaultFile = "/etc/udev/hwdb.d/61-sensor-local.hwdb"

    /// Writes `entry` into `path`, keeping its other entries (see `HwdbFile`): a temporary file
    /// beside it renamed over it, so udev never reads half a file. The old file is read without
    /// following a symlink (root would copy whatever it points to), and one that is not UTF-8
    /// text is left alone rather than rewritten.
    static func write(_ entry: HwdbEntry, to path: String) throws {
        let existing = try readExisting(path)
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        if !directory.isEmpty, access(directory, F_OK) != 0, let failure = makeDirectories(directory) {
            throw ClientFailure(message: "cannot create \(directory): \(failure)")
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

    /// Makes `directory` and the ones above it that are missing, 0755 as udev's own; the reason
    /// when one cannot be made.
    private static func makeDirectories(_ directory: String) -> String? {
        var made = ""
        for component in directory.split(separator: "/", omittingEmptySubsequences: true) {
            made += (made.isEmpty && !directory.hasPrefix("/") ? "" : "/") + component
            if mkdir(made, 0o755) != 0 && errno != EEXIST { return String(cString: strerror(errno)) }
        }
        return nil
    }

    /// The file's text; "" when there is none.
    private static func readExisting(_ path: String) throws -> String {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT { return "" }
            if errno == ELOOP {
                throw ClientFailure(message: "\(path) is a symbolic link; refusing to write through it. Remove it, or choose another file with --hwdb-file")
            }
            throw ClientFailure(message: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw ClientFailure(message: "\(path) is not a regular file")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw ClientFailure(message: "cannot read \(path): \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            bytes += chunk.prefix(count)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ClientFailure(message: "\(path) is not UTF-8 text; leaving it alone. Put the entry below into it by hand, or choose another file with --hwdb-file")
        }
        return text
    }

    /// Runs a program found on PATH (its absolute directories only: root must not run a program
    /// from wherever it happens to be), as the rotate backends run theirs (`ToolProcess`), with
    /// its output on standard error (standard output may be --json's); returns that output too.
    /// Throws when it is missing, fails or takes more than `limit` seconds.
    @discardableResult
    static func run(_ program: String, _ arguments: [String], limit: Double = 60) throws -> String {
        let line = ([program] + arguments).joined(separator: " ")
        let environment = processEnvironment()
        let path = (environment["PATH"] ?? "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
            .split(separator: ":").filter { $0.hasPrefix("/") }.joined(separator: ":")
        guard !program.contains("/"), let executable = ToolProcess.locate(program, path: path) else {
            throw ClientFailure(message: "\(program) is not on PATH; run it yourself: \(line)")
        }
        switch ToolProcess.spawn(executable, [program] + arguments, environment: environment, timeout: limit) {
        case .finished(let result):
            let said = result.standardOutput + result.standardError
            if !said.isEmpty { Output.error(said.hasSuffix("\n") ? String(said.dropLast()) : said) }
            guard result.status == 0 else { throw ClientFailure(message: "'\(line)' failed with exit status \(result.status)") }
            return result.standardOutput
        case .timedOut:
            throw ClientFailure(message: "'\(line)' did not finish within \(Int(limit)) s")
        case .couldNotStart(let reason):
            throw ClientFailure(message: "cannot run \(executable): \(reason)")
        case .notFound:
            throw ClientFailure(message: "\(program) is not on PATH; run it yourself: \(line)")
        }
    }
}
