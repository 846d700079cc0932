/// Nearest-rank percentile of `values` (p in 0...100).
func percentile(_ p: Double, of values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
}

func median(_ values: [Double]) -> Double { percentile(50, of: values) }

/// Length of the longest common subsequence: how many reports match the expected changes in order.
func matchedInOrder<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
    guard !a.isEmpty, !b.isEmpty else { return 0 }
    var previous = [Int](repeating: 0, count: b.count + 1)
    for x in a {
        var current = [0]
        for (j, y) in b.enumerated() {
            current.append(x == y ? previous[j] + 1 : max(previous[j + 1], current[j]))
        }
        previous = current
    }
    return previous[b.count]
}
