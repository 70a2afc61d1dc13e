import Foundation
import ObjectGraph

/// A small library with every kind of value, nil included, described as plain values so that
/// tests can compute expected results with ordinary Swift and compare them with fetches.
enum LibraryFixture {
    struct Row {
        var title: String
        var subtitle: String?
        var wordCount: Int
        var rating: Double?
        var price: Decimal?
        var isDraft: Bool
        var createdAt: Date
        var folder: String?
        var tags: [String]
        var priority: Int16
    }

    static let day: TimeInterval = 86_400
    static let epoch = Date(timeIntervalSince1970: 1_700_000_000)

    static let rows: [Row] = [
        Row(title: "Café au lait", subtitle: "Morning", wordCount: 120, rating: 4.5, price: Decimal(string: "3.50"),
            isDraft: false, createdAt: epoch, folder: "Food", tags: ["swift"], priority: 2),
        Row(title: "cafe noir", subtitle: nil, wordCount: 80, rating: nil, price: nil,
            isDraft: true, createdAt: epoch + day, folder: "Food", tags: [], priority: 1),
        Row(title: "Linux Desktop", subtitle: "GTK", wordCount: 1500, rating: 3.0, price: 0,
            isDraft: false, createdAt: epoch + 2 * day, folder: "Tech", tags: ["linux", "gtk"], priority: 3),
        Row(title: "Swift on Linux", subtitle: "Server", wordCount: 900, rating: 5.0, price: Decimal(string: "12.25"),
            isDraft: true, createdAt: epoch + 3 * day, folder: "Tech", tags: ["swift", "linux"], priority: 3),
        Row(title: "Zebra crossing", subtitle: nil, wordCount: 0, rating: 1.5, price: nil,
            isDraft: false, createdAt: epoch + 4 * day, folder: nil, tags: [], priority: 0),
        Row(title: "apple pie", subtitle: "Dessert", wordCount: 300, rating: 4.0, price: 4,
            isDraft: false, createdAt: epoch + 5 * day, folder: "Food", tags: ["baking"], priority: 1),
        Row(title: "Ünïcode Ümlaut", subtitle: "Ä", wordCount: 42, rating: nil, price: Decimal(string: "9.99"),
            isDraft: true, createdAt: epoch + 6 * day, folder: nil, tags: ["gtk"], priority: 2),
        Row(title: "100% done", subtitle: "percent*star?", wordCount: 10, rating: 2.5, price: 1,
            isDraft: false, createdAt: epoch + 7 * day, folder: "Tech", tags: ["swift", "gtk", "linux"], priority: 0),
    ]

    /// Inserts the library into `context` (without saving) and returns its folders by name.
    @discardableResult
    static func insert(into context: ManagedObjectContext) -> [String: Folder] {
        var folders: [String: Folder] = [:]
        var tags: [String: Tag] = [:]
        for (position, name) in ["Food", "Tech", "Empty"].enumerated() {
            let folder = Folder(context: context)
            folder.name = name
            folder.position = position
            folders[name] = folder
        }
        for name in ["swift", "linux", "gtk", "baking", "unused"] {
            let tag = Tag(context: context)
            tag.name = name
            tags[name] = tag
        }
        for row in rows {
            let article = Article(context: context)
            article.title = row.title
            article.subtitle = row.subtitle
            article.wordCount = row.wordCount
            article.rating = row.rating
            article.price = row.price
            article.isDraft = row.isDraft
            article.createdAt = row.createdAt
            article.priority = row.priority
            article.folder = row.folder.flatMap { folders[$0] }
            article.tags = RelatedObjects(row.tags.map { tags[$0]! })
        }
        return folders
    }

    /// The titles of the rows `isIncluded` accepts.
    static func titles(where isIncluded: (Row) -> Bool) -> Set<String> {
        Set(rows.filter(isIncluded).map(\.title))
    }
}

extension TestStack {
    /// A store holding the fixture, saved.
    static func savedLibrary() throws -> TestStack {
        let stack = try TestStack()
        try stack.run { context in
            LibraryFixture.insert(into: context)
            try context.save()
        }
        return stack
    }
}
