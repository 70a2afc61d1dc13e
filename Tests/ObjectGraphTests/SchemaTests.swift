import Foundation
import ObjectGraph
import Testing

/// A class whose properties disagree with its entity.
final class MismatchedArticle: ManagedObject {
    @Attribute("title") var title: Int
    @Attribute("missing") var missing: String
    @Attribute("subtitle") var subtitle: String
    @ToMany("folder") var folder: RelatedObjects<MismatchedFolder>
}

final class MismatchedFolder: ManagedObject {
    @Attribute("name") var name: String
}

/// Schema values: checksums, validation and the check of classes against entities.
@Suite struct SchemaTests {
    private func problems(_ schema: Schema) -> [SchemaError.Problem] {
        do {
            _ = try PersistentContainer(schema: schema, store: .inMemory)
            return []
        } catch let error as SchemaError {
            return error.problems
        } catch {
            Issue.record("unexpected error \(error)")
            return []
        }
    }

    @Test func checksumFollowsStructureOnly() {
        let schema = TestModel.schema
        #expect(schema.checksum.count == 64)
        #expect(schema.checksum == TestModel.schema.checksum)

        var reordered = schema
        reordered.entities.reverse()
        reordered.entities[0].attributes.reverse()
        #expect(reordered.checksum == schema.checksum)

        var cosmetic = schema
        cosmetic.version = 7
        cosmetic.entities[0].attributes[0].defaultValue = "Untitled"
        cosmetic.entities[0].relationships[0].deleteRule = .cascade
        cosmetic.entities[0].renamingIdentifier = "OldFolder"
        #expect(cosmetic.checksum == schema.checksum)

        var structural = schema
        structural.entities[0].attributes[0].isOptional = true
        #expect(structural.checksum != schema.checksum)
        var indexed = schema
        indexed.entities[0].indexes.append(["name"])
        #expect(indexed.checksum != schema.checksum)
        var typed = schema
        typed.entities[0].attributes[0].type = .uri
        #expect(typed.checksum != schema.checksum)
    }

    @Test func checksumIsStableAcrossBuilds() {
        // Pinned: a change here means every existing store would be refused as incompatible.
        let schema = Schema(version: 1, entities: [
            EntityDescription(
                "Note", attributes: [AttributeDescription("text", .string), AttributeDescription("stars", .integer16, optional: true)],
                relationships: [.toMany("tags", "Label", inverse: "notes")]),
            EntityDescription("Label", relationships: [.toMany("notes", "Note", inverse: "tags")]),
        ])
        // The SHA-256 of the canonical text, as Python's hashlib computes it.
        #expect(schema.checksum == "c898d13e89e0514cc4073d53cd425394b08c1db00da66e0d216a8d057e5e1bd0")
    }

    @Test func everyRelationshipNeedsAMatchingInverse() {
        let schema = Schema(version: 1, entities: [
            EntityDescription("Book", relationships: [
                .toOne("shelf", "Shelf", inverse: "books"),
                .toMany("authors", "Author", inverse: "nothing"),
                .toOne("publisher", "Publisher", inverse: "books"),
            ]),
            EntityDescription("Shelf", relationships: [.toMany("books", "Author", inverse: "shelf")]),
            EntityDescription("Author", relationships: [.toOne("shelf", "Shelf", inverse: "books")]),
        ])
        let found = problems(schema)
        #expect(found.contains { $0.kind == .missingInverse && $0.entity == "Book" && $0.property == "authors" })
        #expect(found.contains { $0.kind == .unknownDestination && $0.entity == "Book" && $0.property == "publisher" })
        #expect(found.contains { $0.kind == .inverseMismatch && $0.entity == "Book" && $0.property == "shelf" })
    }

    @Test func namesDefaultsCountsAndConstraints() {
        let schema = Schema(version: 1, entities: [
            EntityDescription(
                "og_things",
                attributes: [
                    AttributeDescription("_secret", .string),
                    AttributeDescription("bad name", .string),
                    AttributeDescription("count", .integer16, default: 100_000),
                    AttributeDescription("cache", .string, unique: true, transient: true),
                    AttributeDescription("Count", .string),
                ],
                relationships: [
                    .toOne("me", "og_things", inverse: "me"),
                    RelationshipDescription("many", destination: "og_things", inverse: "many", toMany: true, minCount: 3, maxCount: 1),
                ],
                uniquenessConstraints: [["ghost"]]),
            EntityDescription("og_things"),
        ])
        let kinds = Set(problems(schema).map(\.kind))
        #expect(kinds == Set<SchemaError.Problem.Kind>([.reservedName, .invalidName, .invalidDefault, .transientConstraint, .duplicateName,
                          .invalidCount, .selfInverseToMany, .unknownKey]))
    }

    @Test func classesMustMatchTheirEntities() {
        let schema = Schema(version: 1, entities: [
            EntityDescription(
                "Article", class: MismatchedArticle.self,
                attributes: [AttributeDescription("title", .string), AttributeDescription("subtitle", .string, optional: true)],
                relationships: [.toOne("folder", "Folder", inverse: "articles")]),
            EntityDescription(
                "Folder", class: MismatchedArticle.self,
                attributes: [AttributeDescription("name", .string)],
                relationships: [.toMany("articles", "Article", inverse: "folder")]),
        ])
        let found = problems(schema)
        #expect(found.contains { $0.kind == .duplicateClass && $0.entity == "Folder" })

        var fixed = schema
        fixed.entities[1].objectClass = MismatchedFolder.self
        let mismatches = problems(fixed).filter { $0.kind == .classMismatch }
        #expect(Set(mismatches.compactMap(\.property)) == ["title", "missing", "subtitle", "folder"])
    }

    @Test func schemasCompareByStructure() {
        var plain = TestModel.schema
        for index in plain.entities.indices { plain.entities[index].objectClass = ManagedObject.self }
        #expect(plain == TestModel.schema)
        var other = plain
        other.entities[1].attributes.removeLast()
        #expect(other != TestModel.schema)
    }
}
