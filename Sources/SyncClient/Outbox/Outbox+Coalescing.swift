extension Outbox {
    /// Merges each run of consecutive unsent (`pending`) entries of one article into its first
    /// entry, so that one push carries them all.
    ///
    /// The first entry keeps its ID, sequence and precondition (the base the run starts from)
    /// and takes the run's net change: the last one. That is exact because a `PUT` replaces the
    /// whole content and a `DELETE` ends it: put+put is the later put, put+delete a delete,
    /// delete+put a put (the article restored and edited on this device). A delete whose base
    /// turns out `.absent` (the server never held the article) is settled without a request by
    /// `OperationReducer`.
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
        // Index in `result` of the article's open run, the last entry of the article when pending.
        var openRun: [String: Int] = [:]
        for entry in entries.sorted(by: { $0.sequence < $1.sequence }) {
            guard entry.state == .pending else {
                openRun[entry.articleID] = nil
                result.append(entry)
                continue
            }
            if let index = openRun[entry.articleID], entry.precondition == nil {
                result[index].change = entry.change
                rewritten[result[index].id] = result[index]
                removed.append(entry.id)
                absorbedInto[entry.id] = result[index].id
            } else {
                openRun[entry.articleID] = result.count
                result.append(entry)
            }
        }
        let rewrittenInOrder = result.filter { rewritten[$0.id] != nil }
        return OutboxCoalescing(entries: result, rewritten: rewrittenInOrder, removed: removed, absorbedInto: absorbedInto)
    }
}
