import Library

extension Outbox {
    /// Merges each run of consecutive unsent (`pending`) entries of one article into its first
    /// entry, so that one push carries them all: the library's one coalescing rule
    /// (`SyncOperation.absorbs(_:namingItsBase:into:)`), applied to the entries about to be sent.
    ///
    /// The first entry keeps its ID, sequence and precondition (the base the run starts from)
    /// and takes the run's net change: the last one. A delete whose base turns out `.absent` (the
    /// server never held the article) is settled without a request by `OperationReducer`.
    ///
    /// Only entries that were never sent merge: a sent entry's request is fixed under its key. A
    /// run ends at any entry of the article that is not pending (in flight, waiting, final), and
    /// a pending entry whose precondition is already set (a conflict resolution's) starts a new
    /// run, since it names its own base.
    /// Call it in the transaction that picks entries to send, before `sendStarted`.
    public static func coalesce(_ entries: [OutboxEntry]) -> OutboxCoalescing {
        var result: [OutboxEntry] = []
        var rewritten: [String: OutboxEntry] = [:]
        var removed: [String] = []
        var absorbedInto: [String: String] = [:]
        // Index in `result` of each article's latest entry.
        var latest: [String: Int] = [:]
        for entry in entries.sorted(by: { $0.sequence < $1.sequence }) {
            if let index = latest[entry.articleID],
               SyncOperation.absorbs(entry.state.kind, namingItsBase: entry.precondition != nil, into: result[index].state.kind) {
                result[index].change = entry.change
                rewritten[result[index].id] = result[index]
                removed.append(entry.id)
                absorbedInto[entry.id] = result[index].id
            } else {
                latest[entry.articleID] = result.count
                result.append(entry)
            }
        }
        let rewrittenInOrder = result.filter { rewritten[$0.id] != nil }
        return OutboxCoalescing(entries: result, rewritten: rewrittenInOrder, removed: removed, absorbedInto: absorbedInto)
    }
}
