import Foundation
import GtkKit

/// How long the writer waits for the window to answer, measured by the app itself and printed
/// on standard output for `quire-bench` (`QUIRE_REPORT_FELT_SPEED=1 quire`): one line per event,
/// `NAME MILLISECONDS`, from the writer's action to the first frame that shows its result.
/// - `article-shown-ms`: from choosing an article in the list to its text, ready to edit;
/// - `search-shown-ms`: from a change of the search field's text (a key typed) to the list
///   showing what it finds, the search field's own delay included;
/// - `search-run-ms`: the same from the moment the search starts (after that delay), printed
///   after `search-shown-ms`;
/// - `search-key-shown-ms`: the same from the moment the key was pressed (the display server's
///   time of the key press), so it also counts the time the key waited while the main thread
///   was busy before GTK could handle it (a search's whole list read there, say), printed before
///   `search-shown-ms`.
///
/// Three kinds of line say where the window is rather than how fast, for tests and benchmarks
/// that drive the app from outside (``MainWindow/reportFocusAndSearches(to:)``): `focus PLACE`,
/// `search-listed COUNT TEXT` and `search-whole-list` (a search's whole list starts to be read).
@MainActor
final class FeltSpeed {
    /// When the search field's text last changed, until the search it starts is shown.
    var searchTyped: ContinuousClock.Instant?
    /// The display server's time of the last key pressed in the search field (milliseconds on
    /// `CLOCK_MONOTONIC`, as Xvfb stamps it).
    var searchKeyPressed: UInt32?
    /// The same for the key whose change of the search field's text waits to be shown.
    var searchTypedKey: UInt32?

    /// Prints `name` with the time from the key press stamped `pressed` (see
    /// ``searchKeyPressed``) to the end of `window`'s next frame.
    func report(_ name: String, sinceKeyPressedAt pressed: UInt32, afterNextFrameOf window: Window) {
        window.afterNextFrame {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let milliseconds = UInt32(truncatingIfNeeded: Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000)
            FileHandle.standardOutput.write(Data("\(name) \(Double(milliseconds &- pressed))\n".utf8))
        }
    }

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
