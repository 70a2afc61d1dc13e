/// Applying the context's changes to a fetched-results controller's results, one batch per
/// notification, and reporting them.
extension FetchedResultsController {
    func handle(_ notification: ContextNotification) {
        backgroundFetch?.note(notification)
        guard let results else { return }
        var actions = RowActions()
        var savedValues: SavedValues?
        switch notification {
        case .objectsDidChange(let change):
            savedValues = change.savedValues
            if change.invalidatedAll {
                reloadAfterInvalidation()
                return
            }
            collect(change, into: &actions, results: results)
        case .didSave(let changes):
            // A save to the store announces its new permanent IDs only here.
            collectPermanentIDs(changes.permanentIDs, into: &actions, results: results)
        case .willSave:
            return
        }
        guard !actions.isEmpty else { return }
        do {
            try apply(actions, to: results, savedValues: savedValues)
        } catch {
            delegate?.controller(self, didFailWith: error)
        }
    }

    /// The rows a change concerns, and what to do with each.
    private func collect(_ change: ObjectsDidChange, into actions: inout RowActions, results: Results) {
        let plan = results.plan
        collectPermanentIDs(change.permanentIDs, into: &actions, results: results)
        for objectID in change.deleted where plan.contains(objectID) {
            actions.add(.remove, for: objectID.key)
        }
        for objectID in change.inserted where plan.contains(objectID) {
            // An ID already in the results (a fetch saw it before the merge) counts as an update.
            actions.add(.evaluate, for: objectID.key)
        }
        // Changed objects are evaluated as a fetch would: the context's own edits in memory, values
        // from outside by their rows. Their changed keys are not enough to leave some out: an object
        // placed by its row before its first edit is placed by its values in memory after it, and
        // a rollback brings back values of a row that merges changed meanwhile.
        for updated in change.updated + change.refreshed where plan.contains(updated.objectID) {
            actions.add(.evaluate, for: updated.objectID.key)
        }
    }

    /// A row known by a temporary ID leaves and comes back under its permanent ID, at the place
    /// its new key gives it.
    private func collectPermanentIDs(
        _ permanentIDs: [ManagedObjectID: ManagedObjectID], into actions: inout RowActions, results: Results
    ) {
        for (temporary, permanent) in permanentIDs where results.plan.contains(temporary) {
            guard results.table.slot(forKey: temporary.key) != nil else { continue }
            actions.add(.remove, for: temporary.key)
            actions.add(.evaluate, for: permanent.key)
        }
    }

    /// Fetches again after the context let go of its objects, and reports a reload. A fetch in
    /// the background is complete with it.
    private func reloadAfterInvalidation() {
        let inBackground = backgroundFetch
        do {
            try refetch()
        } catch {
            delegate?.controller(self, didFailWith: error)
            return
        }
        delegate?.controllerDidReloadContent(self)
        inBackground?.completion(nil)
    }

    // MARK: Applying a batch

    /// Applies one batch: reads the rows to evaluate (the only step that can fail, so a failure
    /// leaves the results untouched; rows a merged save carries the values of are not read),
    /// takes the old positions, removes and inserts rows, takes the new positions, and reports the
    /// changes with the positions a delegate expects.
    private func apply(_ actions: RowActions, to results: Results, savedValues: SavedValues?) throws {
        let table = results.table
        let plan = results.plan
        var evaluated: [Int64: Int32] = [:]
        for (key, slot) in try evaluate(actions.keys(for: .evaluate), in: results, savedValues: savedValues) { evaluated[key] = slot }

        var removals: [(key: Int64, slot: Int32)] = []
        var arrivals: [(key: Int64, slot: Int32)] = []
        var moves: [(key: Int64, old: Int32, new: Int32)] = []
        var updates: [(key: Int64, slot: Int32)] = []
        for (key, action) in actions.ordered {
            let present = table.slot(forKey: key)
            switch action {
            case .remove:
                if let present { removals.append((key, present)) }
            case .evaluate:
                guard let slot = evaluated[key] else {
                    if let present { removals.append((key, present)) }
                    continue
                }
                if let present {
                    if table.compare(present, slot) == 0 {
                        table.release(slot)
                        updates.append((key, present))
                    } else {
                        moves.append((key, present, slot))
                    }
                } else {
                    arrivals.append((key, slot))
                }
            }
        }
        guard !(removals.isEmpty && arrivals.isEmpty && moves.isEmpty && updates.isEmpty) else { return }

        // Positions before the batch, and which sections the rows that leave or arrive belong to.
        // A batch that takes out or puts in one row of unsectioned results (the common case: one
        // save of one article) reads its positions from the tree as it changes it; any other batch
        // looks them up before and after, since each removal and insertion shifts the others.
        let singleRow = !plan.isSectioned && removals.count + arrivals.count + moves.count == 1
        var removedFrom = singleRow ? [] : removals.map { position(of: $0.slot, in: results) }
        var movedFrom = singleRow ? [] : moves.map { position(of: $0.old, in: results) }
        let updatedAt = updates.map { position(of: $0.slot, in: results) }
        let sectionProbes = plan.isSectioned ? removals.map(\.slot) + moves.map(\.old) + moves.map(\.new) + arrivals.map(\.slot) : []
        let sectionsBefore = sectionProbes.map { section(matching: $0, in: results) }

        var removedAt: [Int] = []
        var insertedAt: [Int] = []
        for removal in removals { removedAt.append(removeRow(removal.slot, in: results)) }
        for move in moves { removedAt.append(removeRow(move.old, in: results)) }
        for arrival in arrivals { insertedAt.append(insertRow(arrival.slot, in: results)) }
        for move in moves { insertedAt.append(insertRow(move.new, in: results)) }

        let sectionsAfter = sectionProbes.map { section(matching: $0, in: results) }
        var arrivedAt: [FetchedResultsPosition]
        var movedTo: [FetchedResultsPosition]
        if singleRow {
            let place = { (index: Int) in FetchedResultsPosition(index: index, indexPath: FetchedIndexPath(section: 0, item: index)) }
            removedFrom = removals.isEmpty ? [] : [place(removedAt[0])]
            arrivedAt = arrivals.isEmpty ? [] : [place(insertedAt[0])]
            movedFrom = moves.isEmpty ? [] : [place(removedAt[0])]
            movedTo = moves.isEmpty ? [] : [place(insertedAt[0])]
        } else {
            arrivedAt = arrivals.map { position(of: $0.slot, in: results) }
            movedTo = moves.map { position(of: $0.new, in: results) }
        }

        var sectionChanges: [FetchedResultsSectionChange] = []
        var deletedSections = Set<Int>()
        var insertedSections = Set<Int>()
        for (probe, (before, after)) in zip(sectionProbes, zip(sectionsBefore, sectionsAfter)) where before.exists != after.exists {
            let name = Self.sectionName(for: table.value(of: probe, column: 0))
            if before.exists, deletedSections.insert(before.number).inserted {
                sectionChanges.append(.delete(name: name, at: before.number))
            } else if after.exists, insertedSections.insert(after.number).inserted {
                sectionChanges.append(.insert(name: name, at: after.number))
            }
        }

        // A lone row whose sort keys changed but which stays between the same neighbours is an
        // update, not a move: the rows the batch leaves alone are in the same order around it.
        var movedInPlace = false
        if let move = moves.first, moves.count == 1 {
            let from = movedFrom[0].index
            let to = movedTo[0].index
            let survivorsBefore = from - removedFrom.filter { $0.index < from }.count
            let survivorsAfter = to - arrivedAt.filter { $0.index < to }.count
            movedInPlace = survivorsBefore == survivorsAfter && (!plan.isSectioned || table.compareFirstKey(move.old, move.new) == 0)
        }

        for removal in removals { table.release(removal.slot) }
        for move in moves {
            table.index(move.new)
            table.release(move.old)
        }
        for arrival in arrivals { table.index(arrival.slot) }
        guard let delegate else { return }

        var changes: [FetchedResultsChange] = []
        var differences: [CollectionDifference<ManagedObjectID>.Change] = []
        var changed: [ManagedObjectID] = []
        for (removal, position) in zip(removals, removedFrom) {
            let objectID = plan.objectID(forKey: removal.key)
            changes.append(.delete(objectID, at: position))
            differences.append(.remove(offset: position.index, element: objectID, associatedWith: nil))
        }
        for (arrival, position) in zip(arrivals, arrivedAt) {
            let objectID = plan.objectID(forKey: arrival.key)
            changes.append(.insert(objectID, at: position))
            differences.append(.insert(offset: position.index, element: objectID, associatedWith: nil))
        }
        for (move, (from, to)) in zip(moves, zip(movedFrom, movedTo)) {
            let objectID = plan.objectID(forKey: move.key)
            changed.append(objectID)
            if movedInPlace {
                changes.append(.update(objectID, at: from))
                continue
            }
            changes.append(.move(objectID, from: from, to: to))
            differences.append(.remove(offset: from.index, element: objectID, associatedWith: to.index))
            differences.append(.insert(offset: to.index, element: objectID, associatedWith: from.index))
        }
        for (update, position) in zip(updates, updatedAt) {
            let objectID = plan.objectID(forKey: update.key)
            changed.append(objectID)
            changes.append(.update(objectID, at: position))
        }
        delegate.controllerWillChangeContent(self)
        for change in sectionChanges { delegate.controller(self, didChangeSection: change) }
        for change in changes { delegate.controller(self, didChange: change) }
        delegate.controllerDidChangeContent(self)
        delegate.controller(self, didChangeContentWith: FetchedResultsDifference(
            objectChanges: differences, changed: changed, sectionChanges: sectionChanges))
    }

    /// Where the row in `slot` is now.
    private func position(of slot: Int32, in results: Results) -> FetchedResultsPosition {
        guard let index = results.table.withOrder(against: slot, { results.tree.index(where: $0) }) else {
            preconditionFailure("row \(results.table.key(of: slot)) is not where its values place it")
        }
        return FetchedResultsPosition(index: index, indexPath: indexPath(at: index, in: results))
    }

    /// Whether a section with the section value of `slot` exists, and its number (or the number it
    /// would have).
    private func section(matching slot: Int32, in results: Results) -> (exists: Bool, number: Int) {
        let index = results.tree.lowerBound { results.table.compareFirstKey(SortKeyTable.slot(of: $0), slot) }
        let exists = index < results.tree.count && results.table.compareFirstKey(results.slot(at: index), slot) == 0
        return (exists, results.tree.marks(before: index))
    }

    // MARK: Rows in the tree

    /// Puts the row in `slot` where its values place it, marking section starts around it, and
    /// returns its index.
    @discardableResult
    func insertRow(_ slot: Int32, in results: Results) -> Int {
        let index = results.table.withOrder(against: slot) { results.tree.insert(results.table.entry(of: slot), $0) }
        guard results.plan.isSectioned else { return index }
        markSectionStart(at: index, in: results)
        if index + 1 < results.tree.count { markSectionStart(at: index + 1, in: results) }
        return index
    }

    /// Takes the row in `slot` out, marking whether the row after it now starts a section, and
    /// returns the index it had.
    @discardableResult
    func removeRow(_ slot: Int32, in results: Results) -> Int {
        guard let index = results.table.withOrder(against: slot, { results.tree.remove(where: $0) }) else {
            preconditionFailure("row \(results.table.key(of: slot)) is not where its values place it")
        }
        if results.plan.isSectioned && index < results.tree.count { markSectionStart(at: index, in: results) }
        return index
    }

    /// Marks the row at `index` if its section value differs from the row's before it.
    private func markSectionStart(at index: Int, in results: Results) {
        let slot = results.slot(at: index)
        let starts = index == 0 || results.table.compareFirstKey(results.slot(at: index - 1), slot) != 0
        results.tree.setMark(starts, at: index)
    }
}
