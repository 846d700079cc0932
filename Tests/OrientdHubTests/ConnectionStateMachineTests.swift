import NIOCore
import NIOEmbedded
import Testing
@testable import OrientdHub

/// The connection's rules as a pure state machine: no channel, no loop.
@Suite struct ConnectionStateMachineTests {
    private func line(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    private func drain(_ machine: inout ConnectionStateMachine) -> [ConnectionStateMachine.Action] {
        var actions: [ConnectionStateMachine.Action] = []
        while let action = machine.nextAction() { actions.append(action) }
        return actions
    }

    @Test func requestsBeforeAdmissionWaitForTheHello() {
        var machine = ConnectionStateMachine(queuedBytesLimit: 1000)
        machine.readRequested()
        machine.received(line("a"))
        #expect(drain(&machine) == [])
        machine.admitted()
        #expect(drain(&machine) == [.sendHello, .answer(line("a")), .read])
    }

    @Test func aRefusedClientIsToldOnceAndNothingIsAnswered() {
        var machine = ConnectionStateMachine(queuedBytesLimit: 1000)
        machine.received(line("a"))
        machine.refused(.userFull)
        #expect(drain(&machine) == [.refuse(.userFull)])
        machine.received(line("b"))
        machine.readRequested()
        #expect(drain(&machine) == [])
    }

    @Test func readsAreHeldBackWhileARequestWaitsForTheSensor() {
        var machine = ConnectionStateMachine(queuedBytesLimit: 1000)
        machine.admitted()
        machine.received(line("get"))
        machine.received(line("ping"))
        #expect(machine.nextAction() == .sendHello)
        #expect(machine.nextAction() == .answer(line("get")))
        machine.answerPending(.lockSave)
        machine.readRequested()
        #expect(drain(&machine) == [])
        #expect(machine.phase == .awaitingAnswer)
        machine.answerSent()
        #expect(drain(&machine) == [.answer(line("ping")), .read])
    }

    @Test func nothingIsAnsweredWhileTheClientDoesNotRead() {
        var machine = ConnectionStateMachine(queuedBytesLimit: 1000)
        machine.admitted()
        _ = drain(&machine)
        machine.writabilityChanged(false)
        machine.received(line("ping"))
        machine.readRequested()
        #expect(drain(&machine) == [])
        machine.writabilityChanged(true)
        #expect(drain(&machine) == [.answer(line("ping")), .read])
    }

    @Test func anOverlongLineIsAnsweredAfterTheRequestsBeforeIt() {
        var machine = ConnectionStateMachine(queuedBytesLimit: 1000)
        machine.admitted()
        machine.received(line("get"))
        #expect(machine.nextAction() == .sendHello)
        #expect(machine.nextAction() == .answer(line("get")))
        machine.answerPending(.lockSave)
        #expect(drain(&machine) == [])
        machine.received(line("ping"))
        machine.receivedOverlongLine()
        machine.received(line("after the long line: never answered"))
        #expect(drain(&machine) == [])
        machine.answerSent()
        #expect(drain(&machine) == [.answer(line("ping")), .closeForOverlongLine])
        #expect(machine.phase == .closing)
        machine.readRequested()
        #expect(drain(&machine) == [])
    }

    @Test func aClientThatQueuesTooMuchIsClosed() {
        var machine = ConnectionStateMachine(queuedBytesLimit: 10)
        machine.admitted()
        _ = drain(&machine)
        machine.writabilityChanged(false)
        machine.received(line("123456"))
        #expect(drain(&machine) == [])
        machine.received(line("123456"))
        #expect(drain(&machine) == [.closeForFlooding])
        #expect(machine.queuedRequests == 0)
    }

    /// The crash of issue 13 (D1): answering a request closed the connection from inside the
    /// write, which emptied the queue under the loop that was answering it.
    @Test func closingWhileAnsweringEndsEverything() {
        var machine = ConnectionStateMachine(queuedBytesLimit: 1000)
        machine.admitted()
        machine.received(line("a"))
        machine.received(line("b"))
        #expect(machine.nextAction() == .sendHello)
        #expect(machine.nextAction() == .answer(line("a")))
        _ = machine.closed()
        #expect(machine.nextAction() == nil)
        #expect(machine.queuedRequests == 0)
        // What a shell may still report of a connection already closed changes nothing (an
        // admission after the close is impossible: the shell asks the phase first, and the
        // machine asserts it).
        machine.answerSent()
        machine.answerPending(.lockSave)
        machine.writeFailed()
        machine.received(line("c"))
        machine.readRequested()
        #expect(drain(&machine) == [])
        #expect(machine.phase == .closed)
    }
}

@Suite struct ConnectionEndingTests {
    private func line(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    @Test func aClientThatEndsItsInputHasItsRequestsAnsweredFirst() {
        var machine = ConnectionStateMachine(queuedBytesLimit: 1000)
        machine.admitted()
        machine.received(line("lock"))
        #expect(machine.nextAction() == .sendHello)
        #expect(machine.nextAction() == .answer(line("lock")))
        machine.answerPending(.lockSave)
        machine.received(line("ping"))
        machine.inputClosed()
        machine.readRequested()
        #expect(machine.nextAction() == nil)
        machine.answerSent()
        #expect(machine.nextAction() == .answer(line("ping")))
        #expect(machine.nextAction() == .endOfInput)
        #expect(machine.nextAction() == nil, "no read after the end of input")
    }

    @Test func afterAFailedWriteNothingIsAnswered() {
        var machine = ConnectionStateMachine(queuedBytesLimit: 1000)
        machine.admitted()
        machine.received(line("a"))
        machine.received(line("b"))
        #expect(machine.nextAction() == .sendHello)
        machine.writeFailed()
        #expect(machine.nextAction() == nil)
        #expect(machine.queuedRequests == 0)
    }
}

/// What a pending answer waits for lives in the machine: the shell keeps no flag beside it.
@Suite struct PendingAnswerTests {
    private func line(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    private func serving() -> ConnectionStateMachine {
        var machine = ConnectionStateMachine(queuedBytesLimit: 1000)
        machine.admitted()
        machine.received(line("get"))
        #expect(machine.nextAction() == .sendHello)
        #expect(machine.nextAction() == .answer(line("get")))
        return machine
    }

    private func wait(ticket: Int, on loop: EmbeddedEventLoop, hub: OrientationHub) -> FreshnessWait {
        FreshnessWait(id: .integer(1), answer: .get(hub), ticket: ticket, timeout: loop.scheduleTask(in: .seconds(1)) {})
    }

    @Test func aFreshReadingWaitIsTakenOnceByItsTicketAndHandedBackAtTheClose() {
        let harness = HubHarness()
        var machine = serving()
        machine.answerPending(.freshReading(wait(ticket: 7, on: harness.loop, hub: harness.hub)))
        #expect(machine.freshReadingCame(ticket: 6) == nil, "another ticket: not this wait")
        #expect(machine.freshReadingCame(ticket: 7)?.ticket == 7)
        #expect(machine.freshReadingCame(ticket: 7) == nil, "taken once")
        #expect(machine.phase == .awaitingAnswer, "the answer is on its way")
        machine.answerSent()
        #expect(machine.phase == .serving)

        var closing = serving()
        closing.answerPending(.freshReading(wait(ticket: 8, on: harness.loop, hub: harness.hub)))
        #expect(closing.closed()?.ticket == 8, "the close hands the wait back, to be cancelled")
        #expect(closing.closed() == nil)
    }

    /// A lock's reply holds the subscription's events behind it until it is sent.
    @Test func aLockSaveHoldsEventsBehindItsReply() {
        var machine = serving()
        #expect(!machine.holdsEventsBehindReply)
        machine.answerPending(.lockSave)
        #expect(machine.holdsEventsBehindReply)
        machine.answerSent()
        #expect(!machine.holdsEventsBehindReply)
    }
}

/// A connection that closes while a request waits for a fresh reading hands the wait back, to be
/// withdrawn from the hub, however it closes.
@Suite struct ClosingWhileWaitingTests {
    private func line(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    private func waiting(_ harness: HubHarness) -> ConnectionStateMachine {
        var machine = ConnectionStateMachine(queuedBytesLimit: 100)
        machine.admitted()
        machine.received(line("get"))
        _ = machine.nextAction()
        _ = machine.nextAction()
        machine.answerPending(.freshReading(FreshnessWait(id: .integer(1), answer: .get(harness.hub), ticket: 3,
                                                          timeout: harness.loop.scheduleTask(in: .seconds(1)) {})))
        return machine
    }

    @Test func aFailedWriteKeepsTheWaitForTheClose() {
        let harness = HubHarness()
        var machine = waiting(harness)
        machine.writeFailed()
        #expect(machine.phase == .closing)
        #expect(machine.closed()?.ticket == 3)
    }

    @Test func floodingKeepsTheWaitForTheClose() {
        let harness = HubHarness()
        var machine = waiting(harness)
        machine.received(line(String(repeating: "x", count: 200)))
        #expect(machine.nextAction() == .closeForFlooding)
        #expect(machine.closed()?.ticket == 3)
    }
}
