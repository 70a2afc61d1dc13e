import Foundation
import ObjectGraph
import Platform
import SyncProtocol

/// A realistic library for newcomers, screenshots and benchmarks: articles with varied titles and
/// Markdown bodies (headings, emphasis, lists, task lists, quotes, code, tables, links), in a few
/// folders or none, with tags, every status, some starred, a few in the trash, created and edited
/// over the two years before `now`. The same seed gives the same library.
public enum DemoLibrary {
    /// The folders demo articles are filed in.
    public static let folders = ["Essays", "Newsletter", "Research", "Fiction", "Talks", "Journal"]
    /// The tags demo articles carry.
    public static let tags = [
        "swift", "linux", "writing", "travel", "productivity", "design", "gtk", "history", "books", "ideas",
        "interview", "to-review",
    ]

    /// The `index`-th article of the demo library with this seed.
    public static func article(_ index: Int, seed: UInt64 = 1, now: Date = Date()) -> ArticleSnapshot {
        var random = SeededGenerator(seed: seed &* 0x2545_F491_4F6C_DD1D &+ UInt64(index))
        let topic = random.pick(topics)
        let form = random.pick(titleForms)
        // Drawn for every title, whether its form shows a number or not: each later choice
        // depends on how many came before.
        let number = random.int(3...12)
        let title = filling(form, topic: topic, number: number)
        let age = Double(random.int(0...(730 * 24))) * 3600 + Double(random.int(0...3599))
        let created = now.addingTimeInterval(-age)
        // Edited some time after creation: within the following two months, and before now.
        let updated = created.addingTimeInterval(Double(random.int(0...Int(min(age, 60 * 24 * 3600)))))
        let statusRoll = random.int(0...9)
        let status: ArticleStatus = statusRoll < 6 ? .draft : statusRoll < 8 ? .ready : .published
        var tagNames: [String] = []
        for _ in 0..<random.int(0...3) {
            let tag = random.pick(tags)
            if !tagNames.contains(tag) { tagNames.append(tag) }
        }
        return ArticleSnapshot(
            id: random.uuid(), title: title, body: body(about: topic, title: title, random: &random),
            folder: random.chance(0.8) ? random.pick(folders) : nil, tags: tagNames.sorted(), status: status,
            isFavorite: random.chance(0.12), created: created, updated: updated,
            trashed: random.chance(0.03) ? updated.addingTimeInterval(3600) : nil)
    }

    // MARK: Text

    private static let topics = [
        "offline-first apps", "the GTK list view", "Swift on Linux", "writing every morning", "slow travel",
        "type design", "SQLite in production", "the history of the index card", "reading on paper", "small tools",
        "conflict resolution", "Markdown tables", "night trains", "the commonplace book", "keyboard shortcuts",
        "garden notebooks", "editing other people", "public libraries", "sync engines", "the second draft",
        "interviewing engineers", "rainy-day projects", "mechanical keyboards", "fountain pens", "a year of newsletters",
        "the Debian release cycle", "minimal text editors", "long-form journalism", "field recordings", "bread baking",
    ]

    private static let titleForms = [
        "Notes on {t}", "Why {t} matters", "A field guide to {t}", "{n} lessons from {t}", "{T}, revisited",
        "What I got wrong about {t}", "Draft: {t}", "In praise of {t}", "{T} in {n} minutes", "Letters about {t}",
        "Against {t}", "The quiet joy of {t}", "{T}: a reading list", "How we think about {t}",
    ]

    private static let openings = [
        "It started with a question I could not answer.", "Most of what follows was written on a train.",
        "I have been putting this off for weeks.", "There is an old argument about this, and it is worth having again.",
        "A reader wrote to ask how I approach this.", "This began as a note to myself.",
    ]

    private static let sentences = [
        "The interesting part is rarely the first idea; it is the third revision of it.",
        "Nobody plans for the day the network disappears, and yet it always does.",
        "Good tools get out of the way, and great tools make the next step obvious.",
        "I keep coming back to a simple rule: write it down before it becomes important.",
        "Every system has a place where the data is really kept, and everything else is a copy.",
        "The constraint turned out to be the feature.",
        "We measured it twice and the numbers still surprised us.",
        "A draft is allowed to be wrong; a published piece is not allowed to be vague.",
        "It is easier to delete a paragraph than to defend it.",
        "The best conversations happened after the recording stopped.",
        "Half of editing is noticing what the text already says.",
        "There is no substitute for trying it with real people on a bad day.",
        "The map is not the territory, but a good map saves a lot of walking.",
        "Small, boring steps compound into results that look like luck.",
        "What looked like a performance problem was a design problem in disguise.",
        "Reading the source was faster than reading the documentation, this time.",
    ]

    private static let headings = [
        "Background", "What changed", "The details", "Open questions", "A small example", "Further reading", "Afterword",
    ]

    private static let listItems = [
        "write the outline first", "keep a list of sources", "read it aloud", "cut the first paragraph",
        "check every date", "ask someone who disagrees", "sleep on it", "measure before optimising",
        "name things after what they do", "leave the last step for the morning",
    ]

    private static let quotes = [
        "The first draft of anything is a beginning, not an end.",
        "Simplicity is a prerequisite for reliability.",
        "Make it work, make it right, make it fast.",
        "Writing is thinking on paper.",
    ]

    private static let codeSamples = [
        ("swift", """
            let library = try Library(url: Library.defaultURL())
            let drafts = try await library.articles(matching: ArticleQuery(filter: .all))
            print(drafts.count)
            """),
        ("sql", "SELECT title, updated\n  FROM Article\n WHERE trashed IS NULL\n ORDER BY updated DESC\n LIMIT 20;"),
        ("sh", "quire list --folder Essays --json | jq '.[].title'"),
    ]

    /// The sentences with "the third revision" in emphasis, as a section's first paragraph has them.
    private static let emphasizedSentences = sentences.map {
        $0.replacingOccurrences(of: "the third revision", with: "*the third revision*")
    }

    /// `form` with `{t}` the topic, `{T}` the topic with a capital, `{n}` the number. (Read here,
    /// not by Foundation's search and replace, which costs more than the rest of an article.)
    private static func filling(_ form: String, topic: String, number: Int) -> String {
        var title = ""
        var rest = form[...]
        while let open = rest.firstIndex(of: "{") {
            title += rest[..<open]
            let placeholder = rest[open...].prefix(3)
            switch placeholder {
            case "{t}": title += topic
            case "{T}": title += topic.prefix(1).uppercased() + topic.dropFirst()
            case "{n}": title += String(number)
            default: title += placeholder
            }
            rest = rest[placeholder.endIndex...]
        }
        return title + rest
    }

    private static func paragraph(_ random: inout SeededGenerator, of sentences: [String] = sentences) -> String {
        (0..<random.int(2...5)).map { _ in random.pick(sentences) }.joined(separator: " ")
    }

    private static func body(about topic: String, title: String, random: inout SeededGenerator) -> String {
        var blocks = ["# \(title)", random.pick(openings) + " " + paragraph(&random)]
        let sections = random.int(0...4)
        for section in 0..<sections {
            blocks.append("## " + headings[(section + random.int(0...2)) % headings.count])
            blocks.append(paragraph(&random, of: emphasizedSentences))
            switch random.int(0...7) {
            case 0:
                blocks.append((0..<random.int(2...5)).map { _ in "- " + random.pick(listItems) }.joined(separator: "\n"))
            case 1:
                blocks.append((1...random.int(2...4)).map { "\($0). " + random.pick(listItems) }.joined(separator: "\n"))
            case 2:
                let tasks = (0..<3).map { _ in (random.chance(0.5) ? "- [x] " : "- [ ] ") + random.pick(listItems) }
                blocks.append(tasks.joined(separator: "\n"))
            case 3:
                blocks.append("> " + random.pick(quotes))
            case 4:
                let (language, code) = random.pick(codeSamples)
                blocks.append("```\(language)\n\(code)\n```")
            case 5:
                blocks.append("""
                    | Week | Words | Notes |
                    |-----:|------:|:------|
                    | 1 | \(random.int(800...3000)) | started on \(topic) |
                    | 2 | \(random.int(800...3000)) | ~~rewrote~~ revised the middle |
                    """)
            case 6:
                blocks.append("See [the notes on \(topic)](https://example.org/notes/\(random.int(1...999))) and **the appendix**.")
            default:
                blocks.append(paragraph(&random))
            }
        }
        return blocks.joined(separator: "\n\n") + "\n"
    }
}

extension Library {
    /// Adds `count` demo articles (``DemoLibrary``) as ordinary local articles, each with its outbox
    /// operation, `batchSize` per save. Articles whose demo ID the library has already are skipped,
    /// so the same seed never duplicates. Returns how many were added.
    @discardableResult
    public func addDemoArticles(count: Int, seed: UInt64 = 1, batchSize: Int = 2000) async throws -> Int {
        let now = Date()
        var added = 0
        for start in stride(from: 0, to: count, by: max(1, batchSize)) {
            let articles = (start..<min(count, start + max(1, batchSize))).map { DemoLibrary.article($0, seed: seed, now: now) }
            added += try await write { context, now in
                let ids = articles.map(\.id)
                let existing = Set(try context.fetchDictionaries(
                    FetchRequest<StoredArticle>(predicate: .in(\.id, ids)), propertiesToFetch: ["id"]
                ).compactMap { $0["id"] as? UUID })
                var places = LibraryNames.Places(in: context)
                var inserted = 0
                for snapshot in articles where !existing.contains(snapshot.id) {
                    let article = StoredArticle(context: context)
                    article.id = snapshot.id
                    article.title = snapshot.title
                    article.body = snapshot.body
                    article.status = snapshot.status
                    article.isFavorite = snapshot.isFavorite
                    article.created = snapshot.created
                    article.updated = snapshot.updated
                    article.trashed = snapshot.trashed
                    article.folder = try snapshot.folder.map { try places.folder(named: $0, at: now) }
                    article.tags = RelatedObjects(try snapshot.tags.map { try places.tag(named: $0) })
                    inserted += 1
                }
                try LocalChanges.record(in: context, at: now)
                return inserted
            }
        }
        return added
    }
}
