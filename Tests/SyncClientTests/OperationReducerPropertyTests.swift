import Foundation
import SyncClient
import Testing

/// The reducer, coalescing and scheduling together, over seeded random runs against a model of
/// the server: thousands of events each, with every fault the network and the server can cause.
@Suite struct OperationReducerPropertyTests {
    static let seeds: [UInt64] = [1, 2, 3, 5, 8, 13, 21, 34]

    /// Each seed's finished run, computed once for both tests.
    static let runs: [UInt64: OutboxSimulation.Outcome] = Dictionary(uniqueKeysWithValues: seeds.map { seed in
        (seed, OutboxSimulation.run(.init(seed: seed)))
    })

    @Test(arguments: seeds)
    func noOperationIsLostOrAppliedTwiceAndEachEnds(seed: UInt64) throws {
        let simulation = try #require(Self.runs[seed])
        #expect(simulation.violations.isEmpty, "\(simulation.violations.prefix(10).joined(separator: "\n"))")
        #expect((simulation.counts["send"] ?? 0) > 300, "\(simulation.counts)")
    }

    @Test func theRunsExerciseEveryPath() {
        var counts: [String: Int] = [:]
        for simulation in Self.runs.values {
            counts.merge(simulation.counts, uniquingKeysWith: +)
        }
        for path in ["unknown outcome", "lookup: never applied", "lookup: completed", "lookup: running", "answer: replayed",
                     "answer: retry 409", "answer: retry 429", "answer: conflict", "answer: rejected 413", "coalesced",
                     "resolved", "lease lost", "resume", "account rejected", "terminal failure", "answer lost with its worker"] {
            #expect((counts[path] ?? 0) > 0, "no run went through \(path): \(counts)")
        }
    }
}
