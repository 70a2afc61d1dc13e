import Foundation
import Platform
import ObjectGraph
import Testing
import QuireTestSupport

/// Four background contexts writing the same objects under different merge policies while the
/// view context reads and merges, for ten seconds: no crash, every conflict reported (error
/// policy) or resolved (the others), and a final state that is exactly what the applied writes add
/// up to.
@Suite struct StressTests {
    static let sharedCount = 20
    static let duration: Duration = .seconds(10)
    /// Steps each writer takes even when the machine is so busy (other suites run in parallel on
    /// the same cooperative threads) that the ten seconds pass before it gets going: with fewer,
    /// a writer might never meet a conflict.
    static let minimumSteps = 200

    /// What one writer applied, by shared article.
    struct Applied: Sendable {
        var counts = Array(repeating: 0, count: StressTests.sharedCount)
        var lastSubtitle: [Int: String] = [:]
        var ownAlive: Set<ManagedObjectID> = []
        var ownDeleted: Set<ManagedObjectID> = []
        var reportedConflicts = 0
        var resolvedConflicts = 0
        var saves = 0
    }

    /// Each writer changes one attribute of the shared articles, which only it changes, so that
    /// what it applied can be added up whatever the others did meanwhile.
    enum Writer: Int, CaseIterable, Sendable {
        /// `wordCount += 1` with the error policy: conflicts are reported, refreshed and retried.
        case counter
        /// `views += 1` with object trump.
        case viewer
        /// `rating += 1` with store trump (the store never changed the rating, so it is kept).
        case rater
        /// Sets subtitles with the rollback policy (dropped on conflict), and inserts and deletes
        /// articles of its own.
        case captioner

        var policy: MergePolicy {
            switch self {
            case .counter: return .error
            case .viewer: return .mergeByPropertyObjectTrump
            case .rater: return .mergeByPropertyStoreTrump
            case .captioner: return .rollback
            }
        }
    }

    @Test @MainActor func fourWritersAndTheViewContextForTenSeconds() async throws {
        let stack = try TestStack(recordsHistory: true)
        let shared = try stack.run { context in
            let articles = (0..<Self.sharedCount).map { index in
                let article = Article(context: context)
                article.title = "shared \(index)"
                article.rating = 0
                return article
            }
            try context.save()
            return articles.map(\.objectID)
        }
        let view = stack.container.viewContext
        view.automaticallyMergesChangesFromParent = true
        let clock = ContinuousClock()
        let deadline = clock.now + Self.duration

        let container = stack.container
        let writers = Task.detached {
            try await withThrowingTaskGroup(of: (Writer, Applied).self) { group in
                for writer in Writer.allCases {
                    group.addTask { (writer, try await Self.run(writer, container: container, shared: shared, until: deadline)) }
                }
                var results: [Writer: Applied] = [:]
                for try await (writer, applied) in group { results[writer] = applied }
                return results
            }
        }

        // The view context reads while the writers write: values only grow, nothing is a ghost.
        var seen = Array(repeating: (wordCount: 0, views: Int32(0), rating: 0.0), count: Self.sharedCount)
        var reads = 0
        while clock.now < deadline {
            let articles = try view.fetch(FetchRequest<Article>(predicate: .beginsWith(\.title, "shared"), sortDescriptors: [.ascending(\.createdAt)]))
            #expect(articles.count == Self.sharedCount)
            for article in articles {
                let index = try #require(shared.firstIndex(of: article.objectID))
                let now = (article.wordCount, article.views, article.rating ?? -1)
                #expect(now.0 >= seen[index].wordCount && now.1 >= seen[index].views && now.2 >= seen[index].rating)
                seen[index] = now
            }
            let own = try view.fetch(FetchRequest<Article>(predicate: .beginsWith(\.title, "own")))
            #expect(own.allSatisfy { $0.managedObjectContext === view && !$0.isDeleted })
            reads += 1
            try await Task.sleep(for: .milliseconds(20))
        }
        let results = try await writers.value
        #expect(reads > 0)

        // The store holds exactly what the applied writes add up to.
        let counter = try #require(results[.counter]), viewer = try #require(results[.viewer])
        let rater = try #require(results[.rater]), captioner = try #require(results[.captioner])
        try stack.run { context in
            for (index, id) in shared.enumerated() {
                let article = try context.existingObject(with: id, as: Article.self)
                #expect(article.wordCount == counter.counts[index])
                #expect(Int(article.views) == viewer.counts[index])
                #expect(article.rating == Double(rater.counts[index]))
                #expect(article.subtitle == captioner.lastSubtitle[index])
            }
            let own = Set(try context.fetchObjectIDs(FetchRequest<Article>(predicate: .beginsWith(\.title, "own"))))
            #expect(own == captioner.ownAlive)
        }
        // Conflicts happened and went where their policies send them.
        #expect(counter.reportedConflicts > 0 && counter.resolvedConflicts == 0)
        #expect(viewer.resolvedConflicts + rater.resolvedConflicts + captioner.resolvedConflicts > 0)
        #expect([viewer, rater, captioner].allSatisfy { $0.reportedConflicts == 0 })

        // Once the merges are in, the view context agrees with the store and holds no ghost. Both
        // are awaited together: a fetch reads the store, so it can agree while the merge of the
        // last deletion is still queued for the main actor (seen under stress-ng).
        let stored = try stack.run { context in
            try context.fetch(FetchRequest<Article>(sortDescriptors: [.ascending(\.title)])).map { "\($0.title) \($0.wordCount) \($0.views) \($0.rating ?? -1) \($0.subtitle ?? "")" }
        }
        let converged = try await eventually {
            let mine = try view.fetch(FetchRequest<Article>(sortDescriptors: [.ascending(\.title)]))
                .map { "\($0.title) \($0.wordCount) \($0.views) \($0.rating ?? -1) \($0.subtitle ?? "")" }
            return mine == stored && captioner.ownDeleted.allSatisfy { view.registeredObject(for: $0) == nil }
        }
        #expect(converged)
    }

    /// One writer's loop, a save per step, until the deadline.
    private static func run(
        _ writer: Writer, container: PersistentContainer, shared: [ManagedObjectID], until deadline: ContinuousClock.Instant
    ) async throws -> Applied {
        let context = container.newBackgroundContext()
        await context.perform {
            context.mergePolicy = writer.policy
            context.transactionAuthor = "\(writer)"
        }
        var applied = Applied()
        var random = SeededGenerator(seed: UInt64(writer.rawValue + 1))
        var step = 0
        while ContinuousClock().now < deadline || step < minimumSteps {
            step += 1
            let index = Int(random.next() % UInt64(shared.count))
            let ownIndex = random.next()
            let snapshot = applied
            applied = try await context.perform { [step] in
                var applied = snapshot
                let article = try context.existingObject(with: shared[index], as: Article.self)
                switch writer {
                case .counter: article.wordCount += 1
                case .viewer: article.views += 1
                case .rater: article.rating = (article.rating ?? 0) + 1
                case .captioner:
                    article.subtitle = "caption \(step)"
                    if step % 5 == 0 { Article(context: context).title = "own \(step)" }
                    if step % 7 == 0, let victim = applied.ownAlive.sorted(by: { $0.uriRepresentation.absoluteString < $1.uriRepresentation.absoluteString })
                        .dropFirst(Int(ownIndex % UInt64(max(1, applied.ownAlive.count)))).first {
                        context.delete(try context.existingObject(with: victim))
                    }
                }
                let changes: ChangeSet
                do {
                    changes = try context.save()
                } catch ObjectGraphError.mergeConflicts(let conflicts) {
                    // Only the error policy gets here: the conflict is reported, the step retried later.
                    applied.reportedConflicts += conflicts.count
                    context.rollback()
                    try context.refresh(article, mergeChanges: false)
                    return applied
                }
                applied.saves += 1
                applied.resolvedConflicts += changes.resolvedConflicts.count
                let written = changes.changedKeys[shared[index]] ?? []
                switch writer {
                case .counter: if written.contains("wordCount") { applied.counts[index] += 1 }
                case .viewer: if written.contains("views") { applied.counts[index] += 1 }
                case .rater: if written.contains("rating") { applied.counts[index] += 1 }
                case .captioner:
                    if written.contains("subtitle") { applied.lastSubtitle[index] = "caption \(step)" }
                    applied.ownAlive.formUnion(changes.inserted)
                    applied.ownAlive.subtract(changes.deleted)
                    applied.ownDeleted.formUnion(changes.deleted)
                }
                return applied
            }
        }
        return applied
    }
}
