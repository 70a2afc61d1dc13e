import ObjectGraph
import Testing

/// A fetched-results controller delegate that records what it is told, checks the brackets, and
/// replays each batch on plain arrays: the objects as a list, the sections as lists of lists.
final class ChangeRecorder<Result: ManagedObject>: FetchedResultsControllerDelegate {
    /// Every call, by name, in order.
    private(set) var calls: [String] = []
    /// The object changes of each batch.
    private(set) var batches: [[FetchedResultsChange]] = []
    private(set) var sectionBatches: [[FetchedResultsSectionChange]] = []
    private(set) var differences: [FetchedResultsDifference] = []
    private(set) var reloads = 0
    private(set) var errors: [any Error] = []
    /// The objects as replayed from the batches (and reloads).
    private(set) var replayed: [ManagedObjectID] = []
    /// The objects as replayed from the snapshot differences.
    private(set) var replayedFromDifferences: [ManagedObjectID] = []
    /// The sections (name and object IDs) as replayed from the batches.
    private(set) var replayedSections: [(name: String, objects: [ManagedObjectID])] = []
    /// Problems found while replaying: positions that did not hold the object a change named.
    private(set) var problems: [String] = []
    private var inBatch = false
    private var currentChanges: [FetchedResultsChange] = []
    private var currentSectionChanges: [FetchedResultsSectionChange] = []

    /// Starts the replayed arrays from the controller's current results.
    func start(from controller: FetchedResultsController<Result>) {
        replayed = controller.fetchedObjects?.objectIDs ?? []
        replayedFromDifferences = replayed
        replayedSections = controller.sections.map { sections in sections.map { ($0.name, $0.objectIDs) } } ?? []
    }

    func controllerWillChangeContent(_ controller: FetchedResultsController<Result>) {
        calls.append("willChange")
        if inBatch { problems.append("willChangeContent inside a batch") }
        inBatch = true
        currentChanges = []
        currentSectionChanges = []
    }

    func controller(_ controller: FetchedResultsController<Result>, didChangeSection change: FetchedResultsSectionChange) {
        calls.append("section")
        if !inBatch { problems.append("section change outside a batch") }
        currentSectionChanges.append(change)
    }

    func controller(_ controller: FetchedResultsController<Result>, didChange change: FetchedResultsChange) {
        calls.append("change")
        if !inBatch { problems.append("change outside a batch") }
        currentChanges.append(change)
    }

    func controllerDidChangeContent(_ controller: FetchedResultsController<Result>) {
        calls.append("didChange")
        if !inBatch { problems.append("didChangeContent without willChangeContent") }
        inBatch = false
        batches.append(currentChanges)
        sectionBatches.append(currentSectionChanges)
        replayed = replay(currentChanges, on: replayed)
        replayedSections = replay(currentChanges, currentSectionChanges, on: replayedSections)
    }

    func controller(_ controller: FetchedResultsController<Result>, didChangeContentWith difference: FetchedResultsDifference) {
        calls.append("difference")
        differences.append(difference)
        guard let applied = replayedFromDifferences.applying(difference.objects) else {
            problems.append("the difference does not apply")
            return
        }
        replayedFromDifferences = applied
    }

    func controllerDidReloadContent(_ controller: FetchedResultsController<Result>) {
        calls.append("reload")
        reloads += 1
        start(from: controller)
    }

    func controller(_ controller: FetchedResultsController<Result>, didFailWith error: any Error) {
        calls.append("error")
        errors.append(error)
    }

    func clearCalls() {
        calls = []
        batches = []
        sectionBatches = []
        differences = []
    }

    /// Applies a batch to a list: removals from their old index, highest first, then arrivals at
    /// their new index, lowest first; updates name the row at their old index.
    private func replay(_ changes: [FetchedResultsChange], on list: [ManagedObjectID]) -> [ManagedObjectID] {
        var removals: [(index: Int, id: ManagedObjectID)] = []
        var arrivals: [(index: Int, id: ManagedObjectID)] = []
        for change in changes {
            switch change {
            case .delete(let id, let position): removals.append((position.index, id))
            case .insert(let id, let position): arrivals.append((position.index, id))
            case .move(let id, let from, let to):
                removals.append((from.index, id))
                arrivals.append((to.index, id))
            case .update(let id, let position):
                if position.index >= list.count || list[position.index] != id {
                    problems.append("update of \(id) at \(position.index), which holds something else")
                }
            }
        }
        var result = list
        for removal in removals.sorted(by: { $0.index > $1.index }) {
            guard removal.index < result.count, result[removal.index] == removal.id else {
                problems.append("removal of \(removal.id) from \(removal.index), which holds something else")
                continue
            }
            result.remove(at: removal.index)
        }
        for arrival in arrivals.sorted(by: { $0.index < $1.index }) {
            guard arrival.index <= result.count else {
                problems.append("arrival of \(arrival.id) at \(arrival.index), past the end")
                continue
            }
            result.insert(arrival.id, at: arrival.index)
        }
        return result
    }

    /// Applies a batch to sections as a table view does: row removals at old index paths, section
    /// removals, section insertions, then row arrivals at new index paths.
    private func replay(
        _ changes: [FetchedResultsChange], _ sectionChanges: [FetchedResultsSectionChange],
        on sections: [(name: String, objects: [ManagedObjectID])]
    ) -> [(name: String, objects: [ManagedObjectID])] {
        var sections = sections
        var removals: [(path: FetchedIndexPath, id: ManagedObjectID)] = []
        var arrivals: [(path: FetchedIndexPath, id: ManagedObjectID)] = []
        for change in changes {
            switch change {
            case .delete(let id, let position): removals.append((position.indexPath, id))
            case .insert(let id, let position): arrivals.append((position.indexPath, id))
            case .move(let id, let from, let to):
                removals.append((from.indexPath, id))
                arrivals.append((to.indexPath, id))
            case .update: break
            }
        }
        for removal in removals.sorted(by: { $0.path > $1.path }) {
            let path = removal.path
            guard path.section < sections.count, path.item < sections[path.section].objects.count,
                  sections[path.section].objects[path.item] == removal.id else {
                problems.append("removal of \(removal.id) from \(path), which holds something else")
                continue
            }
            sections[path.section].objects.remove(at: path.item)
        }
        var deleted: [Int] = []
        var inserted: [(index: Int, name: String)] = []
        for change in sectionChanges {
            switch change {
            case .delete(_, let index): deleted.append(index)
            case .insert(let name, let index): inserted.append((index, name))
            }
        }
        for index in deleted.sorted(by: >) {
            guard index < sections.count, sections[index].objects.isEmpty else {
                problems.append("deletion of section \(index), which is not there or not empty")
                continue
            }
            sections.remove(at: index)
        }
        for section in inserted.sorted(by: { $0.index < $1.index }) {
            guard section.index <= sections.count else {
                problems.append("insertion of section \(section.index) past the end")
                continue
            }
            sections.insert((section.name, []), at: section.index)
        }
        for arrival in arrivals.sorted(by: { $0.path < $1.path }) {
            let path = arrival.path
            guard path.section < sections.count, path.item <= sections[path.section].objects.count else {
                problems.append("arrival of \(arrival.id) at \(path), past the end")
                continue
            }
            sections[path.section].objects.insert(arrival.id, at: path.item)
        }
        return sections
    }
}
