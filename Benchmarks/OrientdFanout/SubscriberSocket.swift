import Foundation

/// One subscriber's connection to orientd as a plain socket: connected and subscribed with
/// blocking calls, one subscriber after another, then handed to the readers.
struct SubscriberSocket {
    enum Outcome {
        case subscribed(SubscriberSocket)
        /// orientd answered `subscribe` with an error (e.g. too-many-clients).
        case refused(String)
    }

    let descriptor: Int32

    /// Connects to `socketPath`, waits for the hello, subscribes and waits for the reply, each
    /// read waiting at most `timeout` seconds.
    static func subscribe(socketPath: String, timeout: Double) throws -> Outcome {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw FanoutFailure("socket: \(String(cString: strerror(errno)))") }
        var keep = false
        defer { if !keep { close(descriptor) } }
        try connect(descriptor, to: socketPath)
        var wait = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))

        var lines = BlockingLineReader(descriptor: descriptor)
        while try lines.next()?.event != "hello" {}
        try write(SubscribeRequest.line, to: descriptor)
        while let message = try lines.next() {
            if message.isResult(of: SubscribeRequest.id) {
                keep = true
                return .subscribed(SubscriberSocket(descriptor: descriptor))
            }
            if let code = message.errorCode { return .refused("\(code): \(message.errorMessage ?? "")") }
            // Anything else before the reply (a future event, say) is none of the benchmark's business.
        }
        throw FanoutFailure("the connection closed before the subscribe reply")
    }

    /// Retries while the listen backlog is full: a Unix-socket connect then fails with EAGAIN.
    private static func connect(_ descriptor: Int32, to path: String) throws {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw FanoutFailure("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
        for _ in 0..<1000 {
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if result == 0 { return }
            guard errno == EAGAIN else { break }
            sleep(seconds: 0.005)
        }
        throw FanoutFailure("cannot connect to \(path): \(String(cString: strerror(errno)))")
    }

    private static func write(_ text: String, to descriptor: Int32) throws {
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw FanoutFailure("cannot send subscribe: \(String(cString: strerror(errno)))") }
    }
}

/// Reads lines from a blocking socket, parsed as far as the benchmark needs.
private struct BlockingLineReader {
    let descriptor: Int32
    private var pending: [UInt8] = []

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The next line, or nil at the end of the stream. Throws when a read fails or times out.
    mutating func next() throws -> ServerLine? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                if let message = ServerLine(line) { return message }
                continue
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return nil }
            guard count > 0 else {
                let reason = errno == EAGAIN ? "no reply in time" : String(cString: strerror(errno))
                throw FanoutFailure("reading orientd's reply: \(reason)")
            }
            pending += chunk[..<count]
        }
    }
}
