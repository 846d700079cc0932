import Foundation
import OrientationCore

/// A recorded or generated situation, and exactly what the classifier must publish in it.
public struct Scenario: Sendable, CustomStringConvertible {
    public let name: String
    public let summary: String
    public let samples: [AccelerometerSample]
    /// Every change that must be published, in order, each within its window (seconds from the
    /// trace's start). Any other change is a spurious event.
    public let expected: [ExpectedChange]

    public init(name: String, summary: String, samples: [AccelerometerSample], expected: [ExpectedChange]) {
        self.name = name
        self.summary = summary
        self.samples = samples
        self.expected = expected
    }

    public var description: String { name }
    public var duration: Double { samples.last?.time ?? 0 }
}

public struct ExpectedChange: Sendable, CustomStringConvertible {
    public let orientation: Orientation
    public let window: ClosedRange<Double>

    public init(_ orientation: Orientation, within window: ClosedRange<Double>) {
        self.orientation = orientation
        self.window = window
    }

    public var description: String { "\(orientation) in \(window.lowerBound)...\(window.upperBound) s" }
}

/// What a classifier did with a scenario, judged against its expectations.
public struct ScenarioOutcome: Sendable {
    public let scenario: Scenario
    public let published: [OrientationChange]

    /// Published changes beyond the expected ones (the expected sequence is matched in order).
    public var spuriousEvents: Int { max(0, published.count - matchedCount) }

    /// Whether exactly the expected changes were published, in order, each within its window.
    public var isExact: Bool {
        published.count == scenario.expected.count && matchedCount == scenario.expected.count
    }

    private var matchedCount: Int {
        zip(published, scenario.expected).prefix { change, expected in
            change.orientation == expected.orientation && expected.window.contains(change.time)
        }.count
    }

    public var report: String {
        let got = published.map { "\($0.orientation)@\(String(format: "%.3f", $0.time))" }.joined(separator: ", ")
        return "\(scenario.name): expected [\(scenario.expected.map(\.description).joined(separator: ", "))], published [\(got)]"
    }
}

extension Scenario {
    /// Replays the scenario through a fresh classifier.
    public func replay(settings: ClassifierSettings = ClassifierSettings()) -> ScenarioOutcome {
        var classifier = Classifier(settings: settings)
        let published = samples.compactMap { classifier.classify($0) }
        return ScenarioOutcome(scenario: self, published: published)
    }
}
