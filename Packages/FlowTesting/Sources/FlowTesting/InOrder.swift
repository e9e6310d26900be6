/// Runs numbered pieces of work a few at a time and hears their results in their numbers'
/// order: what lets scripts and walks use every core while their reports read as if they ran
/// one after another.
enum InOrder {
    /// Runs `work` for 0..<count, at most `width` at once, and calls `then` with each result in
    /// order, as soon as it and all before it are in.
    static func run<Result: Sendable>(
        _ count: Int, width: Int, _ work: @escaping @Sendable (Int) async -> Result, then: (Result) async -> Void
    ) async {
        await withTaskGroup(of: (Int, Result).self) { group in
            var next = 0
            for _ in 0..<min(max(1, width), count) {
                let index = next
                group.addTask { (index, await work(index)) }
                next += 1
            }
            var waiting: [Int: Result] = [:]
            var reported = 0
            while let (index, result) = await group.next() {
                waiting[index] = result
                while let ready = waiting.removeValue(forKey: reported) {
                    await then(ready)
                    reported += 1
                }
                if next < count {
                    let index = next
                    group.addTask { (index, await work(index)) }
                    next += 1
                }
            }
        }
    }
}
