import Foundation
import ObjectGraph
@testable import Library
import QuireTestSupport

/// The committed library fixtures (`Fixtures/library-vN.quire`) and what tests do with them.
enum LibraryFixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// Every library fixture, oldest version first.
    static var all: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasPrefix("library-v") && $0.hasSuffix(".quire") }
            .sorted { version(of: $0) < version(of: $1) }
            .map { folder.appendingPathComponent($0) }
    }

    static let v1 = folder.appendingPathComponent("library-v1.quire")

    private static func version(of name: String) -> Int {
        Int(name.dropFirst("library-v".count).prefix { $0.isNumber }) ?? 0
    }

    /// A copy of a fixture in `folder`, named `library.quire`, to migrate or damage.
    static func copy(_ fixture: URL, into folder: TemporaryFolder, name: String = "library.quire") throws -> URL {
        let url = folder.appending(name)
        try FileManager.default.copyItem(at: fixture, to: url)
        return url
    }
}

/// Every row of a store as text, read with a schema without classes: entity → primary key →
/// property → value (attributes by their description, to-ones as the destination's key, to-manys
/// as the sorted keys). Two dumps compare stores value by value.
struct StoreDump: Equatable {
    var entities: [String: [Int64: [String: String]]] = [:]

    /// Reads the store at `url` with `schema`, read-only.
    init(_ url: URL, schema: Schema) throws {
        var description = StoreDescription.file(url)
        description.isReadOnly = true
        let container = try PersistentContainer(schema: schema, store: description)
        let context = container.newBackgroundContext()
        entities = try context.performAndWait {
            var entities: [String: [Int64: [String: String]]] = [:]
            for entity in schema.entities {
                var rows: [Int64: [String: String]] = [:]
                for object in try context.fetch(FetchRequest<ManagedObject>(entityName: entity.name)) {
                    var values: [String: String] = [:]
                    for attribute in entity.attributes {
                        values[attribute.name] = try Self.text(object.value(forKey: attribute.name))
                    }
                    for relationship in entity.relationships {
                        let value = try object.value(forKey: relationship.name)
                        if let target = value as? ManagedObject {
                            values[relationship.name] = "\(Self.key(target))"
                        } else if let members = value as? Set<ManagedObject> {
                            values[relationship.name] = members.map(Self.key).sorted().map(String.init).joined(separator: ",")
                        } else {
                            values[relationship.name] = "nil"
                        }
                    }
                    rows[Self.key(object)] = values
                }
                entities[entity.name] = rows
            }
            return entities
        }
    }

    /// A value as exact text (dates to the last bit of their seconds).
    private static func text(_ value: Any?) -> String {
        switch value {
        case nil: return "nil"
        case let date as Date: return "date \(date.timeIntervalSince1970)"
        case let data as Data: return "data \(data.base64EncodedString())"
        case let some?: return "\(type(of: some)) \(some)"
        }
    }

    private static func key(_ object: ManagedObject) -> Int64 {
        Int64(object.objectID.uriRepresentation.lastPathComponent.dropFirst()) ?? -1
    }

    /// The dump with only the properties `schema` has, for comparing with a store of an older schema.
    func restricted(to schema: Schema) -> StoreDump {
        var copy = self
        for entity in schema.entities {
            let names = Set(entity.attributes.map(\.name) + entity.relationships.map(\.name))
            copy.entities[entity.name] = entities[entity.name]?.mapValues { $0.filter { names.contains($0.key) } }
        }
        copy.entities = copy.entities.filter { name, _ in schema.entity(named: name) != nil }
        return copy
    }

    /// The first differences, for a failure message.
    func differences(from other: StoreDump) -> [String] {
        var found: [String] = []
        for entity in Set(entities.keys).union(other.entities.keys).sorted() {
            let mine = entities[entity] ?? [:]
            let theirs = other.entities[entity] ?? [:]
            for key in Set(mine.keys).union(theirs.keys).sorted() where mine[key] != theirs[key] {
                let fields = Set((mine[key] ?? [:]).keys).union((theirs[key] ?? [:]).keys).sorted()
                    .filter { mine[key]?[$0] != theirs[key]?[$0] }
                found.append("\(entity) \(key): " + fields.map { "\($0) \(mine[key]?[$0] ?? "absent") ≠ \(theirs[key]?[$0] ?? "absent")" }.joined(separator: "; "))
                if found.count >= 10 { return found }
            }
        }
        return found
    }
}
