/// Nearest-rank percentile of `values` (p in 0...100); NaN when there are none.
func percentile(_ p: Double, of values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
}
