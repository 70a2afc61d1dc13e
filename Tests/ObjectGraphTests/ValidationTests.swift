import Foundation
import ObjectGraph
import Testing

/// Objects whose own validation refuses some values.
final class Note: ManagedObject {
    @Attribute("text") var text: String
    @Attribute("rank") var rank: Int
    @ToOne("notebook") var notebook: Notebook?

    override func validateForInsert() throws {
        if text.isEmpty == false && text.count > 20 { throw ValidationFailure(key: "text", "longer than 20 characters") }
    }

    override func validateForUpdate() throws {
        if rank < 0 { throw ValidationFailure(key: "rank", "negative rank") }
    }

    override func validateForDelete() throws {
        if text == "keep" { throw ValidationFailure("this note is kept") }
    }
}

final class Notebook: ManagedObject {
    @Attribute("title") var title: String
    @ToMany("notes") var notes: RelatedObjects<Note>
}

/// Required values, counts, custom checks and uniqueness: every failure reported at once, and
/// nothing written.
@Suite struct ValidationTests {
    static let schema = Schema(version: 1, entities: [
        EntityDescription(
            "Note", class: Note.self,
            attributes: [AttributeDescription("text", .string), AttributeDescription("rank", .integer64, default: 0)],
            relationships: [.toOne("notebook", "Notebook", inverse: "notes", optional: false)]),
        EntityDescription(
            "Notebook", class: Notebook.self,
            attributes: [AttributeDescription("title", .string, unique: true)],
            relationships: [.toMany("notes", "Note", inverse: "notebook", minCount: 1, maxCount: 2, deleteRule: .cascade)]),
    ])

    private func issues(_ body: () throws -> Void) -> [ValidationError.Issue] {
        do {
            try body()
            return []
        } catch let error as ValidationError {
            return error.issues
        } catch {
            Issue.record("unexpected error \(error)")
            return []
        }
    }

    @Test func everyFailureInOneErrorAndNothingWritten() throws {
        let stack = try TestStack(schema: Self.schema)
        try stack.run { context in
            let empty = Notebook(context: context)                 // title missing, no notes
            let crowded = Notebook(context: context)
            crowded.title = "crowded"
            for text in ["a", "b", "a note that is far too long"] {
                let note = Note(context: context)
                note.text = text
                note.notebook = crowded
            }
            let orphan = Note(context: context)                    // text and notebook missing
            orphan.rank = 1

            let found = issues { try context.save() }
            let summary = Set(found.map { "\($0.entity).\($0.key ?? "-"):\($0.reason)" })
            #expect(summary == [
                "Notebook.title:missingValue",
                "Notebook.notes:tooFewObjects(minimum: 1, actual: 0)",
                "Notebook.notes:tooManyObjects(maximum: 2, actual: 3)",
                "Note.text:missingValue",
                "Note.notebook:missingValue",
                "Note.text:custom(\"longer than 20 characters\")",
            ])
            #expect(found.first { $0.key == "title" }?.objectID == empty.objectID)
            #expect(found.first { $0.entity == "Note" && $0.key == "notebook" }?.objectID == orphan.objectID)
            #expect(context.hasChanges)
        }
        try stack.run { context in
            let notebooks = try context.count(for: FetchRequest<Notebook>())
            let notes = try context.count(for: FetchRequest<Note>())
            #expect(notebooks == 0 && notes == 0)
        }
    }

    @Test func updateAndDeleteHooks() throws {
        let stack = try TestStack(schema: Self.schema)
        try stack.run { context in
            let notebook = Notebook(context: context)
            notebook.title = "work"
            let note = Note(context: context)
            note.text = "keep"
            note.notebook = notebook
            try context.save()

            note.rank = -1
            #expect(issues { try context.save() }.map(\.reason) == [.custom("negative rank")])
            note.rank = 2
            try context.save()

            context.delete(note)
            let found = issues { try context.save() }
            #expect(found.contains { $0.reason == .custom("this note is kept") })
            context.rollback()
            #expect(!note.isDeleted)
        }
    }

    @Test func uniqueValues() throws {
        let stack = try TestStack(schema: Self.schema)
        try stack.run { context in
            for title in ["home", "work"] {
                let notebook = Notebook(context: context)
                notebook.title = title
                let note = Note(context: context)
                note.text = "first"
                note.notebook = notebook
            }
            try context.save()
        }
        try stack.run { context in
            // Two new notebooks share a title with a saved one, and with each other.
            var made: [Notebook] = []
            for _ in 0..<2 {
                let notebook = Notebook(context: context)
                notebook.title = "home"
                let note = Note(context: context)
                note.text = "x"
                note.notebook = notebook
                made.append(notebook)
            }
            let found = issues { try context.save() }
            #expect(found.count >= 2)
            #expect(found.allSatisfy { if case .notUnique(let keys, _) = $0.reason { return keys == ["title"] } else { return false } })
            #expect(Set(found.map(\.objectID)) == Set(made.map(\.objectID)))

            // Renaming the saved one out of the way and deleting a new one makes the save valid.
            var savedHome = FetchRequest<Notebook>(predicate: \.title == "home")
            savedHome.includesPendingChanges = false
            let home = try #require(try context.fetch(savedHome).first)
            home.title = "old home"
            context.delete(made[1])
            try context.save()
        }
        try stack.run { context in
            let notebooks = try context.fetch(FetchRequest<Notebook>(sortDescriptors: [.ascending(\.title)]))
            #expect(notebooks.map(\.title) == ["home", "old home", "work"])
            // Two saved notebooks swap their unique titles in one save.
            notebooks[0].title = "work"
            notebooks[2].title = "home"
            try context.save()
        }
        try stack.run { context in
            let notebooks = try context.fetch(FetchRequest<Notebook>())
            #expect(notebooks.map(\.title) == ["old home", "home", "work"])
        }
    }

    @Test func compoundUniqueness() throws {
        let schema = Schema(version: 1, entities: [
            EntityDescription(
                "Slug",
                attributes: [AttributeDescription("site", .string), AttributeDescription("path", .string)],
                uniquenessConstraints: [["site", "path"]]),
        ])
        let stack = try TestStack(schema: schema)
        try stack.run { context in
            for (site, path) in [("a", "/"), ("b", "/"), ("a", "/about")] {
                let slug = try context.insertObject(entityName: "Slug")
                try slug.setValue(site, forKey: "site")
                try slug.setValue(path, forKey: "path")
            }
            try context.save()
            let duplicate = try context.insertObject(entityName: "Slug")
            try duplicate.setValue("b", forKey: "site")
            try duplicate.setValue("/", forKey: "path")
            let found = issues { try context.save() }
            #expect(found.map(\.objectID) == [duplicate.objectID])
            #expect(found.first?.reason == .notUnique(keys: ["site", "path"], conflictingObject: found.first.flatMap {
                if case .notUnique(_, let other) = $0.reason { return other } else { return nil }
            }))
            if case .notUnique(_, let other)? = found.first?.reason {
                let conflicting = try context.existingObject(with: try #require(other))
                #expect(try conflicting.value(forKey: "site") as? String == "b")
            }
        }
    }

    @Test func wrongValuesAreTypedErrors() throws {
        let stack = try TestStack()
        try stack.run { context in
            let article = Article(context: context)
            #expect(throws: ObjectGraphError.wrongValueType(entity: "Article", key: "wordCount", expected: "integer64", actual: "String")) {
                try article.setValue("many", forKey: "wordCount")
            }
            #expect(throws: ObjectGraphError.valueOutOfRange(entity: "Article", key: "priority", value: "70000")) {
                try article.setValue(70_000, forKey: "priority")
            }
            #expect(throws: ObjectGraphError.unknownKey(entity: "Article", key: "color")) {
                _ = try article.value(forKey: "color")
            }
            try article.setValue(12, forKey: "rating")
            #expect(article.rating == 12.0)
        }
    }
}
