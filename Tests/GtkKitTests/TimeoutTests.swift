import CGtk
import Glibc
import GtkTestSupport
import XCTest

@testable import GtkKit

final class TimeoutTests: GtkTestCase, @unchecked Sendable {
    func testAOneShotTimeoutFiresOnce() {
        MainActor.assumeIsolated {
            var fired = 0
            let timeout = Timeout(milliseconds: 1) { fired += 1 }
            spinMainLoop { timeout.hasFired }
            XCTAssertFalse(timeout.isPending)
            let later = Timeout(milliseconds: 5) {}
            spinMainLoop { later.hasFired }
            XCTAssertEqual(fired, 1)
        }
    }

    func testARepeatingTimeoutFiresUntilCancelled() {
        MainActor.assumeIsolated {
            var fired = 0
            var ticker: Timeout?
            ticker = Timeout(milliseconds: 1, priority: .high, repeats: true) {
                fired += 1
                if fired == 3 { ticker?.cancel() }
            }
            spinMainLoop { fired == 3 }
            XCTAssertFalse(ticker!.isPending)
            let later = Timeout(milliseconds: 10) {}
            spinMainLoop { later.hasFired }
            XCTAssertEqual(fired, 3, "a cancelled timeout fires no more")
        }
    }

    func testAReleasedRepeatingTimeoutStops() {
        MainActor.assumeIsolated {
            var fired = 0
            var ticker: Timeout? = Timeout(milliseconds: 1, repeats: true) { fired += 1 }
            spinMainLoop { fired >= 1 }
            ticker = nil
            let count = fired
            let later = Timeout(milliseconds: 10) {}
            spinMainLoop { later.hasFired }
            XCTAssertEqual(fired, count)
            XCTAssertNil(ticker)
        }
    }

    func testAnIdleTimeoutWaitsForOrdinaryWork() {
        MainActor.assumeIsolated {
            var fired: [String] = []
            let idle = Timeout(milliseconds: 0, priority: .idle) { fired.append("idle") }
            let ordinary = Timeout(milliseconds: 0) { fired.append("default") }
            spinMainLoop { idle.hasFired }
            XCTAssertTrue(ordinary.hasFired)
            XCTAssertEqual(fired, ["default", "idle"], "the idle one, made first, fires after the ordinary one")
        }
    }

    func testAUnixSignalRunsItsHandlerOnTheMainLoop() {
        MainActor.assumeIsolated {
            var received = 0
            let watch = UnixSignalWatch(SIGUSR2) { received += 1 }
            raise(SIGUSR2)
            spinMainLoop { received == 1 }
            watch.cancel()
        }
    }
}
