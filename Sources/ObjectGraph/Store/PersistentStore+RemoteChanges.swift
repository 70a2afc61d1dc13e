import Foundation

/// Noticing other processes' commits and merging them, through persistent history.
extension PersistentStore {
    /// Merges the transactions other processes (or other containers on the same file) committed
    /// since the last check into every context that merges automatically; true when there were
    /// any. Needs persistent history. The store runs this by itself, woken by changes of its files,
    /// once a context on it sets `automaticallyMergesChangesFromParent`; call it to check now.
    ///
    /// When the history since the last check was deleted meanwhile, the merging contexts refresh
    /// all their objects instead (observers get `invalidatedAll`).
    @discardableResult
    public func checkForRemoteChanges() throws -> Bool {
        guard recordsHistory else { return false }
        let contexts = mergingContexts.all
        return try read { connection in
            guard case .integer(let version)? = try connection.scalar("PRAGMA data_version"), version != remote.dataVersion else {
                return false
            }
            // One read transaction, so the transactions and the newest token agree.
            try connection.execute("BEGIN")
            defer { if connection.isInTransaction { try? connection.execute("ROLLBACK") } }
            var request = HistoryRequest(after: HistoryToken(rawValue: remote.lastToken))
            request.excludedOrigin = origin
            var transactions: [HistoryTransaction] = []
            var expired = false
            do {
                transactions = try history.fetch(request, connection)
            } catch ObjectGraphError.historyExpired {
                expired = true
            }
            let newest = try connection.scalar("SELECT max(token) FROM og_history_transaction")
            try connection.execute("COMMIT")
            remote.dataVersion = version
            if case .integer(let token)? = newest { remote.lastToken = max(remote.lastToken, token) }

            if expired {
                for context in contexts { context.queue.async { context.refreshAllObjects() } }
                return true
            }
            guard !transactions.isEmpty else { return false }
            let changes = ChangeSet(history: transactions)
            for context in contexts { context.queue.async { context.mergeChanges(fromContextDidSave: changes) } }
            return true
        }
    }

    /// Starts noticing other processes' commits, once, for a file store that records history.
    func startWatchingForRemoteChanges() {
        guard recordsHistory, let url = storeDescription.url else { return }
        locked {
            guard watcher == nil else { return }
            watcher = RemoteChangeWatcher(file: url, pollInterval: 0.5) { [weak self] in
                self?.checkForRemoteChangesRetrying()
            }
        }
    }

    /// The watcher's check. A failed check (a busy or unreadable store) leaves the store's
    /// position where it was, so the same transactions are merged by a retry: a few with growing
    /// delays, then at the next change of the file.
    private func checkForRemoteChangesRetrying(attempt: Int = 0) {
        do {
            try checkForRemoteChanges()
        } catch ObjectGraphError.storeClosed {
            return
        } catch {
            guard attempt < 10 else { return }
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.25 * Double(attempt + 1)) { [weak self] in
                self?.checkForRemoteChangesRetrying(attempt: attempt + 1)
            }
        }
    }
}
