@testable import FlowsServer
import Synchronization
import Testing

/// `/ready` asks the store at most once a second, however many ask at once.
struct ReadinessProbeTests {
    private final class Probes: Sendable {
        let count = Mutex(0)
        let answer = Mutex(true)
    }

    private final class Clock: Sendable {
        let start = ContinuousClock.now
        let offset = Mutex(Duration.zero)
        var now: ContinuousClock.Instant { start + offset.withLock { $0 } }
    }

    @Test("300 checks at once make one probe; within the second the answer is kept, after it the store is asked again")
    func onceASecond() async {
        let probes = Probes()
        let clock = Clock()
        let readiness = ReadinessProbe(now: { clock.now }) {
            probes.count.withLock { $0 += 1 }
            try? await Task.sleep(for: .milliseconds(50))
            return probes.answer.withLock { $0 }
        }
        let answers = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<300 { group.addTask { await readiness.ready() } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(answers == Array(repeating: true, count: 300))
        #expect(probes.count.withLock { $0 } == 1)

        probes.answer.withLock { $0 = false }
        clock.offset.withLock { $0 = .milliseconds(900) }
        #expect(await readiness.ready())
        #expect(probes.count.withLock { $0 } == 1)
        clock.offset.withLock { $0 = .milliseconds(1_100) }
        #expect(await readiness.ready() == false)
        #expect(probes.count.withLock { $0 } == 2)
    }
}
