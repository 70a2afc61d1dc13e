import CSQLite
import Foundation
import ObjectGraph
import Testing

/// A small model with a full-text index, separate from `TestModel` so that its schema stays as it is.
final class SearchNote: ManagedObject {
    @Attribute("title") var title: String
    @Attribute("body") var body: String
    @Attribute("pinned") var pinned: Bool
    @Attribute("position") var position: Int
    @ToOne("notebook") var notebook: SearchNotebook?
}

final class SearchNotebook: ManagedObject {
    @Attribute("name") var name: String
    @ToMany("notes") var notes: RelatedObjects<SearchNote>
}

enum NoteModel {
    static let schema = Schema(version: 1, entities: [
        EntityDescription(
            "SearchNote", class: SearchNote.self,
            attributes: [
                AttributeDescription("title", .string, default: ""),
                AttributeDescription("body", .string, default: ""),
                AttributeDescription("pinned", .boolean, default: false),
                AttributeDescription("position", .integer64, default: 0),
            ],
            relationships: [.toOne("notebook", "SearchNotebook", inverse: "notes")],
            fullTextIndex: FullTextIndex(["title", "body"])),
        EntityDescription(
            "SearchNotebook", class: SearchNotebook.self,
            attributes: [AttributeDescription("name", .string)],
            relationships: [.toMany("notes", "SearchNote", inverse: "notebook")]),
    ])
}

/// Full-text indexes: declared on an entity, kept by FTS5 in the row's transaction, searched with a
/// typed predicate that composes with the others and sorts by relevance.
@Suite struct FullTextTests {
    /// Notes titled and written so that words, prefixes, diacritics and ranks can be told apart.
    private static let notes: [(title: String, body: String, pinned: Bool)] = [
        ("Swift on Linux", "Building Swift packages on Debian.", true),
        ("Café culture", "Notes from a café in Lyon.", false),
        ("Linux desktop", "GTK and libadwaita. Linux Linux Linux.", false),
        ("Shopping", "eggs, milk, e-mail the landlord", true),
        ("Untitled", "Nothing to see here: \"quoted\" AND NEAR(x) title:body *star*", false),
    ]

    private func stack(schema: Schema = NoteModel.schema) throws -> TestStack {
        let stack = try TestStack(schema: schema)
        try stack.run { context in
            let notebook = SearchNotebook(context: context)
            notebook.name = "Work"
            for (position, note) in Self.notes.enumerated() {
                let object = SearchNote(context: context)
                object.title = note.title
                object.body = note.body
                object.pinned = note.pinned
                object.position = position
                if position < 2 { object.notebook = notebook }
            }
            try context.save()
        }
        return stack
    }

    private func titles(
        _ stack: TestStack, _ predicate: FetchPredicate<SearchNote>,
        sortedBy sort: [FetchSortDescriptor<SearchNote>] = [.ascending(\.position)]
    ) throws -> [String] {
        try stack.run { context in
            try context.fetch(FetchRequest<SearchNote>(predicate: predicate, sortDescriptors: sort)).map(\.title)
        }
    }

    @Test func findsWordsIgnoringCaseAndDiacritics() throws {
        let stack = try stack()
        #expect(try titles(stack, .matches(FullTextQuery("LINUX"))) == ["Swift on Linux", "Linux desktop"])
        #expect(try titles(stack, .matches(FullTextQuery("cafe"))) == ["Café culture"])
        #expect(try titles(stack, .matches(FullTextQuery("CAFÉ lyon"))) == ["Café culture"])
        #expect(try titles(stack, .matches(FullTextQuery("swift debian"))) == ["Swift on Linux"], "terms match across attributes")
        #expect(try titles(stack, .matches(FullTextQuery("swift gtk"))) == [], "every term must match")
    }

    @Test func prefixesMatchOnlyWhenAsked() throws {
        let stack = try stack()
        #expect(try titles(stack, .matches(FullTextQuery("lin desk"))) == ["Linux desktop"])
        #expect(try titles(stack, .matches(FullTextQuery("lin", matchingPrefixes: false))) == [])
        #expect(try titles(stack, .matches(FullTextQuery("e-mail", matchingPrefixes: false))) == ["Shopping"])
    }

    @Test func theWritersTextIsNeverQuerySyntax() throws {
        let stack = try stack()
        #expect(try titles(stack, .matches(FullTextQuery("\"quoted\""))) == ["Untitled"])
        #expect(try titles(stack, .matches(FullTextQuery("AND NEAR(x"))) == ["Untitled"])
        #expect(try titles(stack, .matches(FullTextQuery("title:body"))) == ["Untitled"])
        #expect(try titles(stack, .matches(FullTextQuery("*star*"))) == ["Untitled"])
        #expect(try titles(stack, .matches(FullTextQuery("NOT", matchingPrefixes: false))) == [], "NOT is a word, found nowhere")
        // Unbalanced quotes, lone operators and control characters neither throw nor match everything.
        for hostile in ["\"", "\"\"\"", "(", ")", "*", "-", "^", ":", "OR", "\u{0}", "a\"b", "{title}:x", "NEAR/2"] {
            let found = try titles(stack, .matches(FullTextQuery(hostile)))
            #expect(found.count < Self.notes.count, "\(hostile) matched \(found)")
        }
    }

    @Test func aQueryWithoutWordsMatchesNothing() throws {
        let stack = try stack()
        #expect(FullTextQuery("  ").isEmpty)
        #expect(FullTextQuery("?!").isEmpty)
        #expect(try titles(stack, .matches(FullTextQuery(""))) == [])
        #expect(try titles(stack, !.matches(FullTextQuery("- -"))).count == Self.notes.count)
        #expect(try titles(stack, .matches(FullTextQuery("...")), sortedBy: [.relevance]) == [])
    }

    @Test func composesWithOtherConditions() throws {
        let stack = try stack()
        let linux = FetchPredicate<SearchNote>.matches(FullTextQuery("linux"))
        #expect(try titles(stack, linux && \.pinned == true) == ["Swift on Linux"])
        #expect(try titles(stack, linux || \.title == "Shopping") == ["Swift on Linux", "Linux desktop", "Shopping"])
        #expect(try titles(stack, !linux && \.pinned == false) == ["Café culture", "Untitled"])
        #expect(try titles(stack, linux && \.notebook?.name == "Work") == ["Swift on Linux"])
        let notebooks = try stack.run { context in
            try context.fetch(FetchRequest<SearchNotebook>(predicate: .any(\.notes, .matches(FullTextQuery("lyon"))))).map(\.name)
        }
        #expect(notebooks == ["Work"])
        let count = try stack.run { context in
            try context.count(for: FetchRequest<SearchNote>(predicate: linux))
        }
        #expect(count == 2)
    }

    @Test func sortsByRelevanceOrByAKey() throws {
        let stack = try stack()
        let linux = FetchPredicate<SearchNote>.matches(FullTextQuery("linux"))
        // "Linux desktop" says Linux four times in a short text: the better match.
        #expect(try titles(stack, linux, sortedBy: [.relevance]) == ["Linux desktop", "Swift on Linux"])
        #expect(try titles(stack, linux, sortedBy: [.descending(\.position)]) == ["Linux desktop", "Swift on Linux"])
        #expect(try titles(stack, linux, sortedBy: [.ascending(\.title)]) == ["Linux desktop", "Swift on Linux"])
        #expect(try titles(stack, \.pinned == true && linux, sortedBy: [.relevance]) == ["Swift on Linux"])

        try stack.run { context in
            var request = FetchRequest<SearchNote>(predicate: linux, sortDescriptors: [.relevance])
            request.fetchLimit = 1
            #expect(try context.fetch(request).map(\.title) == ["Linux desktop"])
            request.fetchLimit = 0
            request.fetchBatchSize = 1
            let ids = try context.fetchObjectIDs(request)
            #expect(try ids.map { try context.existingObject(with: $0, as: SearchNote.self).title } == ["Linux desktop", "Swift on Linux"])
            let rows = try context.fetchDictionaries(request, propertiesToFetch: ["title"])
            #expect(rows.compactMap { $0["title"] as? String } == ["Linux desktop", "Swift on Linux"])
        }
    }

    @Test func relevanceNeedsAMatchThatMustHold() throws {
        let stack = try stack()
        let linux = FetchPredicate<SearchNote>.matches(FullTextQuery("linux"))
        for predicate in [nil, linux || \.pinned == true, !linux] as [FetchPredicate<SearchNote>?] {
            #expect(throws: ObjectGraphError.self) {
                try stack.run { context in
                    try context.fetch(FetchRequest<SearchNote>(predicate: predicate, sortDescriptors: [.relevance]))
                }
            }
        }
        #expect(throws: ObjectGraphError.self) {
            try stack.run { context in
                try context.fetch(FetchRequest<SearchNotebook>(predicate: .matches(FullTextQuery("work"))))
            }
        }
    }

    @Test func theIndexFollowsEverySave() throws {
        let stack = try stack()
        try stack.run { context in
            let notes = try context.fetch(FetchRequest<SearchNote>(sortDescriptors: [.ascending(\.position)]))
            notes[0].title = "Swift on FreeBSD"
            notes[0].body = "Ports."
            notes[1].pinned = true                  // not an indexed attribute
            context.delete(notes[2])
            let added = SearchNote(context: context)
            added.title = "Linux laptop"
            added.position = 9
            try context.save()
        }
        #expect(try titles(stack, .matches(FullTextQuery("linux"))) == ["Linux laptop"])
        #expect(try titles(stack, .matches(FullTextQuery("freebsd ports"))) == ["Swift on FreeBSD"])
        #expect(try titles(stack, .matches(FullTextQuery("lyon"))) == ["Café culture"])
        try stack.container.persistentStore.checkFullTextIndexes()
    }

    @Test func aFailedSaveLeavesTheIndexAsItWas() throws {
        let stack = try stack()
        let other = stack.container.newBackgroundContext()
        try stack.run { context in
            let note = try #require(try context.fetch(FetchRequest<SearchNote>(predicate: \.title == "Shopping")).first)
            // Another context changes the row first, so this save fails its version check.
            try other.performAndWait {
                let copy = try #require(try other.fetch(FetchRequest<SearchNote>(predicate: \.title == "Shopping")).first)
                copy.position = 42
                try other.save()
            }
            let fresh = SearchNote(context: context)
            fresh.title = "Never written"
            note.body = "replaced text"
            #expect(throws: ObjectGraphError.self) { try context.save() }
        }
        #expect(try titles(stack, .matches(FullTextQuery("never"))) == [])
        #expect(try titles(stack, .matches(FullTextQuery("replaced"))) == [])
        #expect(try titles(stack, .matches(FullTextQuery("landlord"))) == ["Shopping"])
        try stack.container.persistentStore.checkFullTextIndexes()
    }

    @Test func unsavedChangesAreMatchedInMemory() throws {
        let stack = try stack()
        try stack.run { context in
            let notes = try context.fetch(FetchRequest<SearchNote>(sortDescriptors: [.ascending(\.position)]))
            notes[2].body = "Nothing about it any more."
            notes[2].title = "Desktop"
            notes[3].title = "Kernel notes on LINUX"
            let draft = SearchNote(context: context)
            draft.title = "Draft about Lïnux"
            draft.position = 10
            let request = FetchRequest<SearchNote>(predicate: .matches(FullTextQuery("linu")), sortDescriptors: [.ascending(\.position)])
            #expect(try context.fetch(request).map(\.title) == ["Swift on Linux", "Kernel notes on LINUX", "Draft about Lïnux"])
            #expect(try context.count(for: request) == 3)
            let ranked = FetchRequest<SearchNote>(predicate: .matches(FullTextQuery("linu")), sortDescriptors: [.relevance])
            #expect(Set(try context.fetch(ranked).map(\.title)) == ["Swift on Linux", "Kernel notes on LINUX", "Draft about Lïnux"])
            let phrase = FetchRequest<SearchNote>(predicate: .matches(FullTextQuery("notes on", matchingPrefixes: false)))
            #expect(try context.fetch(phrase).map(\.title) == ["Kernel notes on LINUX"])
        }
    }

    @Test func schemaChecksAndChecksumCoverTheIndex() throws {
        var withoutIndex = NoteModel.schema
        withoutIndex.entities[0].fullTextIndex = nil
        #expect(withoutIndex.checksum != NoteModel.schema.checksum)
        try NoteModel.schema.validate()

        for attributes in [["pinned"], ["missing"], [], ["title", "title"]] {
            var broken = NoteModel.schema
            broken.entities[0].fullTextIndex = FullTextIndex(attributes)
            #expect(throws: SchemaError.self) { try broken.validate() }
        }
    }

    @Test func aPrefixIndexFindsTheSameAndIsPartOfTheSchema() throws {
        var schema = NoteModel.schema
        schema.entities[0].fullTextIndex = FullTextIndex(["title", "body"], prefixLengths: [1])
        #expect(schema.checksum != NoteModel.schema.checksum)
        let plain = try stack()
        let prefixed = try stack(schema: schema)
        var handle: OpaquePointer?
        #expect(sqlite3_open(prefixed.directory.file().path, &handle) == SQLITE_OK)
        var statement: OpaquePointer?
        sqlite3_prepare_v2(handle, "SELECT sql FROM sqlite_master WHERE name = 'og_fts_SearchNote'", -1, &statement, nil)
        #expect(sqlite3_step(statement) == SQLITE_ROW)
        #expect(String(cString: sqlite3_column_text(statement, 0)).contains("prefix='1'"))
        sqlite3_finalize(statement)
        sqlite3_close(handle)
        for text in ["l", "L", "c", "s l", "li", "e-"] {
            #expect(try titles(prefixed, .matches(FullTextQuery(text))) == titles(plain, .matches(FullTextQuery(text))), "\(text)")
        }
        #expect(try titles(prefixed, .matches(FullTextQuery("c"))) == ["Café culture"])
        try prefixed.container.persistentStore.checkFullTextIndexes()

        for lengths in [[0], [1, 1], [1_000]] {
            var broken = NoteModel.schema
            broken.entities[0].fullTextIndex = FullTextIndex(["title", "body"], prefixLengths: lengths)
            #expect(throws: SchemaError.self) { try broken.validate() }
        }
    }

    @Test func aDamagedIndexIsFoundAndRebuilt() throws {
        let stack = try stack()
        var handle: OpaquePointer?
        #expect(sqlite3_open(stack.directory.file().path, &handle) == SQLITE_OK)
        // An entry for a row that does not exist, and a row that is missing from the index.
        let damage = """
            INSERT INTO og_fts_SearchNote (rowid, title, body) VALUES (999, 'ghost', 'ghost');
            INSERT INTO og_fts_SearchNote (og_fts_SearchNote, rowid, title, body) SELECT 'delete', _pk, title, body FROM SearchNote WHERE title = 'Shopping';
            """
        #expect(sqlite3_exec(handle, damage, nil, nil, nil) == SQLITE_OK)
        sqlite3_close(handle)

        #expect(try titles(stack, .matches(FullTextQuery("landlord"))) == [])
        #expect(throws: StoreError.self) { try stack.container.persistentStore.checkFullTextIndexes() }
        try stack.container.persistentStore.rebuildFullTextIndexes()
        try stack.container.persistentStore.checkFullTextIndexes()
        #expect(try titles(stack, .matches(FullTextQuery("landlord"))) == ["Shopping"])
        #expect(try titles(stack, .matches(FullTextQuery("ghost"))) == [])
    }
}
