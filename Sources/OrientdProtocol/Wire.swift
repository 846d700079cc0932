import Glibc

/// Facts of protocol v1 that the daemon and every client share. See docs/protocol.md.
public enum Wire {
    public static let protocolVersion = 1
    /// The longest request line the server reads, newline excluded; a longer one is an error
    /// and the connection is closed.
    public static let maximumRequestLength = 4096
    public static let defaultSocketPath = "/run/orientd.sock"
    public static let socketEnvironmentVariable = "ORIENTD_SOCKET"

    /// The socket to use: an explicit path, else $ORIENTD_SOCKET, else the default.
    public static func socketPath(explicit: String?, environment: [String: String]? = nil) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        let fromEnvironment = environment.map { $0[socketEnvironmentVariable] } ?? getenv(socketEnvironmentVariable).map { String(cString: $0) }
        if let fromEnvironment, !fromEnvironment.isEmpty { return fromEnvironment }
        return defaultSocketPath
    }

    /// Encodes one message as a line of compact JSON, newline included.
    public static func line(_ message: some Encodable) -> [UInt8] {
        // Every message type is a plain struct of strings and numbers; encoding cannot fail.
        var bytes = (try? JSONValue(encoding: message))?.compactText ?? Array("{}".utf8)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Decodes one line (without its newline) into a JSON value, or nil if it is not JSON. Numbers
    /// beyond `Double`'s range (`1e400`) are JSON and decode (as `±infinity`): Foundation's
    /// JSONDecoder refuses them, which made a request with an ignored member like `"x":1e400` fail.
    public static func decode<Bytes: Collection<UInt8>>(_ line: Bytes) -> JSONValue? {
        JSONValue(parsing: line)
    }
}
