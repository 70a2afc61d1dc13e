import Foundation
import ObjectGraph
import Testing

/// A to-many that is not loaded stays so when its inverse changes: filing an article in a folder,
/// or tagging it, keeps the change pending on `Folder.articles` / `Tag.articles` instead of reading
/// every member; loading applies it, saving writes it, rolling back drops it.
@Suite struct UnloadedToManyTests {
    /// A store with folders "Big" (articles "a1"..."aN", each tagged "swift") and "Other" (article
    /// "b"), and the tags "swift" and "linux" (on "b").
    private func seed(articles count: Int = 3) throws -> TestStack {
        let stack = try TestStack()
        try stack.run { context in
            let big = Folder(context: context)
            big.name = "Big"
            let other = Folder(context: context)
            other.name = "Other"
            let swift = Tag(context: context)
            swift.name = "swift"
            let linux = Tag(context: context)
            linux.name = "linux"
            for number in 1...count {
                let article = Article(context: context)
                article.title = "a\(number)"
                article.folder = big
                article.tags = [swift]
            }
            let b = Article(context: context)
            b.title = "b"
            b.folder = other
            b.tags = [linux]
            try context.save()
        }
        stack.statements.reset()
        return stack
    }

    /// The statements that read the members of a folder's or a tag's articles: what loading
    /// `Folder.articles` or `Tag.articles` costs (reading an article's own tags is not one).
    private func articleMemberReads(_ stack: TestStack) -> [String] {
        stack.statements.selects.filter { sql in
            (sql.hasPrefix("SELECT _pk FROM") && sql.contains("\"folder\" = ?")) || sql.hasPrefix("SELECT source FROM")
        }
    }

    private func folder(_ name: String, in context: ManagedObjectContext) throws -> Folder {
        try #require(try context.fetch(FetchRequest<Folder>(predicate: \.name == name)).first)
    }

    private func tag(_ name: String, in context: ManagedObjectContext) throws -> Tag {
        try #require(try context.fetch(FetchRequest<Tag>(predicate: \.name == name)).first)
    }

    private func article(_ title: String, in context: ManagedObjectContext) throws -> Article {
        try #require(try context.fetch(FetchRequest<Article>(predicate: \.title == title)).first)
    }

    /// Each folder's and each tag's article titles, as a fresh context reads them from the store.
    private func storedMembers(_ stack: TestStack) throws -> [String: Set<String>] {
        try stack.run { context in
            var members: [String: Set<String>] = [:]
            for folder in try context.fetch(FetchRequest<Folder>()) { members["folder " + folder.name] = Set(folder.articles.map(\.title)) }
            for tag in try context.fetch(FetchRequest<Tag>()) { members["tag " + tag.name] = Set(tag.articles.map(\.title)) }
            return members
        }
    }

    /// The number of join rows of each tag, read from the join table alone.
    private func joinRows(_ stack: TestStack) throws -> [String: Int] {
        try stack.run { context in
            let tags = Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest<Tag>()).map { ($0.objectID, $0.name) })
            var rows: [String: Int] = [:]
            for group in try context.countsGrouped(FetchRequest<Article>(), by: "tags") {
                guard let id = group.value as? ManagedObjectID, let name = tags[id] else { continue }
                rows[name] = group.count
            }
            return rows
        }
    }

    @Test func filingAndTaggingReadNoneOfTheFoldersOrTagsArticles() throws {
        let stack = try seed(articles: 200)
        try stack.run { context in
            let big = try folder("Big", in: context)
            let swift = try tag("swift", in: context)
            for number in 1...3 {
                let article = Article(context: context)
                article.title = "new\(number)"
                article.folder = big
                article.tags = [swift]
            }
            let b = try article("b", in: context)
            b.folder = big                      // leaves "Other", which is not loaded either
            context.delete(try article("a1", in: context))
            let a2 = try article("a2", in: context)
            a2.$tags.remove(swift)              // reads a2's tags, not the tag's articles
            try context.save()
            #expect(articleMemberReads(stack) == [])
        }
        let stored = try storedMembers(stack)
        let bigCount = 200 + 3            // less "a1", deleted; plus "new1"..."new3" and "b"
        #expect(stored["folder Big"]?.count == bigCount)
        #expect(stored["folder Big"]?.isSuperset(of: ["new1", "new2", "new3", "b", "a2", "a200"]) == true)
        #expect(stored["folder Big"]?.contains("a1") == false)
        #expect(stored["folder Other"] == [])
        let swiftCount = 201              // less "a1" and "a2", plus "new1"..."new3"
        #expect(stored["tag swift"]?.count == swiftCount)
        #expect(stored["tag swift"]?.isDisjoint(with: ["a1", "a2"]) == true)
        #expect(try joinRows(stack) == ["swift": 201, "linux": 1])
    }

    @Test func countingAndLoadingLaterSeeThePendingChanges() throws {
        let stack = try seed()
        try stack.run { context in
            let big = try folder("Big", in: context)
            let other = try folder("Other", in: context)
            let swift = try tag("swift", in: context)
            let new = Article(context: context)
            new.title = "new"
            new.folder = big
            new.tags = [swift]
            try article("a3", in: context).folder = other
            try article("a1", in: context).$tags.remove(swift)
            // Removed then added again, and added then removed again: the last change counts.
            let a2 = try article("a2", in: context)
            a2.$tags.remove(swift)
            a2.$tags.insert(swift)
            let b = try article("b", in: context)
            b.$tags.insert(swift)
            b.$tags.remove(swift)

            #expect(big.$articles.count == 3)
            #expect(other.$articles.count == 2)
            #expect(swift.$articles.count == 3)
            #expect(articleMemberReads(stack) == [])

            #expect(Set(big.articles.map(\.title)) == ["a1", "a2", "new"])
            #expect(Set(other.articles.map(\.title)) == ["a3", "b"])
            #expect(Set(swift.articles.map(\.title)) == ["a2", "a3", "new"])
            #expect(big.$articles.count == 3 && swift.$articles.count == 3)
            // Loaded, they follow further changes as before.
            try article("a1", in: context).folder = nil
            #expect(Set(big.articles.map(\.title)) == ["a2", "new"])
            try context.save()
        }
        #expect(try storedMembers(stack) == [
            "folder Big": ["a2", "new"], "folder Other": ["a3", "b"], "tag swift": ["a2", "a3", "new"], "tag linux": ["b"],
        ])
        #expect(try joinRows(stack) == ["swift": 3, "linux": 1])
    }

    @Test func theSideThatHoldsTheJoinRowsMayBeThePendingOne() throws {
        // `Article.tags` names the join table's source column: its pending changes are what the
        // save writes when the tag's side is the loaded one.
        let stack = try seed()
        try stack.run { context in
            let linux = try tag("linux", in: context)
            #expect(linux.articles.map(\.title) == ["b"])
            let a1 = try article("a1", in: context)
            let a2 = try article("a2", in: context)
            let b = try article("b", in: context)
            stack.statements.reset()
            linux.$articles.insert(a1)
            linux.$articles.insert(a2)
            linux.$articles.remove(a2)
            linux.$articles.remove(b)
            #expect(!stack.statements.selects.contains { $0.hasPrefix("SELECT target FROM") }, "no article's tags were read")
            #expect(Set(a1.tags.map(\.name)) == ["swift", "linux"])
            #expect(a2.tags.map(\.name) == ["swift"])
            try context.save()
        }
        #expect(try storedMembers(stack)["tag linux"] == ["a1"])
        #expect(try joinRows(stack) == ["swift": 3, "linux": 1])
    }

    @Test func anObjectWhoseOnlyChangeIsPendingIsUpdatedAsBefore() throws {
        let stack = try seed()
        let bigID = try stack.run { try folder("Big", in: $0).objectID }
        let otherID = try stack.run { try folder("Other", in: $0).objectID }
        let swiftID = try stack.run { try tag("swift", in: $0).objectID }
        try stack.run { context in
            let log = NotificationLog(context)
            let big = try context.existingObject(with: bigID, as: Folder.self)
            let swift = try context.existingObject(with: swiftID, as: Tag.self)
            let new = Article(context: context)
            new.folder = big
            new.tags = [swift]
            try article("b", in: context).folder = big
            #expect(big.hasChanges && swift.hasChanges)
            #expect(Set(context.updatedObjects.map(\.objectID)).isSuperset(of: [bigID, otherID, swiftID]))
            context.processPendingChanges()
            let updated = Dictionary(log.changes.flatMap(\.updated).map { ($0.objectID, $0.changedKeys.names) }, uniquingKeysWith: { $0.union($1) })
            #expect(updated[bigID] == ["articles"] && updated[otherID] == ["articles"] && updated[swiftID] == ["articles"])
            let changes = try context.save()
            #expect(articleMemberReads(stack) == [])
            #expect(Set(changes.updated).isSuperset(of: [bigID, otherID, swiftID]))
            // The folder's row version moves, so a save that read the folder before conflicts as before.
            #expect(stack.statements.all.contains { $0.hasPrefix("UPDATE") && $0.contains("SET _version = _version + 1") })
            // Saved, the relationship is a plain fault again: it reads the store, once.
            #expect(big.articles.count == 5)
            #expect(articleMemberReads(stack).count == 1)
        }
        try stack.run { context in
            // Asked for its changed values, a pending to-many reports its members, loading them.
            let other = try context.existingObject(with: otherID, as: Folder.self)
            let new = Article(context: context)
            new.title = "new"
            new.folder = other
            let changed = other.changedValues()
            #expect(Array(changed.keys) == ["articles"])
            #expect(((changed["articles"] ?? nil) as? Set<ManagedObject>)?.compactMap { ($0 as? Article)?.title } == ["new"])
        }
    }

    @Test func rollbackAndResetDropThePendingChanges() throws {
        let stack = try seed()
        try stack.run { context in
            let big = try folder("Big", in: context)
            let swift = try tag("swift", in: context)
            let a3 = try article("a3", in: context)
            a3.folder = try folder("Other", in: context)
            a3.$tags.remove(swift)
            let new = Article(context: context)
            new.folder = big
            new.tags = [swift]
            #expect(articleMemberReads(stack) == [])
            context.rollback()
            #expect(!context.hasChanges && !big.hasChanges && !swift.hasChanges)
            #expect(a3.folder === big)
            #expect(Set(big.articles.map(\.title)) == ["a1", "a2", "a3"])
            #expect(Set(swift.articles.map(\.title)) == ["a1", "a2", "a3"])

            try article("b", in: context).folder = big
            context.reset()
            let again = try folder("Big", in: context)
            #expect(Set(again.articles.map(\.title)) == ["a1", "a2", "a3"])
            #expect(try context.save().updated.isEmpty)
        }
        #expect(try storedMembers(stack)["folder Big"] == ["a1", "a2", "a3"])
    }

    @Test func anObjectInsertedFiledAndDeletedInAChildLeavesNoTraceInTheParent() throws {
        let stack = try seed()
        let parent = stack.container.newBackgroundContext()
        try parent.performAndWait {
            let child = parent.newChildContext()
            try child.performAndWait {
                let discarded = Article(context: child)
                discarded.title = "discarded"
                discarded.folder = try folder("Big", in: child)
                discarded.tags = [try tag("swift", in: child)]
                child.delete(discarded)
                try child.save()
            }
            // Nothing registered for the discarded article, which had only a temporary key.
            #expect(!parent.registeredObjects.contains { ($0 as? Article)?.objectID.isTemporaryID == true })
            #expect(try folder("Big", in: parent).$articles.count == 3)
            try parent.save()
        }
    }

    @Test func aChildSavesItsPendingChangesIntoItsParent() throws {
        let stack = try seed()
        let parent = stack.container.newBackgroundContext()
        try parent.performAndWait {
            let child = parent.newChildContext()
            try child.performAndWait {
                let big = try folder("Big", in: child)
                let new = Article(context: child)
                new.title = "new"
                new.folder = big
                new.tags = [try tag("swift", in: child)]
                try article("a3", in: child).folder = try folder("Other", in: child)
                #expect(big.$articles.count == 3)
                // Its delete rules leave the folder and the tag pending changes too.
                child.delete(try article("a1", in: child))
                stack.statements.reset()
                try child.save()
                #expect(articleMemberReads(stack) == [], "the parent took the changes without loading")
                // Saved into the parent, the child's folder reads through the parent.
                #expect(Set(big.articles.map(\.title)) == ["a2", "new"])
            }
            let big = try folder("Big", in: parent)
            #expect(big.hasChanges && parent.updatedObjects.contains(big))
            #expect(Set(big.articles.map(\.title)) == ["a2", "new"])
            #expect(Set(try tag("swift", in: parent).articles.map(\.title)) == ["a2", "a3", "new"])
            // A second child reads the parent's pending changes too.
            let second = parent.newChildContext()
            let other = try second.performAndWait { () throws -> (count: Int, titles: Set<String>) in
                let other = try folder("Other", in: second)
                return (other.$articles.count, Set(other.articles.map(\.title)))
            }
            #expect(other.count == 2 && other.titles == ["a3", "b"])
            try parent.save()
        }
        #expect(try storedMembers(stack) == [
            "folder Big": ["a2", "new"], "folder Other": ["a3", "b"], "tag swift": ["a2", "a3", "new"], "tag linux": ["b"],
        ])
        #expect(try joinRows(stack) == ["swift": 3, "linux": 1])
    }

    @Test func aMergedSaveAndThePendingChangesBothCount() throws {
        let stack = try seed()
        let context = stack.container.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        let big = try context.performAndWait {
            let big = try folder("Big", in: context)
            let mine = Article(context: context)
            mine.title = "mine"
            mine.folder = big
            return big
        }
        try stack.run { other in
            let theirs = Article(context: other)
            theirs.title = "theirs"
            theirs.folder = try folder("Big", in: other)
            try other.save()
        }
        try context.performAndWait {
            #expect(articleMemberReads(stack) == [])
            #expect(big.$articles.count == 5)
            #expect(Set(big.articles.map(\.title)) == ["a1", "a2", "a3", "mine", "theirs"])
            // The folder's row changed elsewhere: the save meets it as a conflict, as before.
            context.mergePolicy = .mergeByPropertyObjectTrump
            try context.save()
        }
        #expect(try storedMembers(stack)["folder Big"] == ["a1", "a2", "a3", "mine", "theirs"])
    }

    @Test func deleteRulesReachThePendingMembers() throws {
        let stack = try seed()
        try stack.run { context in
            // Nullify, the deleted object's side: deleting an article reads none of its tag's articles.
            context.delete(try article("a1", in: context))
            try context.save()
            #expect(articleMemberReads(stack) == [])

            // Nullify, the folder's and the tag's side: their pending members lose them too.
            let big = try folder("Big", in: context)
            let swift = try tag("swift", in: context)
            let new = Article(context: context)
            new.title = "new"
            new.folder = big
            new.tags = [swift]
            let gone = Article(context: context)
            gone.title = "gone"
            gone.folder = big
            context.delete(gone)
            try article("b", in: context).$tags.insert(swift)
            try article("a3", in: context).folder = try folder("Other", in: context)
            context.delete(big)
            context.delete(swift)
            try context.save()
            #expect(new.folder == nil && new.tags.isEmpty)
        }
        #expect(try storedMembers(stack) == ["folder Other": ["a3", "b"], "tag linux": ["b"]])
        #expect(try joinRows(stack) == ["linux": 1])
        let (unfiled, gone) = try stack.run { context in
            (try context.fetch(FetchRequest<Article>(predicate: .isNil(\.folder))).map(\.title).sorted(),
             try context.count(for: FetchRequest<Article>(predicate: \.title == "gone")))
        }
        #expect(unfiled == ["a2", "new"] && gone == 0)
    }

    @Test func cascadeReachesAPendingMember() throws {
        let stack = try seed()
        try stack.run { context in
            let big = try folder("Big", in: context)
            let sub = Folder(context: context)
            sub.name = "Sub"
            sub.parent = big                    // `Folder.children` cascades
            let other = try folder("Other", in: context)
            other.parent = big
            #expect(!stack.statements.selects.contains { $0.hasPrefix("SELECT _pk FROM") && $0.contains("\"parent\" = ?") })
            context.delete(big)
            try context.save()
        }
        let (folders, unfiled) = try stack.run { context in
            (try context.count(for: FetchRequest<Folder>()), try context.count(for: FetchRequest<Article>(predicate: .isNil(\.folder))))
        }
        #expect(folders == 0 && unfiled == 4)
    }

    @Test func validationCountsThePendingMembers() throws {
        let stack = try TestStack(schema: ValidationTests.schema)
        try stack.run { context in
            let notebook = Notebook(context: context)
            notebook.title = "full"
            for text in ["one", "two"] {
                let note = Note(context: context)
                note.text = text
                note.notebook = notebook
            }
            try context.save()
        }
        try stack.run { context in
            let notebook = try #require(try context.fetch(FetchRequest<Notebook>()).first)
            let third = Note(context: context)
            third.text = "three"
            third.notebook = notebook
            #expect(!stack.statements.selects.contains { $0.hasPrefix("SELECT _pk FROM") && $0.contains("\"notebook\" = ?") })
            do {
                try context.save()
                Issue.record("a third note saved in a notebook of at most two")
            } catch let error as ValidationError {
                #expect(error.issues.map { "\($0.key ?? "-"):\($0.reason)" } == ["notes:tooManyObjects(maximum: 2, actual: 3)"])
            }
        }
    }
}
