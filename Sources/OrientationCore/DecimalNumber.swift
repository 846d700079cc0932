/// orientd's one grammar for numbers, wherever they come from (sysfs, udev, the config file,
/// flags): an optional sign, digits with at most one point (at least one digit), and an optional
/// exponent: "523", "-25.6", "0.000010", ".5", "1e-3". No "nan", "inf", hexadecimal or grouping.
///
/// Swift's `Double(_: String)` reads with the C locale whatever `setlocale` says, so "0.5" is
/// one half under fr_FR as well. Blanks around the text (sysfs ends values with a newline) are
/// ignored; anything else that is not a finite number gives nil.
public func parseDecimal<S: StringProtocol>(_ text: S) -> Double? {
    let trimmed = text.trimmingBlanks()
    guard isDecimalNumber(trimmed.utf8), let value = Double(trimmed), value.isFinite else { return nil }
    return value
}

/// `parseDecimal` on ASCII text in a buffer (a raw attribute as libiio read it), without making a
/// String of it: the still device's every read goes through here. Text with other bytes is
/// handed to `parseDecimal`, whose blanks are Unicode's.
public func parseDecimal(ascii bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    if bytes.contains(where: { $0 >= 0x80 }) { return parseDecimal(String(decoding: bytes, as: UTF8.self)) }
    let isBlank = { (byte: UInt8) in byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
    guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) }) else { return nil }
    let number = UnsafeBufferPointer(rebasing: bytes[first...last])
    // Short enough for a String that allocates nothing; a longer one is no raw value anyway.
    let text = String(decoding: number, as: UTF8.self)
    guard isDecimalNumber(Substring(text).utf8), let value = Double(text), value.isFinite else { return nil }
    return value
}

/// orientd's one way to write a number: whole numbers without a point (100, not 100.0; -0 is 0),
/// others in Swift's shortest form that reads back exactly (22.5, 1e+19), whatever the locale.
public func formatDecimal(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 0x1p53 ? String(Int(value)) : String(value)
}

/// sign? (digits ('.' digits?)? | '.' digits) (('e' | 'E') sign? digits)?
private func isDecimalNumber(_ bytes: Substring.UTF8View) -> Bool {
    var index = bytes.startIndex
    func skip(_ accept: (UInt8) -> Bool) -> Int {
        var count = 0
        while index != bytes.endIndex, accept(bytes[index]) {
            index = bytes.index(after: index)
            count += 1
        }
        return count
    }
    let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    let isSign = { (byte: UInt8) in byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") }
    if index != bytes.endIndex, isSign(bytes[index]) { index = bytes.index(after: index) }
    var digits = skip(isDigit)
    if index != bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
        index = bytes.index(after: index)
        digits += skip(isDigit)
    }
    guard digits > 0 else { return false }
    if index != bytes.endIndex, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
        index = bytes.index(after: index)
        if index != bytes.endIndex, isSign(bytes[index]) { index = bytes.index(after: index) }
        guard skip(isDigit) > 0 else { return false }
    }
    return index == bytes.endIndex
}

extension StringProtocol {
    public func trimmingBlanks() -> Substring {
        let text = Substring(self)
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
              let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return text[first...last]
    }
}
