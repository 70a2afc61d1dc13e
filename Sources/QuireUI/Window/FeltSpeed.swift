import Foundation
import GtkKit

/// How long the writer waits for the window to answer, measured by the app itself and printed
/// on standard output for `quire-bench` (`QUIRE_REPORT_FELT_SPEED=1 quire`): one line per event,
/// `NAME MILLISECONDS`, from the writer's action to the first frame that shows its result.
/// - `article-shown-ms`: from choosing an article in the list to its text, ready to edit;
/// - `search-shown-ms`: from a change of the search field's text (a key typed) to the list
///   showing what it finds, the search field's own delay included;
/// - `search-run-ms`: the same from the moment the search starts (after that delay), printed
///   after `search-shown-ms`.
///
/// Two kinds of line say where the window is rather than how fast, for tests that drive the app
/// from outside (``MainWindow/reportFocusAndSearches(to:)``): `focus PLACE` and
/// `search-listed COUNT TEXT`.
@MainActor
final class FeltSpeed {
    /// When the search field's text last changed, until the search it starts is shown.
    var searchTyped: ContinuousClock.Instant?

    /// Prints `name` with the time from `start` to the end of `window`'s next frame.
    func report(_ name: String, since start: ContinuousClock.Instant, afterNextFrameOf window: Window) {
        window.afterNextFrame {
            let elapsed = ContinuousClock.now - start
            let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            FileHandle.standardOutput.write(Data("\(name) \(milliseconds)\n".utf8))
        }
    }

    /// Prints `line` at once.
    func note(_ line: String) {
        FileHandle.standardOutput.write(Data("\(line)\n".utf8))
    }
}
