import Foundation
import Synchronization

/// Types a text into the focused window with `xdotool`, a word at a time on a thread of its own,
/// until the text is typed or ``stop()`` is called.
///
/// Stopping waits for the word being typed: killing xdotool between a key's press and its release
/// would leave the key held down in the X server, which then swallows the next press of that key
/// in whatever a later test types.
final class Typist: Sendable {
    private let stopped = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts typing `text`, `delayMilliseconds` between keys.
    init(typing text: String, delayMilliseconds: Int) {
        let words = text.split(separator: " ", omittingEmptySubsequences: false)
        let chunks = words.indices.map { words[$0] + ($0 == words.indices.last ? "" : " ") }
        Thread { [self] in
            defer { finished.signal() }
            for chunk in chunks where !chunk.isEmpty {
                if stopped.withLock({ $0 }) { return }
                let xdotool = Process()
                xdotool.executableURL = URL(filePath: "/usr/bin/xdotool")
                xdotool.arguments = ["type", "--delay", "\(delayMilliseconds)", String(chunk)]
                guard (try? xdotool.run()) != nil else { return }
                xdotool.waitUntilExit()
            }
        }.start()
    }

    /// Stops after the word being typed and waits until it is typed; does nothing the second time.
    func stop() {
        let wasStopped = stopped.withLock { stopped in
            defer { stopped = true }
            return stopped
        }
        if !wasStopped { finished.wait() }
    }
}
