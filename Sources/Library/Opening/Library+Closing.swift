import Foundation
import ObjectGraph

/// A closed library is one file: the store's write-ahead log (`library.quire-wal`) holds the
/// latest saves until SQLite checkpoints it into `library.quire`, which happens when the last
/// connection closes. A process that exits with its library open leaves them in the log, and a
/// writer who copies `library.quire` alone (a USB stick, a file-sync folder) gets an older library.
extension Library {
    /// How long the app's library stays without a save before its log is checkpointed into the
    /// library file (``checkpointWhenIdle()``): longer than the pauses of typing, whose autosaves
    /// and recovery copies come every second or two.
    public static let idleCheckpointDelay: Duration = .seconds(5)

    /// How long ``close()`` waits for the operations already running.
    static let closingWait: DispatchTimeInterval = .seconds(10)

    /// Lets the operations already running finish (the app's last ones when it quits: removing a
    /// saved draft's recovery copy, say; at most ten seconds), then checkpoints the log into the
    /// library file and closes the store: afterwards `library.quire` alone holds everything, and
    /// the log and shared-memory files are gone unless another program has the library open (then
    /// they stay for it, which is safe). Every operation afterwards throws
    /// `ObjectGraphError.storeClosed`. Every command and the app call it when they are done with
    /// the library; closing twice does nothing. Never call it from inside an operation. A read
    /// that only prepares for later gives up first (``stopIfClosing()``): at a million articles
    /// the sidebar counts' first reading held a quit right after opening for 6–10 s.
    public func close() {
        isClosing.store(true, ordering: .relaxed)
        _ = operationsInFlight.wait(timeout: .now() + Self.closingWait)
        container.close()
    }

    /// While the library stays open, checkpoints its log into the library file each time no save
    /// has come for ``idleCheckpointDelay``, so that the file alone is complete whenever the app is
    /// idle. A read-only library has nothing to checkpoint.
    public func checkpointWhenIdle() {
        container.persistentStore.checkpointWhenIdle(after: Self.idleCheckpointDelay)
    }
}
