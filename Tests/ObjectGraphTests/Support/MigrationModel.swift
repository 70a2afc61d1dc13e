import Foundation
import ObjectGraph

/// Three versions of a notes schema, without classes, for migration tests:
/// - v1: notebooks, notes (full-text indexed) and tags;
/// - v2, lightweight from v1: `title` renamed `heading`, `scratch` removed, `subtitle`, `priority`
///   (default 3) and `archived` (default false) added, `Tag` renamed `Label` (its join table
///   changes name and orientation), `tags` renamed `labels`, a new `Reminder` entity, an index
///   replaced by an indexed attribute, the full-text index following the rename;
/// - v3, custom from v2: `rating` turns from text stars ("★★★") into a number, and a required
///   `wordCount` without default is computed from the body (the renaming identifiers of v2 stay,
///   as they may).
enum MigrationModel {
    static let v1 = Schema(version: 1, entities: [
        EntityDescription(
            "Notebook",
            attributes: [AttributeDescription("name", .string, unique: true), AttributeDescription("created", .date)],
            relationships: [.toMany("notes", "Note", inverse: "notebook")]),
        EntityDescription(
            "Note",
            attributes: [
                AttributeDescription("title", .string, default: ""),
                AttributeDescription("body", .string, default: ""),
                AttributeDescription("rating", .string, optional: true),
                AttributeDescription("scratch", .string, optional: true),
                AttributeDescription("created", .date),
                AttributeDescription("pinned", .boolean, default: false),
            ],
            relationships: [.toOne("notebook", "Notebook", inverse: "notes"), .toMany("tags", "Tag", inverse: "notes")],
            indexes: [["pinned", "created"]],
            fullTextIndex: FullTextIndex(["title", "body"])),
        EntityDescription(
            "Tag",
            attributes: [AttributeDescription("name", .string, unique: true)],
            relationships: [.toMany("notes", "Note", inverse: "tags")]),
    ])

    static let v2 = Schema(version: 2, entities: [
        EntityDescription(
            "Notebook",
            attributes: [AttributeDescription("name", .string, unique: true), AttributeDescription("created", .date)],
            relationships: [.toMany("notes", "Note", inverse: "notebook")]),
        EntityDescription(
            "Note",
            attributes: [
                AttributeDescription("heading", .string, default: "", renamingIdentifier: "title"),
                AttributeDescription("body", .string, default: ""),
                AttributeDescription("rating", .string, optional: true),
                AttributeDescription("created", .date, indexed: true),
                AttributeDescription("pinned", .boolean, optional: true),
                AttributeDescription("subtitle", .string, optional: true),
                AttributeDescription("priority", .integer64, default: 3),
                AttributeDescription("archived", .boolean, default: false),
            ],
            relationships: [
                .toOne("notebook", "Notebook", inverse: "notes"),
                .toMany("labels", "Label", inverse: "notes", renamingIdentifier: "tags"),
                .toMany("reminders", "Reminder", inverse: "note", deleteRule: .cascade),
            ],
            fullTextIndex: FullTextIndex(["heading", "body"])),
        EntityDescription(
            "Label",
            attributes: [AttributeDescription("name", .string, unique: true)],
            relationships: [.toMany("notes", "Note", inverse: "labels")],
            renamingIdentifier: "Tag"),
        EntityDescription(
            "Reminder",
            attributes: [AttributeDescription("due", .date)],
            relationships: [.toOne("note", "Note", inverse: "reminders")]),
    ])

    static let v3: Schema = {
        var schema = v2
        schema.version = 3
        let note = schema.entities.firstIndex { $0.name == "Note" }!
        for index in schema.entities[note].attributes.indices where schema.entities[note].attributes[index].name == "rating" {
            schema.entities[note].attributes[index].type = .integer64
        }
        schema.entities[note].attributes.append(AttributeDescription("wordCount", .integer64))
        return schema
    }()

    /// v2 → v3: stars counted into a number, words counted, both in batches of three rows.
    static let v2ToV3 = MigrationStage.custom(
        "ratings and word counts", from: v2, to: v3,
        transforms: [
            EntityTransform(entity: "Note", reads: ["rating", "body"], writes: ["rating", "wordCount"], batchSize: 3) { row in
                if let stars = row.source("rating").stringValue {
                    try row.set("rating", .integer(Int64(stars.filter { $0 == "★" }.count)))
                }
                let words = row.source("body").stringValue?.split(whereSeparator: \.isWhitespace).count ?? 0
                try row.set("wordCount", .integer(Int64(words)))
            },
        ],
        checks: [
            MigrationCheck("word counts are not negative") { inspection in
                var problems: [MigrationProblem] = []
                try inspection.forEachRow(of: "Note", attributes: ["wordCount"]) { key, values in
                    if (values[0].integerValue ?? -1) < 0 {
                        problems.append(MigrationProblem(entity: "Note", property: "wordCount", message: "row \(key) is negative"))
                    }
                }
                return problems
            },
        ])

    static func plan() throws -> MigrationPlan {
        try MigrationPlan(schemas: [v1, v2, v3], stages: [.lightweight(from: v1, to: v2), v2ToV3])
    }

    /// The notes a v1 store holds, by title: body, rating, scratch, notebook, tags.
    static let notes: [(title: String, body: String, rating: String?, scratch: String?, notebook: String?, tags: [String])] = [
        ("Groceries", "milk eggs bread", "★★★", "x", "Home", ["errands"]),
        ("Café au lait", "Une recette simple", nil, nil, "Home", ["recipes", "french"]),
        ("Standup", "yesterday today blockers", "★", nil, "Work", []),
        ("", "", nil, nil, nil, []),
        ("日本語のノート", "漢字 かな カナ", "★★", "scratch", "Work", ["japanese"]),
        ("Long", String(repeating: "word ", count: 5000), "★★★★★", nil, nil, ["recipes"]),
        ("Emoji 🎉", "party 🎉 time", nil, nil, "Home", ["errands", "french"]),
    ]

    /// Writes a v1 store with ``notes`` at `url`; returns when the store is closed.
    static func writeV1Store(at url: URL) throws {
        let container = try PersistentContainer(schema: v1, store: .file(url))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var notebooks: [String: ManagedObject] = [:]
            var tags: [String: ManagedObject] = [:]
            for name in ["Home", "Work"] {
                let notebook = try context.insertObject(entityName: "Notebook")
                try notebook.setValue(name, forKey: "name")
                try notebook.setValue(Date(timeIntervalSince1970: 1_700_000_000), forKey: "created")
                notebooks[name] = notebook
            }
            for (offset, note) in notes.enumerated() {
                let object = try context.insertObject(entityName: "Note")
                try object.setValue(note.title, forKey: "title")
                try object.setValue(note.body, forKey: "body")
                try object.setValue(note.rating, forKey: "rating")
                try object.setValue(note.scratch, forKey: "scratch")
                try object.setValue(Date(timeIntervalSince1970: 1_700_000_000 + Double(offset) * 60.5), forKey: "created")
                try object.setValue(offset % 2 == 0, forKey: "pinned")
                try object.setValue(note.notebook.flatMap { notebooks[$0] }, forKey: "notebook")
                var members: [ManagedObject] = []
                for name in note.tags {
                    if tags[name] == nil {
                        let tag = try context.insertObject(entityName: "Tag")
                        try tag.setValue(name, forKey: "name")
                        tags[name] = tag
                    }
                    members.append(tags[name]!)
                }
                try object.setValue(members, forKey: "tags")
            }
            try context.save()
        }
    }
}
