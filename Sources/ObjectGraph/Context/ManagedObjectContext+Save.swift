import Foundation

/// Saving, step by step: delete rules (`+DeleteRules`), validation of everything
/// (``SaveValidator``), then one SQLite transaction (`+SaveToStore`, its SQL in ``RowWriter``) or,
/// for a child context, one push into the parent (`+SaveIntoParent`); conflicts go through the
/// merge policy either way.
extension ManagedObjectContext {
    /// Writes every pending change to the store in one transaction (a child context: into its
    /// parent) and returns what was written.
    ///
    /// First the delete rules of deleted objects are applied (cascade transitively, nullify
    /// inverses, deny). Then every inserted, changed and deleted object is validated: required
    /// values, relationship counts, deny rules and the objects' own `validateFor...` methods; all
    /// failures are thrown together as a ``ValidationError`` (with any uniqueness violations). Only
    /// then is anything written. Uniqueness is enforced by the store's unique indexes, and a
    /// violation found while writing is reported the same way, naming every object concerned.
    ///
    /// Updates and deletes check each row's version: a row changed or deleted elsewhere since it
    /// was read is a conflict, and so is an inserted object whose unique values an existing row
    /// holds. ``mergePolicy`` decides them (`.error`: the save fails with
    /// ``ObjectGraphError/mergeConflicts(_:)``); resolved ones are listed in
    /// ``ChangeSet/resolvedConflicts``. When the save throws, the store is untouched and the
    /// context keeps its changes (delete rules already applied stay applied; `rollback()` undoes
    /// everything).
    ///
    /// Observers get `objectsDidChange` for the last edits, `willSave`, then `didSave`; other
    /// contexts that merge automatically get the changes in commit order.
    @discardableResult
    public func save() throws -> ChangeSet {
        try save(consumerTokens: [:])
    }

    /// Saves like ``save()`` and, in the same transaction, records that `consumer` processed
    /// persistent history through `token`: a consumer's effects and its progress commit together
    /// (also when the context has no changes, when only the token is written).
    @discardableResult
    public func save(advancing consumer: HistoryConsumer, to token: HistoryToken) throws -> ChangeSet {
        checkAccess()
        guard parent == nil else { throw ObjectGraphError.unsupportedInChildContext(operation: "advance a history consumer") }
        try persistentStore.history.checkRecorded()
        return try save(consumerTokens: [consumer.name: token])
    }

    private func save(consumerTokens: [String: HistoryToken]) throws -> ChangeSet {
        checkAccess()
        adoptPermanentIDsIfNeeded()
        if let failure = deferredFailures.first { throw failure }
        processPendingChanges()
        var changes = ChangeSet()
        changes.contextName = name
        changes.transactionAuthor = transactionAuthor
        guard hasChanges else {
            if !consumerTokens.isEmpty {
                try persistentStore.write { _, transaction in transaction.consumerTokens = consumerTokens }
            }
            return changes
        }

        var issues = try applyDeleteRules()
        // Cascaded deletes and nullified relationships are changes observers hear of like any other.
        processPendingChanges()
        let inserts = liveInserts
        let updates = pendingUpdates.filter { $0.flags.contains(.updated) && !$0.flags.contains(.inserted) && !$0.flags.contains(.deleted) }
        let deletes = pendingDeletes.filter { $0.flags.contains(.listedAsDeleted) && !$0.flags.contains(.inserted) }
        for object in deletes where object.flags.contains(.fault) { fulfillFaultForAccess(of: object) }
        if !observers.isEmpty {
            observers.post(.willSave(inserted: inserts.map(\.objectID), updated: updates.map(\.objectID), deleted: deletes.map(\.objectID)))
        }

        let validator = SaveValidator(context: self)
        issues += try validator.issues(inserting: inserts, updating: updates, deleting: deletes)
        if !issues.isEmpty {
            // Uniqueness is otherwise left to the store's unique indexes (see `SaveValidator`); here
            // it is checked too, so that one error lists everything.
            issues += try validator.uniquenessIssues(inserts + updates, deleting: deletes)
            throw ValidationError(issues: issues)
        }

        let resolutionChanges: ObjectsDidChange
        if parent != nil {
            (changes, resolutionChanges) = try saveIntoParent(inserts: inserts, updates: updates, deletes: deletes, changes: changes)
        } else {
            (changes, resolutionChanges) = try saveToStore(
                inserts: inserts, updates: updates, deletes: deletes, changes: changes, consumerTokens: consumerTokens)
        }
        if !observers.isEmpty { observers.post(.didSave(changes)) }
        post(resolutionChanges)
        return changes
    }
}
