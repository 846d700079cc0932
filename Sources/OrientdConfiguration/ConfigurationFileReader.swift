#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a config file (the main one or a drop-in) without ever waiting or reading without bound: whatever `--config`
/// names (a FIFO with no writer, a device, a directory, a huge log), orientd answers at once.
/// A symbolic link is followed (an /etc/orientd.conf managed elsewhere is common), but what it
/// leads to must be a regular file of at most `maximumBytes`; /dev/null reads as an empty file.
enum ConfigurationFileReader {
    #if os(Linux)
    /// O_PATH, which Glibc's Swift module hides behind _GNU_SOURCE.
    private static let openNameOnly: Int32 = 0o10000000
    #else
    private static let openNameOnly: Int32 = O_RDONLY | O_NONBLOCK | O_NOCTTY
    #endif

    /// The file's bytes; nil when there is no such file.
    static func bytes(at path: String, maximumBytes: Int) throws(ConfigurationProblem) -> [UInt8]? {
        // Looked at before it is opened for reading: opening a device or a FIFO can itself block
        // or act. O_PATH opens nothing but the name, and what it found is what is read after:
        // the file is reopened through that descriptor (/proc/self/fd), not through the path.
        let found = open(path, openNameOnly | O_CLOEXEC)
        guard found >= 0 else {
            let error = errno
            if error == ENOENT { return nil }
            throw ConfigurationProblem(origin: path, line: nil, reason: "cannot read it: \(describe(errno: error))")
        }
        defer { close(found) }
        var status = stat()
        guard fstat(found, &status) == 0 else {
            throw ConfigurationProblem(origin: path, line: nil, reason: "cannot read it: \(describe(errno: errno))")
        }
        if isNullDevice(status) { return [] }
        try check(status, path: path, maximumBytes: maximumBytes)

        // O_NONBLOCK all the same: never wait for a writer, whatever happens.
        let descriptor = open("/proc/self/fd/\(found)", O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw ConfigurationProblem(origin: path, line: nil, reason: "cannot read it: \(describe(errno: errno))")
        }
        defer { close(descriptor) }
        var opened = stat()
        guard fstat(descriptor, &opened) == 0, opened.st_dev == status.st_dev, opened.st_ino == status.st_ino else {
            throw ConfigurationProblem(origin: path, line: nil, reason: "cannot read it: it changed while it was being opened")
        }
        try check(opened, path: path, maximumBytes: maximumBytes)

        // At most one byte more than allowed: a file that grew since fstat is still caught.
        var bytes = [UInt8](repeating: 0, count: maximumBytes + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw ConfigurationProblem(origin: path, line: nil, reason: "cannot read it: \(describe(errno: errno))")
            }
            if got == 0 { break }
            count += got
        }
        guard count <= maximumBytes else { throw tooLarge(path, maximumBytes: maximumBytes) }
        return Array(bytes.prefix(count))
    }

    private static func check(_ status: stat, path: String, maximumBytes: Int) throws(ConfigurationProblem) {
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else {
            throw ConfigurationProblem(origin: path, line: nil, reason: "not a regular file but \(describe(kind: kind)); a config file is a regular file or a link to one")
        }
        guard status.st_size <= maximumBytes else { throw tooLarge(path, maximumBytes: maximumBytes) }
    }

    private static func tooLarge(_ path: String, maximumBytes: Int) -> ConfigurationProblem {
        ConfigurationProblem(origin: path, line: nil, reason: "larger than \(maximumBytes / 1024) KiB; is this the config file?")
    }

    /// /dev/null (or a node of the same device) stands for an empty config.
    private static func isNullDevice(_ status: stat) -> Bool {
        var null = stat()
        return status.st_mode & S_IFMT == S_IFCHR && stat("/dev/null", &null) == 0
            && null.st_mode & S_IFMT == S_IFCHR && null.st_rdev == status.st_rdev
    }

    private static func describe(kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }

    private static func describe(errno error: Int32) -> String {
        String(cString: strerror(error))
    }
}
