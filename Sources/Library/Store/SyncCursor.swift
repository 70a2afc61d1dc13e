import Foundation
import ObjectGraph

/// Where the change feed of one server account was read up to.
public final class SyncCursor: ManagedObject {
    /// The server and account the cursor belongs to (for example the server URL and account name).
    @Attribute("server") public var server: String
    /// The last `nextCursor` applied.
    @Attribute("cursor") public var cursor: Int64
    /// When a sync last completed.
    @Attribute("lastSynced") public var lastSynced: Date?
}
