import Foundation
import ObjectGraph

/// A claim by one process on a piece of sync work (the push loop), so that two Quire processes on
/// one library never push at once. An expired lease may be taken over.
public final class SyncLease: ManagedObject {
    /// What is leased.
    @Attribute("name") public var name: String
    /// The process that holds it.
    @Attribute("owner") public var owner: String
    /// When the hold ends unless renewed.
    @Attribute("expires") public var expires: Date
}
