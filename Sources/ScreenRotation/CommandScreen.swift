import OrientationCore

/// Runs one command, the way the backend's host can: a real process in orientctl, a script of
/// answers in the tests.
public protocol ToolExecutor {
    func run(_ command: ToolCommand) -> ToolRun
    /// Waits a little before reading back a turn the compositor applies later.
    func pause(seconds: Double)
}

/// How running a command went.
public enum ToolRun: Equatable, Sendable {
    case finished(ToolResult)
    /// The tool is not on PATH.
    case notFound
    /// The tool did not end within `seconds` and was killed.
    case timedOut(seconds: Double)
    /// The tool could not be started, for the reason given.
    case couldNotStart(String)
}

/// A screen turned by command-line tools: a `ScreenCommandPlan` run through a `ToolExecutor`,
/// with every failure worded for the user.
public struct CommandScreen<Executor: ToolExecutor> {
    public let plan: any ScreenCommandPlan
    public let executor: Executor
    /// How many times a turn the compositor applies later is read back before giving up on it
    /// (with `confirmationPause` between reads).
    public var confirmationReads = 20
    public var confirmationPause = 0.05

    public init(plan: any ScreenCommandPlan, executor: Executor) {
        self.plan = plan
        self.executor = executor
    }

    /// The compositor's outputs.
    public func outputNames() throws(ToolFailure) -> [String] {
        plan.outputNames(inListing: try run(plan.outputListing))
    }

    /// Turns `output`, and the touch and pen input the tool maps, to `rotation`.
    public func turn(_ output: String, to rotation: PanelRotation) throws(ToolFailure) {
        var inputs: [String] = []
        if let listing = plan.inputListing {
            do throws(ToolFailure) {
                inputs = plan.touchInputs(inListing: try run(listing))
            } catch where !error.compositorGone {
                // No xinput, or it failed: the picture still turns, the touch input cannot.
                inputs = []
            }
        }
        for command in plan.turn(output, to: rotation, inputs: inputs) {
            try run(command)
        }
        try confirm(output, rotation)
    }

    /// For a compositor that may ignore a turn silently (Hyprland), reads the outputs back until
    /// `output` shows `rotation`, and turns it the plan's other way if it never does.
    private func confirm(_ output: String, _ rotation: PanelRotation) throws(ToolFailure) {
        guard plan.confirmsTurns else { return }
        var listing = try run(plan.outputListing)
        guard plan.rotation(of: output, inListing: listing) != nil else {
            let names = plan.outputNames(inListing: listing)
            throw ToolFailure("\(plan.kind) has no output \(output) (it has: \(names.isEmpty ? "none" : names.joined(separator: ", ")))",
                              compositorGone: false)
        }
        var reads = 1
        while plan.rotation(of: output, inListing: listing) != rotation, reads < confirmationReads {
            executor.pause(seconds: confirmationPause)
            listing = try run(plan.outputListing)
            reads += 1
        }
        if plan.rotation(of: output, inListing: listing) == rotation { return }
        let fallback = plan.fallbackTurn(output, to: rotation, listing: listing)
        guard !fallback.isEmpty else {
            throw ToolFailure("\(plan.kind) did not turn \(output) to \(rotation) and gave no reason", compositorGone: false)
        }
        for command in fallback {
            try run(command)
        }
    }

    /// Runs `command` and returns its standard output, or throws the failure in words.
    @discardableResult
    private func run(_ command: ToolCommand) throws(ToolFailure) -> String {
        switch executor.run(command) {
        case .notFound:
            throw ToolFailure("\(command.tool) was not found on PATH: \(plan.installHint(for: command.tool))", compositorGone: false)
        case .timedOut(let seconds):
            throw ToolFailure("'\(command)' did not finish within \(formatDecimal(seconds)) s and was killed; is \(plan.kind) hung?",
                              compositorGone: true)
        case .couldNotStart(let reason):
            throw ToolFailure("could not start '\(command)': \(reason)", compositorGone: false)
        case .finished(let result):
            switch plan.outcome(of: command, result) {
            case .succeeded:
                return result.standardOutput
            case .refused(let words):
                throw ToolFailure("'\(command)' failed: \(words)", compositorGone: false)
            case .compositorGone(let words):
                throw ToolFailure("\(plan.kind) cannot be reached ('\(command)': \(words))", compositorGone: true)
            }
        }
    }
}
