import Foundation
import ObjectGraph
import Testing

/// Each merge policy on two contexts editing the same object, attribute by attribute; deleted
/// rows; custom resolvers; unique-constraint conflicts.
@Suite struct MergePolicyTests {
    /// What an article's title, body and word count end up as.
    struct Outcome: Sendable, Equatable, CustomStringConvertible {
        var title: String
        var body: String
        var wordCount: Int
        var description: String { "\(title) / \(body) / \(wordCount)" }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var policy: MergePolicy
        var expected: Outcome
        var testDescription: String { name }
    }

    /// Custom: the store's values, with both titles joined.
    struct JoinTitles: MergeConflictResolver {
        func resolve(_ conflict: MergeConflict) throws -> MergeResolution {
            guard case .string(let mine)? = conflict.objectValues[attribute: "title"],
                  case .string(let theirs)? = conflict.storeSnapshot?[attribute: "title"] else { return .keepStore }
            return .values(["title": .string("\(mine) + \(theirs)")])
        }
    }

    // The object read "base / base / 1"; the store then got "store title / base / 2"; the context
    // changed it to "object title / object body / 1".
    static let cases = [
        Case(name: "store trump", policy: .mergeByPropertyStoreTrump,
             expected: Outcome(title: "store title", body: "object body", wordCount: 2)),
        Case(name: "object trump", policy: .mergeByPropertyObjectTrump,
             expected: Outcome(title: "object title", body: "object body", wordCount: 2)),
        Case(name: "overwrite", policy: .overwrite,
             expected: Outcome(title: "object title", body: "object body", wordCount: 1)),
        Case(name: "rollback", policy: .rollback,
             expected: Outcome(title: "store title", body: "base", wordCount: 2)),
        Case(name: "custom", policy: .custom(JoinTitles()),
             expected: Outcome(title: "object title + store title", body: "base", wordCount: 2)),
    ]

    /// A saved article, a context holding it with the context's edits, and the store changed since.
    private func conflict(_ stack: TestStack) throws -> (ManagedObjectContext, Article, ManagedObjectID) {
        let id = try stack.run { context in
            let article = Article(context: context)
            article.title = "base"
            article.body = "base"
            article.wordCount = 1
            try context.save()
            return article.objectID
        }
        let context = stack.container.newBackgroundContext()
        let article = try context.performAndWait { try context.existingObject(with: id, as: Article.self) }
        try stack.run { other in
            let theirs = try other.existingObject(with: id, as: Article.self)
            theirs.title = "store title"
            theirs.wordCount = 2
            try other.save()
        }
        context.performAndWait {
            article.title = "object title"
            article.body = "object body"
        }
        return (context, article, id)
    }

    private func stored(_ stack: TestStack, _ id: ManagedObjectID) throws -> Outcome {
        try stack.run { context in
            let article = try context.existingObject(with: id, as: Article.self)
            return Outcome(title: article.title, body: article.body, wordCount: article.wordCount)
        }
    }

    @Test(arguments: cases) func policyResolvesAttributeByAttribute(_ policyCase: Case) throws {
        let stack = try TestStack()
        let (context, article, id) = try conflict(stack)
        try context.performAndWait {
            context.mergePolicy = policyCase.policy
            let changes = try context.save()
            #expect(Outcome(title: article.title, body: article.body, wordCount: article.wordCount) == policyCase.expected)
            #expect(!article.hasChanges)
            let resolved = try #require(changes.resolvedConflicts.first)
            #expect(resolved.objectID == id && resolved.kind == .optimisticLocking)
            #expect(resolved.storeSnapshot?[attribute: "wordCount"] == .integer(2))
            // The object carries on from the row it wrote (or took): the next save does not conflict.
            article.subtitle = "after"
            try context.save()
        }
        #expect(try stored(stack, id) == policyCase.expected)
    }

    @Test func errorPolicyReportsEverythingAndWritesNothing() throws {
        let stack = try TestStack()
        let (context, _, id) = try conflict(stack)
        try context.performAndWait {
            let other = Article(context: context)
            other.title = "inserted alongside"
            let conflicts = try mergeConflicts { try context.save() }
            let conflict = try #require(conflicts.first)
            #expect(conflicts.count == 1 && conflict.objectID == id && !conflict.deletesObject)
            #expect(conflict.snapshotVersion == 1 && conflict.storeVersion == 2)
            #expect(conflict.objectSnapshot?.attributes["title"] == .string("base"))
            #expect(conflict.storeSnapshot?.attributes["title"] == .string("store title"))
            #expect(conflict.objectValues.attributes["title"] == .string("object title"))
            #expect(conflict.changedKeys == ["title", "body"])
            #expect(context.hasChanges && other.objectID.isTemporaryID)
        }
        #expect(try stored(stack, id) == Outcome(title: "store title", body: "base", wordCount: 2))
        try stack.run { context throws in #expect(try context.count(for: FetchRequest<Article>()) == 1) }
    }

    @Test(arguments: [(MergePolicy.mergeByPropertyObjectTrump, true), (.overwrite, true), (.mergeByPropertyStoreTrump, false), (.rollback, false)])
    func anUpdateOfARowDeletedElsewhere(_ policy: MergePolicy, writesAgain: Bool) throws {
        let stack = try TestStack()
        let (context, article, id) = try conflict(stack)
        try stack.run { other in
            other.delete(try other.existingObject(with: id))
            try other.save()
        }
        try context.performAndWait {
            context.mergePolicy = policy
            let changes = try context.save()
            #expect(changes.resolvedConflicts.first?.storeVersion == nil)
            #expect(changes.inserted == (writesAgain ? [id] : []))
            #expect(article.isDeleted == !writesAgain)
            #expect((article.managedObjectContext == nil) == !writesAgain)
        }
        try stack.run { other throws in
            let rows = try other.fetch(FetchRequest<Article>())
            #expect(rows.map(\.title) == (writesAgain ? ["object title"] : []))
        }
    }

    @Test func aDeleteGoesAheadUnderEveryPolicyButError() throws {
        for policy in [MergePolicy.error, .mergeByPropertyStoreTrump] {
            let stack = try TestStack()
            let (context, article, id) = try conflict(stack)
            try context.performAndWait {
                context.rollback()
                context.delete(article)
                context.mergePolicy = policy
                if policy.description == "error" {
                    let conflicts = try mergeConflicts { try context.save() }
                    #expect(conflicts.first?.deletesObject == true)
                    #expect(conflicts.first?.storeSnapshot?[attribute: "title"] == .string("store title"))
                } else {
                    #expect(try context.save().deleted == [id])
                }
            }
            let count = try stack.run { try $0.count(for: FetchRequest<Article>()) }
            #expect(count == (policy.description == "error" ? 1 : 0))
        }
    }

    // MARK: Unique constraints

    /// A saved article with a known id, tagged "swift"; returns its ID and the id.
    private func existingArticle(_ stack: TestStack) throws -> (ManagedObjectID, UUID) {
        try stack.run { context in
            let article = Article(context: context)
            article.title = "existing"
            article.body = "existing body"
            let tag = Tag(context: context)
            tag.name = "swift"
            article.tags = [tag]
            try context.save()
            return (article.objectID, article.id)
        }
    }

    @Test func objectTrumpTurnsAnInsertIntoAnUpdate() throws {
        let stack = try TestStack()
        let (existingID, uuid) = try existingArticle(stack)
        try stack.run { context in
            context.mergePolicy = .mergeByPropertyObjectTrump
            let linux = Tag(context: context)
            linux.name = "linux"
            let article = Article(context: context)
            let temporaryID = article.objectID
            article.id = uuid
            article.title = "imported"
            article.tags = [linux]
            let changes = try context.save()
            #expect(article.objectID == existingID)
            #expect(changes.permanentIDs[temporaryID] == existingID)
            #expect(changes.updated.contains(existingID) && !changes.inserted.contains(existingID))
            let conflict = try #require(changes.resolvedConflicts.first)
            #expect(conflict.kind == .uniqueConstraint(keys: ["id"], existingObject: existingID))
            #expect(conflict.storeSnapshot?[attribute: "title"] == .string("existing"))
        }
        try stack.run { context in
            let articles = try context.fetch(FetchRequest<Article>())
            #expect(articles.count == 1)
            // The insert's values won; what it did not set (the body) was kept; its tags were added.
            #expect(articles.first?.title == "imported" && articles.first?.body == "existing body")
            #expect(Set(articles.first?.tags.map(\.name) ?? []) == ["swift", "linux"])
        }
    }

    @Test func otherPoliciesAndUniqueConstraints() throws {
        // Store trump: the insert becomes the existing object, with its values.
        var stack = try TestStack()
        var (existingID, uuid) = try existingArticle(stack)
        try stack.run { context in
            context.mergePolicy = .mergeByPropertyStoreTrump
            let article = Article(context: context)
            article.id = uuid
            article.title = "ignored"
            let changes = try context.save()
            #expect(article.objectID == existingID && article.title == "existing")
            #expect(changes.updated.isEmpty && changes.inserted.isEmpty)
        }
        // Overwrite: every value of the insert, its defaults included.
        stack = try TestStack()
        (existingID, uuid) = try existingArticle(stack)
        try stack.run { context in
            context.mergePolicy = .overwrite
            let article = Article(context: context)
            article.id = uuid
            article.title = "overwritten"
            try context.save()
        }
        try stack.run { context in
            let article = try context.existingObject(with: existingID, as: Article.self)
            #expect(article.title == "overwritten" && article.body == "")
        }
        // Error: a validation error naming the existing object.
        try stack.run { context in
            let article = Article(context: context)
            article.id = uuid
            do {
                try context.save()
                Issue.record("a duplicate unique value was saved")
            } catch let error as ValidationError {
                #expect(error.issues.first?.reason == .notUnique(keys: ["id"], conflictingObject: existingID))
            }
        }
    }
}

extension MergePolicy: CustomTestStringConvertible {
    public var testDescription: String { description }
}
