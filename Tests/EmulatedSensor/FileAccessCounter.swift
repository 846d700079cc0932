import Glibc

/// Counts the times files in one directory are opened, with inotify: how the tests see whether
/// orientd reads the emulated sensor's sysfs attributes, without touching orientd (and the
/// benchmark how often each daemon samples it).
public final class FileAccessCounter {
    private let descriptor: Int32
    private let counted: (String) -> Bool

    /// Watches `directory`; only files whose name passes `counted` count.
    public init(directory: String, counting counted: @escaping (String) -> Bool) throws {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0, inotify_add_watch(descriptor, directory, UInt32(IN_OPEN)) >= 0 else {
            throw EmulationError("cannot watch \(directory) with inotify: \(String(cString: strerror(errno)))")
        }
        self.counted = counted
    }

    deinit { close(descriptor) }

    /// The opens since the last call.
    public func take() -> Int {
        var opens = 0
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let length = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard length > 0 else { return opens }
            var offset = 0
            while offset < length {
                let (nameLength, name): (Int, String) = buffer.withUnsafeBytes { raw in
                    let event = raw.baseAddress!.advanced(by: offset).assumingMemoryBound(to: inotify_event.self)
                    let nameStart = raw.baseAddress!.advanced(by: offset + MemoryLayout<inotify_event>.size)
                    let nameLength = Int(event.pointee.len)
                    let name = nameLength > 0 ? String(cString: nameStart.assumingMemoryBound(to: CChar.self)) : ""
                    return (nameLength, name)
                }
                if counted(name) { opens += 1 }
                offset += MemoryLayout<inotify_event>.size + nameLength
            }
        }
    }
}
