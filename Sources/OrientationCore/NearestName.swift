/// The known name nearest to a misspelt one, if it is near enough to be what was meant.
public func closest(to name: String, among candidates: [String]) -> String? {
    guard name.count <= 100 else { return nil }  // no key is that long, and the distance is quadratic
    let scored = candidates.map { ($0, editDistance(name.lowercased(), $0.lowercased())) }.min { $0.1 < $1.1 }
    guard let (candidate, distance) = scored, distance <= max(2, name.count / 4) else { return nil }
    return candidate
}

private func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    guard !a.isEmpty else { return b.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in stride(from: 1, through: b.count, by: 1) {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}
