import Foundation
import ObjectGraph

/// A library-like model that exercises every attribute type and relationship kind.
final class Folder: ManagedObject {
    @Attribute("name") var name: String
    @Attribute("position") var position: Int
    @ToMany("articles") var articles: RelatedObjects<Article>
    @ToOne("parent") var parent: Folder?
    @ToMany("children") var children: RelatedObjects<Folder>
}

struct PageLayout: Codable, Equatable {
    var columns: Int
    var margins: [Double]
}

final class Article: ManagedObject {
    @Attribute("id") var id: UUID
    @Attribute("title") var title: String
    @Attribute("subtitle") var subtitle: String?
    @Attribute("body") var body: String
    @Attribute("wordCount") var wordCount: Int
    @Attribute("rating") var rating: Double?
    @Attribute("price") var price: Decimal?
    @Attribute("isDraft") var isDraft: Bool
    @Attribute("createdAt") var createdAt: Date
    @Attribute("link") var link: URL?
    @Attribute("attachment") var attachment: Data?
    @Attribute("priority") var priority: Int16
    @Attribute("views") var views: Int32
    @Attribute("scratch") var scratch: String?
    @CodableAttribute("layout") var layout: PageLayout?
    @ToOne("folder") var folder: Folder?
    @ToMany("tags") var tags: RelatedObjects<Tag>
    @ToOne("summary") var summary: Summary?

    override func awakeFromInsert() {
        id = UUID()
        createdAt = Date(timeIntervalSince1970: 1_700_000_000)
    }
}

final class Tag: ManagedObject {
    @Attribute("name") var name: String
    @ToMany("articles") var articles: RelatedObjects<Article>
}

final class Summary: ManagedObject {
    @Attribute("text") var text: String
    @ToOne("article") var article: Article?
}

enum TestModel {
    static let schema = Schema(version: 1, entities: [
        EntityDescription(
            "Folder", class: Folder.self,
            attributes: [
                AttributeDescription("name", .string),
                AttributeDescription("position", .integer64, default: 0),
            ],
            relationships: [
                .toMany("articles", "Article", inverse: "folder"),
                .toOne("parent", "Folder", inverse: "children"),
                .toMany("children", "Folder", inverse: "parent", deleteRule: .cascade),
            ]),
        EntityDescription(
            "Article", class: Article.self,
            attributes: [
                AttributeDescription("id", .uuid, unique: true, preservesValueInHistoryOnDeletion: true),
                AttributeDescription("title", .string, default: "", preservesValueInHistoryOnDeletion: true),
                AttributeDescription("subtitle", .string, optional: true),
                AttributeDescription("body", .string, default: ""),
                AttributeDescription("wordCount", .integer64, default: 0),
                AttributeDescription("rating", .double, optional: true),
                AttributeDescription("price", .decimal, optional: true),
                AttributeDescription("isDraft", .boolean, default: true),
                AttributeDescription("createdAt", .date, indexed: true),
                AttributeDescription("link", .uri, optional: true),
                AttributeDescription("attachment", .binaryData, optional: true),
                AttributeDescription("priority", .integer16, default: 0),
                AttributeDescription("views", .integer32, default: 0),
                AttributeDescription("scratch", .string, optional: true, transient: true),
                AttributeDescription("layout", .json, optional: true),
            ],
            relationships: [
                .toOne("folder", "Folder", inverse: "articles"),
                .toMany("tags", "Tag", inverse: "articles"),
                .toOne("summary", "Summary", inverse: "article", deleteRule: .cascade),
            ]),
        EntityDescription(
            "Tag", class: Tag.self,
            attributes: [AttributeDescription("name", .string, unique: true)],
            relationships: [.toMany("articles", "Article", inverse: "tags")]),
        EntityDescription(
            "Summary", class: Summary.self,
            attributes: [AttributeDescription("text", .string, default: "")],
            relationships: [.toOne("article", "Article", inverse: "summary")]),
    ])
}
