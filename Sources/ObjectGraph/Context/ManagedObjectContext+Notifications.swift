import Foundation

/// Change notifications: observers, and announcing the context's own edits.
extension ManagedObjectContext {
    /// Calls `handler` with every notification of the context, on the context's queue, right
    /// after the context's state reflects what it reports; until the returned observation is
    /// cancelled or released. May be called from any thread.
    ///
    ///     let observation = viewContext.addObserver { notification in
    ///         if case .objectsDidChange(let change) = notification { list.apply(change) }
    ///     }
    public func addObserver(_ handler: @escaping (ContextNotification) -> Void) -> ContextObservation {
        ContextObservation(observers: observers, number: observers.add(handler))
    }

    /// The context's notifications as an asynchronous sequence, from now until the iteration
    /// ends. Each element is produced on the context's queue after the state reflects it; by
    /// the time a task reads it, later changes may have happened.
    ///
    ///     for await notification in viewContext.notifications() { ... }
    public func notifications() -> AsyncStream<ContextNotification> {
        let (stream, continuation) = AsyncStream.makeStream(of: ContextNotification.self)
        let number = observers.add { continuation.yield($0) }
        continuation.onTermination = { [observers] _ in observers.remove(number) }
        return stream
    }

    /// Announces the context's own edits since the last announcement in one `objectsDidChange`:
    /// inserted, changed and deleted objects, objects refreshed with `refresh(_:mergeChanges:)`,
    /// and temporary IDs that became permanent.
    ///
    /// The context runs this on its queue after the first edit (so edits made together are
    /// announced together) and at the start of `save()`; call it to announce edits at once.
    public func processPendingChanges() {
        checkAccess()
        changeNotificationScheduled = false
        let announcing = !observers.isEmpty
        var change = ObjectsDidChange()
        while announcedInserts < pendingInserts.count {
            let object = pendingInserts[announcedInserts]
            announcedInserts += 1
            guard object.flags.contains(.inserted) && !object.flags.contains(.deleted) else { continue }
            object.flags.insert(.announced)
            if announcing { change.inserted.append(object.objectID) }
        }
        for object in unannounced {
            object.flags.remove(.unannounced)
            guard announcing, object.context === self, !object.flags.contains(.deleted), !object.changedProperties.isEmpty else { continue }
            change.updated.append(UpdatedObject(
                objectID: object.objectID, changedKeys: ChangedKeys(entity: object.entityModel, mask: object.changedProperties)))
        }
        unannounced = []
        while announcedDeletes < pendingDeletes.count {
            let object = pendingDeletes[announcedDeletes]
            announcedDeletes += 1
            // An insert deleted again before anyone heard of it never happened for observers.
            guard announcing, object.flags.contains(.listedAsDeleted),
                  !object.flags.contains(.inserted) || object.flags.contains(.announced) else { continue }
            change.deleted.append(object.objectID)
        }
        change.refreshed = unannouncedRefreshes
        unannouncedRefreshes = []
        change.permanentIDs = unannouncedPermanentIDs
        unannouncedPermanentIDs = [:]
        post(change)
    }

    /// Runs `processPendingChanges()` on the context's queue after the current work, once, when
    /// anyone is listening.
    @inline(__always)
    func scheduleChangeNotification() {
        guard !changeNotificationScheduled, !observers.isEmpty else { return }
        changeNotificationScheduled = true
        queue.async { [weak self] in
            guard let self, self.changeNotificationScheduled else { return }
            self.processPendingChanges()
        }
    }

    /// Posts an `objectsDidChange` unless it is empty or nobody listens.
    func post(_ change: ObjectsDidChange) {
        guard !change.isEmpty, !observers.isEmpty else { return }
        observers.post(.objectsDidChange(change))
    }
}
