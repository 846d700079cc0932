import OrientationCore

/// One line of the config file, as systemd reads its unit files: a `[Section]` header, a
/// `key=value` assignment (blanks around `=` and at either end do not count), or nothing (an
/// empty line, a comment starting with `#` or `;`). Pure: the reader gives each line its meaning.
enum ConfigurationLine: Equatable {
    case nothing
    /// `[Daemon]`, or `[Device "ip:192.0.2.7/accel_3d"]` with the quoted part as `argument`.
    case section(name: String, argument: String?)
    case assignment(key: String, value: String)
    /// Not a line of this format; `reason` says what was expected.
    case malformed(reason: String)

    init(_ line: Substring) {
        let text = trimmingBlanks(line)
        guard let first = text.first, first != "#", first != ";" else {
            self = .nothing
            return
        }
        if first == "[" {
            self = Self.section(text)
            return
        }
        guard let equals = text.firstIndex(of: "=") else {
            self = .malformed(reason: "expected key=value, a [Section] header or a comment (# or ;), got '\(printableExcerpt(text))'")
            return
        }
        let key = trimmingBlanks(text[..<equals])
        guard !key.isEmpty else {
            self = .malformed(reason: "expected a key name before '=', got '\(printableExcerpt(text))'")
            return
        }
        self = .assignment(key: String(key), value: String(trimmingBlanks(text[text.index(after: equals)...])))
    }

    private static func section(_ text: Substring) -> ConfigurationLine {
        guard text.count >= 2, text.last == "]" else {
            return .malformed(reason: "a section header ends with ']': [Daemon], [Classifier], [Device \"ID\"]; got '\(printableExcerpt(text))'")
        }
        let inside = trimmingBlanks(text.dropFirst().dropLast())
        guard let blank = inside.firstIndex(where: isBlank) else {
            return .section(name: String(inside), argument: nil)
        }
        let name = String(inside[..<blank])
        let quoted = trimmingBlanks(inside[blank...])
        guard quoted.count >= 2, quoted.first == "\"", quoted.last == "\"" else {
            return .malformed(reason: "after the section name comes one name in double quotes, as in [Device \"ip:192.0.2.7/accel_3d\"]; got '\(printableExcerpt(text))'")
        }
        let argument = quoted.dropFirst().dropLast()
        guard !argument.contains("\"") else {
            return .malformed(reason: "a quoted name holds no '\"'; got '\(printableExcerpt(text))'")
        }
        return .section(name: name, argument: String(argument))
    }
}

extension Unicode.Scalar {
    /// A-Z and a-z, as the config's names are spelt (a letter of another script is not one).
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

/// Spaces and tabs: what systemd trims around keys and values.
func isBlank(_ character: Character) -> Bool { character == " " || character == "\t" }

/// `text` without spaces and tabs at either end.
func trimmingBlanks<S: StringProtocol>(_ text: S) -> S.SubSequence {
    let start = text.firstIndex { !isBlank($0) } ?? text.endIndex
    let end = text.lastIndex { !isBlank($0) }.map { text.index(after: $0) } ?? start
    return text[start..<end]
}
