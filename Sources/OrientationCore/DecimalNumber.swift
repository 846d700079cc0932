/// Parses the decimal numbers the kernel writes into sysfs ("523", "-25.6", "0.000010", "1e-3").
///
/// Swift's `Double(_: String)` reads with the C locale whatever `setlocale` says, so "0.5" is
/// one half under fr_FR as well. Blanks around the text (sysfs ends values with a newline) are
/// ignored; anything else that is not a finite number gives nil.
public func parseDecimal<S: StringProtocol>(_ text: S) -> Double? {
    let trimmed = text.trimmingBlanks()
    guard !trimmed.isEmpty, trimmed.allSatisfy(\.isDecimalNumberCharacter),
          let value = Double(trimmed), value.isFinite
    else { return nil }
    return value
}

extension Character {
    /// Digits, sign, point and exponent: rules out "nan", "inf" and hexadecimal forms.
    fileprivate var isDecimalNumberCharacter: Bool {
        ("0"..."9").contains(self) || self == "." || self == "-" || self == "+" || self == "e" || self == "E"
    }
}

extension StringProtocol {
    func trimmingBlanks() -> Substring {
        let text = Substring(self)
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
              let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return text[first...last]
    }
}
