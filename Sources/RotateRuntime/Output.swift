import Glibc
import OrientdClient

/// orientctl's terminal output: plain write(2), so orientctl needs no Foundation.
package enum Output {
    /// Prints a line and flushes it at once, so a pipe sees every change as it happens.
    package static func line(_ text: String) {
        write(text + "\n", to: STDOUT_FILENO)
    }

    /// Text as it is, for terminal control sequences.
    package static func raw(_ text: String) {
        write(text, to: STDOUT_FILENO)
    }

    /// A line for people on standard error: notes and warnings that must not mix into the output.
    package static func error(_ text: String) {
        write(text + "\n", to: STDERR_FILENO)
    }

    /// Writes all of `text` (write(2) may take part of it), again after a signal; false when the
    /// descriptor refuses it (a closed pipe, a full disk).
    @discardableResult
    package static func write(_ text: String, to descriptor: Int32) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            bytes = bytes.dropFirst(written)
        }
        return true
    }
}

/// printf's formatting of numbers ("%5.1f"), which String(format:) gives only with Foundation.
package func cFormat(_ format: String, _ arguments: CVarArg...) -> String {
    var capacity = 64
    while true {
        var buffer = [CChar](repeating: 0, count: capacity)
        let count = withVaList(arguments) { vsnprintf(&buffer, capacity, format, $0) }
        guard count >= 0 else { return "" }
        if Int(count) < capacity {
            return String(decoding: buffer.prefix(Int(count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        capacity = Int(count) + 1
    }
}

/// A client error, printed as "orientctl: ..." with exit status 1.
package struct ClientFailure: Error, CustomStringConvertible {
    package let description: String
    package init(_ error: OrientdClientError) { description = error.description }
    package init(message: String) { description = message }
}

/// This process's environment, as `ProcessInfo.processInfo.environment` gives it with Foundation.
package func processEnvironment() -> [String: String] {
    var environment: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
        let text = String(cString: pointer)
        if let equals = text.firstIndex(of: "=") {
            environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        entry += 1
    }
    return environment
}
