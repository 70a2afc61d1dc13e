import Foundation

/// Waits until `condition` holds, checking it every 10 ms and letting other work run between
/// checks (a merge on the main queue, a worker's sync); false when it still does not hold after
/// `seconds`. The limit only turns a hang into a failure, and nothing asserts how long it took: a
/// minute, since on a machine loaded by other suites and builds a worker's first sync has taken
/// longer than 20 s (LeaseTests, "worker reaches idle").
///
///     #expect(await eventually { log.changes.count == 2 })
///
/// `condition` runs on the caller's actor (`isolation`), so it may read the caller's state.
public func eventually(
    within seconds: Double = 60, isolation: isolated (any Actor)? = #isolation, _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = Date() + seconds
    while Date() < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try await condition()
}
