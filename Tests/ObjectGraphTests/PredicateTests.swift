import Foundation
import ObjectGraph
import Testing

/// Every predicate operator, checked against expected rows computed with plain Swift, twice: as
/// SQL over saved rows, and in memory over unsaved inserted objects (`includesPendingChanges`).
@Suite struct PredicateTests {
    typealias Row = LibraryFixture.Row

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let predicate: @Sendable (_ folders: [String: Folder]) -> FetchPredicate<Article>
        let expected: @Sendable (Row) -> Bool

        init(_ name: String, _ predicate: @escaping @Sendable ([String: Folder]) -> FetchPredicate<Article>, _ expected: @escaping @Sendable (Row) -> Bool) {
            self.name = name
            self.predicate = predicate
            self.expected = expected
        }

        var testDescription: String { name }
    }

    static let middle = LibraryFixture.epoch + 3 * LibraryFixture.day

    static let cases: [Case] = [
        Case("==", { _ in \.title == "Linux Desktop" }, { $0.title == "Linux Desktop" }),
        Case("!=", { _ in \.title != "Linux Desktop" }, { $0.title != "Linux Desktop" }),
        Case("<", { _ in \.wordCount < 100 }, { $0.wordCount < 100 }),
        Case("<=", { _ in \.wordCount <= 120 }, { $0.wordCount <= 120 }),
        Case(">", { _ in \.wordCount > 120 }, { $0.wordCount > 120 }),
        Case(">=", { _ in \.wordCount >= 120 }, { $0.wordCount >= 120 }),
        Case("optional >", { _ in \.rating > 3.0 }, { ($0.rating ?? -.infinity) > 3.0 }),
        Case("NOT optional > keeps nil", { _ in !(\.rating > 3.0) }, { !(($0.rating ?? -.infinity) > 3.0) }),
        Case("== nil", { _ in \.subtitle == nil }, { $0.subtitle == nil }),
        Case("!= nil", { _ in \.subtitle != nil }, { $0.subtitle != nil }),
        Case("!= value keeps nil", { _ in \.subtitle != "GTK" }, { $0.subtitle != "GTK" }),
        Case("isNil", { _ in .isNil(\.rating) }, { $0.rating == nil }),
        Case("isNotNil", { _ in .isNotNil(\.price) }, { $0.price != nil }),
        Case("decimal >=", { _ in \.price >= Decimal(4) }, { ($0.price ?? -1) >= 4 }),
        Case("decimal ==", { _ in \.price == Decimal(string: "12.25")! }, { $0.price == Decimal(string: "12.25") }),
        Case("bool", { _ in \.isDraft == true }, { $0.isDraft }),
        Case("int16", { _ in \.priority == 3 }, { $0.priority == 3 }),
        Case("date <", { _ in \.createdAt < middle }, { $0.createdAt < middle }),
        Case("AND", { _ in \.isDraft == false && \.wordCount > 100 }, { !$0.isDraft && $0.wordCount > 100 }),
        Case("OR", { _ in \.wordCount == 0 || \.wordCount == 1500 }, { $0.wordCount == 0 || $0.wordCount == 1500 }),
        Case("NOT", { _ in !(\.isDraft == true) }, { !$0.isDraft }),
        Case("NOT over AND", { _ in !(\.isDraft == false && \.rating >= 4.0) }, { !(!$0.isDraft && ($0.rating ?? -1) >= 4.0) }),
        Case("IN", { _ in .in(\.wordCount, [80, 300, 999]) }, { [80, 300, 999].contains($0.wordCount) }),
        Case("IN with nil", { _ in .in(\.subtitle, [nil, "GTK"]) }, { [nil, "GTK"].contains($0.subtitle) }),
        Case("NOT IN keeps nil", { _ in !.in(\.subtitle, ["GTK"]) }, { !["GTK"].contains($0.subtitle) }),
        Case("IN empty", { _ in .in(\.wordCount, []) }, { _ in false }),
        Case("BEGINSWITH", { _ in .beginsWith(\.title, "caf") }, { $0.title.hasPrefix("caf") }),
        Case("BEGINSWITH case-insensitive", { _ in .beginsWith(\.title, "CAF", options: .caseInsensitive) },
             { $0.title.lowercased().hasPrefix("caf") }),
        Case("BEGINSWITH case- and diacritic-insensitive", { _ in .beginsWith(\.title, "cafe", options: [.caseInsensitive, .diacriticInsensitive]) },
             { ["Café au lait", "cafe noir"].contains($0.title) }),
        Case("CONTAINS", { _ in .contains(\.title, "Linux") }, { $0.title.contains("Linux") }),
        Case("CONTAINS case-insensitive", { _ in .contains(\.title, "LINUX", options: .caseInsensitive) },
             { $0.title.lowercased().contains("linux") }),
        Case("CONTAINS diacritic-insensitive", { _ in .contains(\.title, "umlaut", options: [.caseInsensitive, .diacriticInsensitive]) },
             { $0.title == "Ünïcode Ümlaut" }),
        Case("CONTAINS on optional", { _ in .contains(\.subtitle, "e") }, { $0.subtitle?.contains("e") ?? false }),
        Case("NOT CONTAINS on optional keeps nil", { _ in !.contains(\.subtitle, "e") }, { !($0.subtitle?.contains("e") ?? false) }),
        Case("ENDSWITH", { _ in .endsWith(\.title, "pie") }, { $0.title.hasSuffix("pie") }),
        Case("LIKE", { _ in .like(\.title, "?pple*") }, { $0.title == "apple pie" }),
        Case("LIKE case-insensitive", { _ in .like(\.title, "*LINUX*", options: .caseInsensitive) },
             { $0.title.lowercased().contains("linux") }),
        Case("LIKE literal characters", { _ in .like(\.subtitle, "percent*") }, { $0.subtitle?.hasPrefix("percent") ?? false }),
        Case("equals case-insensitive", { _ in .equals(\.title, "CAFE NOIR", options: .caseInsensitive) }, { $0.title == "cafe noir" }),
        Case("to-one key path", { _ in \.folder?.name == "Food" }, { $0.folder == "Food" }),
        Case("NOT to-one key path keeps nil", { _ in !(\.folder?.name == "Food") }, { $0.folder != "Food" }),
        Case("to-one is nil", { _ in \.folder == nil }, { $0.folder == nil }),
        Case("to-one is object", { folders in \.folder == folders["Tech"] }, { $0.folder == "Tech" }),
        Case("to-one is not object", { folders in \.folder != folders["Tech"] }, { $0.folder != "Tech" }),
        Case("ANY", { _ in .any(\.tags, \.name == "swift") }, { $0.tags.contains("swift") }),
        Case("NOT ANY", { _ in !.any(\.tags, \.name == "swift") }, { !$0.tags.contains("swift") }),
        Case("ALL", { _ in
            let linuxish: FetchPredicate<Tag> = .beginsWith(\.name, "l") || \.name == "gtk"
            return .all(\.tags, linuxish)
        },
             { $0.tags.allSatisfy { $0.hasPrefix("l") || $0 == "gtk" } }),
        Case("count >=", { _ in .count(\.tags, .greaterOrEqual, 2) }, { $0.tags.count >= 2 }),
        Case("count ==", { _ in .count(\.tags, .equal, 0) }, { $0.tags.isEmpty }),
        Case("ANY through to-one", { _ in .any(\.tags, .contains(\.name, "a")) && \.folder?.name == "Food" },
             { $0.tags.contains { $0.contains("a") } && $0.folder == "Food" }),
        Case("untyped key", { _ in .key("folder.name", .equal, "Tech") }, { $0.folder == "Tech" }),
        Case("constant", { _ in .all }, { _ in true }),
    ]

    @Test(arguments: cases)
    func matchesSavedRows(_ predicateCase: Case) throws {
        let stack = try TestStack()
        try stack.run { context in
            LibraryFixture.insert(into: context)
            try context.save()
        }
        let titles = try stack.run { context in
            let folders = try Self.foldersByName(in: context)
            return Set(try context.fetch(FetchRequest(predicate: predicateCase.predicate(folders))).map(\.title))
        }
        #expect(titles == LibraryFixture.titles(where: predicateCase.expected))
    }

    @Test(arguments: cases)
    func matchesUnsavedObjects(_ predicateCase: Case) throws {
        let stack = try TestStack()
        try stack.run { context in
            let folders = LibraryFixture.insert(into: context)
            let titles = Set(try context.fetch(FetchRequest(predicate: predicateCase.predicate(folders))).map(\.title))
            #expect(titles == LibraryFixture.titles(where: predicateCase.expected))
        }
    }

    @Test func predicatesOverToManyFromTheOtherSide() throws {
        let stack = try TestStack()
        try stack.run { context in
            LibraryFixture.insert(into: context)
            try context.save()
            let busy = try context.fetch(FetchRequest<Folder>(predicate: .count(\.articles, .greater, 2)))
            #expect(Set(busy.map(\.name)) == ["Food", "Tech"])
            let withDrafts = try context.fetch(FetchRequest<Folder>(predicate: .any(\.articles, \.isDraft == true)))
            #expect(Set(withDrafts.map(\.name)) == ["Food", "Tech"])
            let empty = try context.fetch(FetchRequest<Folder>(predicate: .count(\.articles, .equal, 0)))
            #expect(empty.map(\.name) == ["Empty"])
            let popular = try context.fetch(FetchRequest<Tag>(predicate: .count(\.articles, .equal, 3)))
            #expect(Set(popular.map(\.name)) == ["swift", "linux", "gtk"])
        }
    }

    @Test func wrongKeyPathIsATypedError() throws {
        let stack = try TestStack()
        try stack.run { context in
            #expect(throws: ObjectGraphError.self) {
                _ = try context.fetch(FetchRequest<Article>(predicate: .key("nosuch", .equal, 1)))
            }
            do {
                _ = try context.fetch(FetchRequest<Article>(predicate: .key("title", .equal, 1)))
                Issue.record("a wrong value type was accepted")
            } catch ObjectGraphError.wrongValueType(let entity, let key, _, _) {
                #expect(entity == "Article" && key == "title")
            }
        }
    }

    @Test func valuesAreBoundNotSpliced() throws {
        let stack = try TestStack()
        try stack.run { context in
            LibraryFixture.insert(into: context)
            try context.save()
            stack.statements.reset()
            let hostile = "x' OR '1'='1"
            let found = try context.fetch(FetchRequest<Article>(predicate: \.title == hostile || .contains(\.title, hostile)))
            #expect(found.isEmpty)
            #expect(!stack.statements.all.contains { $0.contains(hostile) })
        }
    }

    static func foldersByName(in context: ManagedObjectContext) throws -> [String: Folder] {
        Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest<Folder>()).map { ($0.name, $0) })
    }
}
