import Foundation
import ObjectGraph
import Testing
import QuireTestSupport

enum Mood: String, AttributeValue, CaseIterable {
    case calm, busy
}

final class Sample: ManagedObject {
    @Attribute("mood") var mood: Mood
    @Attribute("maybeMood") var maybeMood: Mood?
}

/// Every attribute type survives a save and a reopen exactly.
@Suite struct AttributeValueTests {
    @Test func everyTypeRoundTrips() throws {
        let directory = try TemporaryFolder()
        let id = UUID()
        let created = Date(timeIntervalSince1970: 1_234_567_890.125)
        let attachment = Data((0..<4096).map { UInt8($0 % 251) })
        let layout = PageLayout(columns: 2, margins: [12.5, 0])
        let price = Decimal(string: "12345678901234567890.123456789")!

        let articleID = try TestStack(directory: directory).run { context in
            let article = Article(context: context)
            article.id = id
            article.title = "Ünïcode — ✍️ 漢字 \u{0}nul"
            article.subtitle = ""
            article.body = String(repeating: "long ", count: 20_000)
            article.wordCount = Int.max
            article.rating = -0.5
            article.price = price
            article.isDraft = false
            article.createdAt = created
            article.link = URL(string: "https://example.org/a?b=c#d")
            article.attachment = attachment
            article.priority = Int16.min
            article.views = Int32.max
            article.scratch = "not stored"
            article.layout = layout
            try context.save()
            return article.objectID
        }

        try TestStack(directory: directory).run { context in
            let article = try context.existingObject(with: articleID, as: Article.self)
            #expect(article.id == id)
            #expect(article.title == "Ünïcode — ✍️ 漢字 \u{0}nul")
            #expect(article.subtitle == "")
            #expect(article.body.count == 100_000)
            #expect(article.wordCount == Int.max)
            #expect(article.rating == -0.5)
            #expect(article.price == price)
            #expect(article.isDraft == false)
            #expect(article.createdAt == created)
            #expect(article.link == URL(string: "https://example.org/a?b=c#d"))
            #expect(article.attachment == attachment)
            #expect(article.priority == Int16.min)
            #expect(article.views == Int32.max)
            #expect(article.scratch == nil)
            #expect(article.layout == layout)
            #expect(try article.decodedValue(forKey: "layout", as: PageLayout.self) == layout)
            #expect(try article.value(forKey: "price") as? Decimal == price)
            #expect(try article.value(forKey: "wordCount") as? Int64 == Int64.max)
        }
    }

    @Test func defaultsAndEmptyValues() throws {
        let stack = try TestStack()
        try stack.run { context in
            let article = Article(context: context)
            #expect(article.isDraft == true)            // the schema's default
            #expect(article.title == "")
            #expect(article.subtitle == nil)
            #expect(article.attachment == nil)
            article.attachment = Data()
            article.layout = nil
            try context.save()
            context.reset()
            let reread = try #require(try context.fetch(FetchRequest<Article>()).first)
            #expect(reread.attachment == Data())
            #expect(reread.layout == nil)
        }
    }

    @Test func unencodableCodableValueFailsTheNextSave() throws {
        let stack = try TestStack()
        try stack.run { context in
            let article = Article(context: context)
            article.layout = PageLayout(columns: 1, margins: [.nan])
            #expect(article.layout == nil)
            #expect {
                try context.save()
            } throws: { error in
                if case .unencodableValue(let entity, let key, _)? = error as? ObjectGraphError {
                    return entity == "Article" && key == "layout"
                }
                return false
            }
            context.rollback()
            let fresh = Article(context: context)
            fresh.layout = PageLayout(columns: 3, margins: [])
            try context.save()
        }
    }

    @Test func rawRepresentableEnums() throws {
        let schema = Schema(version: 1, entities: [
            EntityDescription(
                "Sample", class: Sample.self,
                attributes: [AttributeDescription("mood", .string, default: "calm"), AttributeDescription("maybeMood", .string, optional: true)]),
        ])
        let stack = try TestStack(schema: schema)
        try stack.run { context in
            let sample = Sample(context: context)
            #expect(sample.mood == .calm)
            sample.mood = .busy
            try context.save()
            #expect(try context.fetch(FetchRequest<Sample>(predicate: \.mood == .busy)).count == 1)
            #expect(try context.fetch(FetchRequest<Sample>(predicate: \.maybeMood == nil)).count == 1)
        }
    }
}
