import CGtk
import GtkTestSupport
import XCTest

@testable import GtkKit

final class MainLoopBridgeTests: GtkTestCase, @unchecked Sendable {
    func testMainActorTaskAndAwaitOfDetachedWorkCompleteInsideApplicationRun() {
        MainActor.assumeIsolated {
            var steps: [String] = []
            let status = runApplication { _, finish in
                Task { @MainActor in
                    // Dispatched by the GLib main context, through the bridge.
                    steps.append("hop at main depth \(g_main_depth())")
                    let answer = await Task.detached { (1...6).reduce(0, +) * 2 }.value
                    steps.append("detached returned \(answer) on main thread \(Thread.isMainThread)")
                    finish()
                }
            }
            XCTAssertEqual(status, 0)
            XCTAssertEqual(steps, ["hop at main depth 1", "detached returned 42 on main thread true"])
        }
    }

    func testBridgeDoesNotSpinWhileIdle() {
        MainActor.assumeIsolated {
            var callbacksDuringIdleSecond = -1
            var bridgeRan = false
            var idleSecond: Timeout?
            _ = runApplication { _, finish in
                // First prove the bridge is alive, so a dead bridge cannot pass the count.
                let before = MainLoopBridge.callbackCount
                Task { @MainActor in
                    bridgeRan = MainLoopBridge.callbackCount > before
                    let start = MainLoopBridge.callbackCount
                    idleSecond = Timeout(milliseconds: 1000) {
                        callbacksDuringIdleSecond = MainLoopBridge.callbackCount - start
                        finish()
                    }
                }
            }
            XCTAssertTrue(bridgeRan)
            XCTAssertEqual(idleSecond?.hasFired, true)
            XCTAssertGreaterThanOrEqual(callbacksDuringIdleSecond, 0)
            XCTAssertLessThanOrEqual(callbacksDuringIdleSecond, 5, "the bridge woke up while nothing was queued")
        }
    }
}
