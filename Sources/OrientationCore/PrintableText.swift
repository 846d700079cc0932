/// Text that came from outside (sysfs, a udev property, an iiod board, a config file) made safe to
/// quote in one log line or error: at most `limit` characters of it, with everything but printable
/// ASCII written as an escape (`\n`, `\t`, `\u{1B}`, `\u{202E}`), so a value can neither break the
/// line, fake another one, reorder it on a terminal, nor flood the log. A cut excerpt ends with
/// "... (N characters)", N being the length of the whole text.
public func printableExcerpt<S: StringProtocol>(_ text: S, limit: Int = 40) -> String {
    var excerpt = ""
    var count = 0
    for scalar in text.unicodeScalars {
        count += 1
        guard count <= limit else { continue }
        switch scalar {
        case "\n": excerpt += "\\n"
        case "\t": excerpt += "\\t"
        case "\r": excerpt += "\\r"
        case "\\": excerpt += "\\\\"
        case "'": excerpt += "\\'"
        case " "..."~": excerpt.unicodeScalars.append(scalar)
        default: excerpt += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        }
    }
    return count > limit ? excerpt + "... (\(count) characters)" : excerpt
}
