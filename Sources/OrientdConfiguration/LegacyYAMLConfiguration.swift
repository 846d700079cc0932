/// The YAML config file of orientd 0.1 and earlier: recognised, refused, and converted to the INI
/// format in the refusal, so an upgrade that keeps an old /etc/orientd.conf says exactly what to
/// write instead. The conversion covers what that reader accepted: top-level `key: value` lines,
/// lists (`[a, b]` or `- a` lines), the `classifier:` block and the `devices:` block.
enum LegacyYAMLConfiguration {
    /// The line the file is refused on and why, when it looks like YAML; nil otherwise.
    static func refusal(_ lines: [Substring]) -> (line: Int, reason: String)? {
        guard let line = firstYAMLLine(lines) else { return nil }
        var reason = """
            this is the YAML format of orientd 0.1; the config file is now INI, like systemd's \
            (docs/configuration.md): the top-level keys go under [Daemon], the keys of classifier: \
            under [Classifier], each entry of devices: in a [Device "ID"] section, one key=value per \
            line without quotes, a list as the key repeated
            """
        guard let converted = convert(lines) else {
            return (line, reason + "; convert it by hand, or start from 'orientd --config /dev/null --print-config'")
        }
        if converted.isEmpty {
            reason += "; this file sets nothing: empty it or remove it"
        } else {
            reason += ". This file converted:\n" + converted.split(separator: "\n", omittingEmptySubsequences: false)
                .map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
        }
        return (line, reason)
    }

    /// The number of the first line that is neither empty nor a comment, when it is a YAML
    /// mapping key or list item, not an INI line.
    static func firstYAMLLine(_ lines: [Substring]) -> Int? {
        for (index, line) in lines.enumerated() {
            let text = trimmingBlanks(line)
            if text.isEmpty || text.first == "#" || text.first == ";" { continue }
            let yaml = text == "---" || text.hasPrefix("- ") || isMappingKey(text)
            return yaml ? index + 1 : nil
        }
        return nil
    }

    /// A line `key: value` or `"key":` (what `"?[A-Za-z][A-Za-z0-9_-]*"?[ \t]*:([ \t].*)?` matches),
    /// checked by hand: a regex would bring the regex engine's code into the daemon.
    static func isMappingKey(_ text: Substring) -> Bool {
        var rest = text.unicodeScalars[...]
        if rest.first == "\"" { rest.removeFirst() }
        guard let first = rest.first, first.isASCIILetter else { return false }
        rest = rest.drop { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" || $0 == "-" }
        if rest.first == "\"" { rest.removeFirst() }
        rest = rest.drop { $0 == " " || $0 == "\t" }
        guard rest.first == ":" else { return false }
        rest.removeFirst()
        // The pattern's `.` matches no line break: a CR, VT, FF, NEL, LS or PS left inside the line.
        let lineBreaks: Set<Unicode.Scalar> = ["\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"]
        return (rest.isEmpty || rest.first == " " || rest.first == "\t") && !rest.contains(where: lineBreaks.contains)
    }

    /// The INI text that sets what the YAML `lines` set; nil when they hold something outside the
    /// subset orientd's YAML reader accepted (block scalars, anchors, nested lists).
    static func convert(_ lines: [Substring]) -> String? {
        var converter = Converter()
        for line in lines {
            guard converter.take(line) else { return nil }
        }
        converter.finish()
        return converter.ini
    }
}

/// The old file's structure, rebuilt line by line.
private struct Converter {
    var daemon: [(key: String, value: String)] = []
    var classifier: [(key: String, value: String)] = []
    var devices: [(id: String, keys: [(key: String, value: String)])] = []

    private enum Block {
        case top
        case classifier
        case devices(deviceIndent: Int?)
        /// `key:` with the list's `- item` lines to follow.
        case list(key: String, given: Bool)
    }
    private var block = Block.top

    var ini: String {
        var sections: [String] = []
        if !daemon.isEmpty { sections.append((["[Daemon]"] + daemon.map { "\($0.key)=\($0.value)" }).joined(separator: "\n")) }
        if !classifier.isEmpty { sections.append((["[Classifier]"] + classifier.map { "\($0.key)=\($0.value)" }).joined(separator: "\n")) }
        for device in devices {
            sections.append((["[Device \"\(device.id)\"]"] + device.keys.map { "\($0.key)=\($0.value)" }).joined(separator: "\n"))
        }
        return sections.joined(separator: "\n\n")
    }

    /// Takes one line; false when it is outside the subset.
    mutating func take(_ raw: Substring) -> Bool {
        guard let line = withoutComment(raw) else { return false }
        let content = trimmingBlanks(line)
        if content.isEmpty || content == "---" || content == "..." { return true }
        let indent = line.prefix { $0 == " " }.count
        if line.dropFirst(indent).first == "\t" { return false }  // YAML indents with spaces only

        if content.hasPrefix("- ") || content == "-" {
            guard case .list(let key, _) = block, let item = scalar(content.dropFirst()) else { return false }
            daemon.append((key, item))
            block = .list(key: key, given: true)
            return true
        }
        guard let (key, value) = keyAndValue(content) else { return false }
        if indent == 0 {
            endList()
            return top(key, value)
        }
        switch block {
        case .top, .list:
            return false
        case .classifier:
            guard let value, let text = scalar(value) else { return false }
            classifier.append((key, text))
        case .devices(let deviceIndent):
            if value == nil, deviceIndent == nil || deviceIndent == indent {
                devices.append((key, []))
                block = .devices(deviceIndent: indent)
                return true
            }
            guard let deviceIndent, indent > deviceIndent, !devices.isEmpty, let value, let text = scalar(value) else { return false }
            devices[devices.count - 1].keys.append((key, text))
        }
        return true
    }

    private mutating func top(_ key: String, _ value: Substring?) -> Bool {
        switch (key, value) {
        case ("classifier", nil):
            block = .classifier
        case ("devices", nil):
            block = .devices(deviceIndent: nil)
        case (_, nil):
            block = .list(key: key, given: false)
        case (_, let value?):
            block = .top
            if value.first == "[", value.last == "]" {
                let items = value.dropFirst().dropLast().split(separator: ",").map { scalar(trimmingBlanks($0)) }
                guard !items.contains(where: { $0 == nil }) else { return false }
                daemon += items.map { (key, $0!) }
                return true
            }
            guard let text = scalar(value) else { return false }
            daemon.append((key, text))
        }
        return true
    }

    mutating func finish() { endList() }

    /// A `key:` that no `- item` followed was empty: in INI, the key set back to its default.
    private mutating func endList() {
        if case .list(let key, false) = block { daemon.append((key, "")) }
        block = .top
    }

    /// `key: value` or `key:` (value nil), the key maybe quoted.
    private func keyAndValue(_ content: Substring) -> (String, Substring?)? {
        var key: Substring
        var rest: Substring
        if let quote = content.first, quote == "\"" || quote == "'" {
            guard let end = content.dropFirst().firstIndex(of: quote) else { return nil }
            key = content[content.index(after: content.startIndex)..<end]
            rest = trimmingBlanks(content[content.index(after: end)...])
            guard rest.first == ":" else { return nil }
            rest = rest.dropFirst()
        } else {
            guard let colon = content.firstIndex(where: { $0 == ":" }) else { return nil }
            key = trimmingBlanks(content[..<colon])
            rest = content[content.index(after: colon)...]
            guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        }
        guard !key.isEmpty, !key.contains("\"") else { return nil }
        let value = trimmingBlanks(rest)
        return (String(key), value.isEmpty || value == "~" || value == "null" ? nil : value)
    }

    /// A plain or quoted scalar's text; nil for what the subset has no use for.
    private func scalar(_ raw: Substring) -> String? {
        let text = trimmingBlanks(raw)
        guard let first = text.first else { return "" }
        if first == "\"" {
            guard text.count >= 2, text.last == "\"" else { return nil }
            var result = ""
            var escaped = false
            for character in text.dropFirst().dropLast() {
                if escaped {
                    guard character == "\"" || character == "\\" else { return nil }
                    result.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else {
                    result.append(character)
                }
            }
            return escaped ? nil : result
        }
        if first == "'" {
            guard text.count >= 2, text.last == "'" else { return nil }
            var result = "", quoteBefore = false
            for character in text.dropFirst().dropLast() {  // '' stands for one '
                if character == "'", quoteBefore { quoteBefore = false; continue }
                quoteBefore = character == "'"
                result.append(character)
            }
            return result
        }
        if "|>&*!{[%@`".contains(first) { return nil }
        return String(text)
    }

    /// The line without a trailing `# comment` (a '#' at the start or after a blank, outside
    /// quotes); nil when a quote is left open.
    private func withoutComment(_ line: Substring) -> Substring? {
        var quote: Character?
        var escaped = false
        var previous: Character = " "
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if escaped {
                    escaped = false
                } else if open == "\"", character == "\\" {
                    escaped = true
                } else if character == open {
                    quote = nil
                }
            } else if character == "\"" || character == "'", isBlank(previous) || previous == "[" || previous == "," {
                quote = character
            } else if character == "#", isBlank(previous) {
                return line[..<index]
            }
            previous = character
        }
        return quote == nil ? line : nil
    }
}
