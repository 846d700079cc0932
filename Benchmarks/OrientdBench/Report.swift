import Foundation

/// The benchmark's figures as Markdown tables, one column per daemon.
struct Report {
    let daemons: [String]
    let trials: Int
    let starts: Int
    let cpuSeconds: Double
    let latencies: [String: [Double]]
    let physicalTurns: [String: [Double]]
    let motionMs: Double
    let instantPickUps: [String: [Double]]
    let handPickUps: [String: [Double]]
    let firstAnswers: [String: [Double]]
    let scenarios: [(scenario: String, scores: [String: ScenarioScore])]
    let use: [String: ResourceUse]

    var markdown: String {
        var lines = [
            "| \(trials) step trials, \(physicalTurns.values.first?.count ?? 0) physical turns, \(starts) starts, \(Int(cpuSeconds)) s still each (after \(Int(OrientdBench.stillBeforeWindow)) s still) | " + daemons.joined(separator: " | ") + " |",
            "|---|" + daemons.map { _ in "---:|" }.joined(),
        ]
        func row(_ title: String, _ value: (String) -> String) {
            lines.append("| \(title) | " + daemons.map(value).joined(separator: " | ") + " |")
        }
        row("step latency p50 / p95 / max (ms)") { name in latencyFigures(latencies[name] ?? []) }
        row("physical turn (\(Int(motionMs)) ms of motion): event after the motion ends, p50 / p95 / max (ms)") { name in
            latencyFigures(physicalTurns[name] ?? [])
        }
        row("pick-up from flat at once: event after it stands, p50 / p95 / max (ms)") { name in
            latencyFigures(instantPickUps[name] ?? [])
        }
        row("pick-up from flat by hand (400 ms of motion): event after the motion ends, p50 / p95 / max (ms)") { name in
            latencyFigures(handPickUps[name] ?? [])
        }
        row("first orientation, median / max (ms)") { name in
            let values = firstAnswers[name] ?? []
            return "\(milliseconds(median(values))) / \(milliseconds(values.max() ?? .nan))"
        }
        row("spurious events, all \(scenarios.count) scenarios") { name in
            String(scenarios.reduce(0) { $0 + ($1.scores[name]?.spurious ?? 0) })
        }
        row("expected changes missed") { name in
            String(scenarios.reduce(0) { $0 + ($1.scores[name]?.missed ?? 0) })
        }
        row("sensor samples per second, still") { name in
            use[name].map { String(format: "%.1f", $0.samplesPerSecond) } ?? "-"
        }
        row("wake-ups per second, all threads (voluntary context switches)") { name in
            use[name].map { String(format: "%.1f", $0.wakeUpsPerSecond) } ?? "-"
        }
        row("CPU, s per minute (% of one core)") { name in
            guard let use = use[name] else { return "-" }
            return String(format: "%.3f (%.2f %%)", use.cpuSecondsPerMinute, use.percentOfOneCore)
        }
        row("peak memory, VmHWM (MiB)") { name in
            use[name].map { String(format: "%.1f", $0.peakMemoryMiB) } ?? "-"
        }
        row("resident memory at the end, VmRSS (MiB)") { name in
            use[name].map { String(format: "%.1f", $0.residentMemoryMiB) } ?? "-"
        }
        row("anonymous memory, RssAnon (MiB)") { name in
            use[name].map { String(format: "%.1f", $0.anonymousMemoryMiB) } ?? "-"
        }
        row("proportional memory, Pss (MiB)") { name in
            use[name].map { String(format: "%.1f", $0.proportionalMemoryMiB) } ?? "-"
        }
        row("private memory, Private_Clean + Private_Dirty (MiB)") { name in
            use[name].map { String(format: "%.1f", $0.privateMemoryMiB) } ?? "-"
        }
        row("threads") { name in use[name].map { String($0.threads) } ?? "-" }
        lines.append("")
        lines.append("| scenario: spurious / missed | " + daemons.joined(separator: " | ") + " |")
        lines.append("|---|" + daemons.map { _ in "---:|" }.joined())
        for (scenario, scores) in scenarios {
            lines.append("| \(scenario) | " + daemons.map { name in
                scores[name].map { "\($0.spurious) / \($0.missed)" } ?? "-"
            }.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n")
    }

    /// p50 / p95 / max in ms, with the turns never reported counted apart.
    private func latencyFigures(_ values: [Double]) -> String {
        let missed = values.filter { !$0.isFinite }.count
        let heard = values.filter(\.isFinite)
        let figures = [50.0, 95, 100].map { milliseconds(percentile($0, of: heard)) }.joined(separator: " / ")
        return missed == 0 ? figures : "\(figures) (\(missed) turns never reported)"
    }

    private func milliseconds(_ seconds: Double) -> String {
        seconds.isFinite ? String(Int((seconds * 1000).rounded())) : "-"
    }
}

/// The still device with a motion interrupt, as a Markdown table, one column per daemon.
struct MotionEventReport {
    let daemons: [String]
    let orientdArguments: [String]
    let cpuSeconds: Double
    let turns: [String: [Double]]
    let use: [String: ResourceUse]

    var markdown: String {
        var lines = [
            "| with motion events (bmc150, any-motion interrupt emulated), \(turns.values.first?.count ?? 0) turns from still, \(Int(cpuSeconds)) s still each | "
                + daemons.joined(separator: " | ") + " |",
            "|---|" + daemons.map { _ in "---:|" }.joined(),
        ]
        func row(_ title: String, _ value: (String) -> String) {
            lines.append("| \(title) | " + daemons.map(value).joined(separator: " | ") + " |")
        }
        row("turn from still (3 to 4.5 s still), interrupt raised as it starts: event after the turn, p50 / p95 / max (ms)") { name in
            let values = turns[name] ?? []
            let missed = values.filter { !$0.isFinite }.count
            let heard = values.filter(\.isFinite)
            let figures = [50.0, 95, 100].map { percentile($0, of: heard) }
                .map { $0.isFinite ? String(Int(($0 * 1000).rounded())) : "-" }.joined(separator: " / ")
            return missed == 0 ? figures : "\(figures) (\(missed) turns never reported)"
        }
        row("sensor samples per second, still") { name in use[name].map { String(format: "%.2f", $0.samplesPerSecond) } ?? "-" }
        row("wake-ups per second, all threads") { name in use[name].map { String(format: "%.2f", $0.wakeUpsPerSecond) } ?? "-" }
        row("CPU, s per minute (% of one core)") { name in
            guard let use = use[name] else { return "-" }
            return String(format: "%.4f (%.3f %%)", use.cpuSecondsPerMinute, use.percentOfOneCore)
        }
        row("peak memory, VmHWM (MiB)\(orientdArguments.isEmpty ? "" : "; orientd started with \(orientdArguments.joined(separator: " ")) and --config, --socket")") { name in
            use[name].map { String(format: "%.1f", $0.peakMemoryMiB) } ?? "-"
        }
        row("resident memory at the end, VmRSS (MiB)") { name in use[name].map { String(format: "%.1f", $0.residentMemoryMiB) } ?? "-" }
        row("proportional memory, Pss; private, Private_Clean + Private_Dirty (MiB)") { name in
            use[name].map { String(format: "%.1f; %.1f", $0.proportionalMemoryMiB, $0.privateMemoryMiB) } ?? "-"
        }
        return lines.joined(separator: "\n")
    }
}
