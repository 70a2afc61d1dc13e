import Foundation
import Synchronization

/// Hands out blocks of temporary keys, unique across the container's contexts, so that a temporary
/// ID never means two objects; and remembers which permanent key a temporary key became when a
/// context with descendants saved to the store, so that the descendants can follow.
final class TemporaryKeySource: Sendable {
    private struct State {
        var next: Int64 = 0
        var permanentKeys: [Int64: Int64] = [:]
        /// Every recorded pair in order: a context catches up from where it last looked.
        var log: [(temporary: Int64, permanent: Int64)] = []
    }

    private let state = Mutex(State())
    /// The length of the log, readable without the lock.
    private let logLength = Atomic<Int>(0)
    private static let blockSize: Int64 = 4096

    /// A block of keys: the context uses `start + 1 ... end`.
    func reserve() -> (start: Int64, end: Int64) {
        state.withLock { state in
            let start = state.next
            state.next += Self.blockSize
            return (start, state.next)
        }
    }

    /// Records the permanent keys some temporary keys became.
    func record(_ pairs: [(temporary: Int64, permanent: Int64)]) {
        guard !pairs.isEmpty else { return }
        state.withLock { state in
            for pair in pairs where pair.temporary < 0 {
                state.permanentKeys[pair.temporary] = pair.permanent
                state.log.append(pair)
            }
            logLength.store(state.log.count, ordering: .releasing)
        }
    }

    /// How many pairs were recorded so far.
    var generation: Int { logLength.load(ordering: .acquiring) }

    /// The pairs recorded between two generations.
    func mappings(from start: Int, to end: Int) -> [(temporary: Int64, permanent: Int64)] {
        state.withLock { Array($0.log[start..<end]) }
    }

    /// The permanent key a temporary key became, if it did.
    func permanentKey(for temporary: Int64) -> Int64? {
        guard temporary < 0, generation > 0 else { return nil }
        return state.withLock { $0.permanentKeys[temporary] }
    }
}
