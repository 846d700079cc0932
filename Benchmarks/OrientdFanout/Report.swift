import Foundation

/// The rows as one Markdown table, with what went wrong in notes below it.
struct Report {
    let results: [FanoutResult]
    let changes: Int
    let settle: Double

    var markdown: String {
        var lines = [
            "Fan-out of one orientation change from orientd to every subscriber: \(changes) changes per row "
                + "(portrait ↔ landscapeLeft, \(settle.formatted()) s apart), a fresh orientd per row, "
                + "\(ProcessInfo.processInfo.activeProcessorCount) cores shared by orientd and the subscribers"
                + (changes < 100 ? "; the p99 of \(changes) changes is their maximum. " : ". ")
                + "Targets: 10 000 subscribers p99 ≤ 100 ms; memory ≤ 15 MB (14.3 MiB) with one client, ≤ 80 MB (76.3 MiB) with 10 000.",
            "",
            "| subscribers | stalled reader | fan-out to last p50 / p99 / max (ms) | to first p50 (ms) | sensor write to last p50 / p99 (ms) "
                + "| peak memory VmHWM (MiB) | VmRSS all subscribed (MiB) | CPU during the changes, orientd / subscribers / other processes (s) | missing receipts |",
            "|---:|:---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for result in results {
            let toLast = result.changes.compactMap(\.toLast)
            let toFirst = result.changes.compactMap(\.toFirst)
            let sensorToLast = result.changes.compactMap(\.sensorToLast)
            let subscribed = result.tally.subscribed == result.subscribers
                ? String(result.subscribers) : "\(result.subscribers) (\(result.tally.subscribed) subscribed)"
            let cells = [
                subscribed,
                result.withStalledReader ? "yes" : "no",
                [50.0, 99, 100].map { milliseconds(percentile($0, of: toLast)) }.joined(separator: " / "),
                milliseconds(percentile(50, of: toFirst)),
                [50.0, 99].map { milliseconds(percentile($0, of: sensorToLast)) }.joined(separator: " / "),
                fixed(result.peakMiB, 1),
                fixed(result.residentAfterSubscribingMiB, 1),
                [fixed(result.cpuSecondsDuringChanges, 2), fixed(result.subscribersCPUSecondsDuringChanges, 2),
                 fixed(result.othersCPUSecondsDuringChanges, 1)].joined(separator: " / "),
                result.changes.isEmpty ? "-" : "\(result.changes.reduce(0) { $0 + $1.missing }) of \(result.changes.count * result.tally.active)",
            ]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        let notes = results.flatMap(notes(for:))
        if !notes.isEmpty {
            lines.append("")
            lines += notes.map { "- \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    private func fixed(_ value: Double, _ digits: Int) -> String {
        value.isFinite ? String(format: "%.\(digits)f", value) : "-"
    }

    private func notes(for result: FanoutResult) -> [String] {
        let row = "\(result.subscribers)\(result.withStalledReader ? " with the stalled reader" : "")"
        var notes = result.failure.map { ["\(row): not measured: \($0)"] } ?? []
        let problems = describe(result.tally)
        if !problems.isEmpty { notes.append("\(row): \(problems)") }
        let capacity = result.changesSeconds * Double(ProcessInfo.processInfo.activeProcessorCount)
        if result.othersCPUSecondsDuringChanges > 0.05 * capacity {
            let share = Int((100 * result.othersCPUSecondsDuringChanges / capacity).rounded())
            notes.append("\(row): other processes used \(share) % of the machine's CPU during the changes: its figures are disturbed")
        }
        if result.unexpectedEvents > 0 { notes.append("\(row): \(result.unexpectedEvents) unexpected change events") }
        if result.lateEvents > 0 { notes.append("\(row): \(result.lateEvents) change events arrived after their wait had ended") }
        if let outcome = result.stalledReaderOutcome { notes.append("\(row): the stalled reader: \(outcome)") }
        notes += result.complaints.map { "\(row): orientd logged: \($0)" }
        return notes
    }
}
