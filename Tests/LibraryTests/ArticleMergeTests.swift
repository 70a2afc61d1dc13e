import Foundation
import Testing
@testable import Library

@Suite struct ArticleMergeTests {
    private let base = ArticleContent(
        title: "Title", body: "one\ntwo\nthree\nfour\n", folder: "Essays", tags: ["a", "b", "c"], status: .draft,
        isFavorite: false)

    @Test func fieldsMergeOneByOne() throws {
        var mine = base
        mine.body = "ONE\ntwo\nthree\nfour\n"
        mine.tags = ["a", "c", "mine"]  // removed b, added mine
        mine.isFavorite = true
        var theirs = base
        theirs.body = "one\ntwo\nthree\nFOUR\n"
        theirs.tags = ["b", "c", "theirs"]  // removed a, added theirs
        theirs.folder = "Published"
        theirs.status = .ready
        let merge = ArticleMerge(base: base, mine: mine, theirs: theirs)
        let content = try #require(merge.mergedContent)
        #expect(content == ArticleContent(
            title: "Title", body: "ONE\ntwo\nthree\nFOUR\n", folder: "Published", tags: ["c", "mine", "theirs"],
            status: .ready, isFavorite: true))
    }

    @Test func conflictingFieldsAreListedAndResolvedByChoice() throws {
        var mine = base
        mine.title = "My title"
        mine.body = "one\nmine\nthree\nfour\n"
        mine.folder = nil
        mine.status = .published
        var theirs = base
        theirs.title = "Their title"
        theirs.body = "one\ntheirs\nthree\nfour\n"
        theirs.folder = "Archive"
        theirs.status = .ready
        theirs.tags = ["a", "b", "c", "d"]
        let merge = ArticleMerge(base: base, mine: mine, theirs: theirs)
        #expect(merge.mergedContent == nil)
        let conflicts = merge.conflicts
        #expect(conflicts.title.count == 1 && conflicts.body.count == 1 && conflicts.folder && conflicts.status)
        let resolved = merge.resolved(title: { _ in .theirs }, body: { _ in .mineThenTheirs }, folder: .mine, status: .base)
        #expect(resolved == ArticleContent(
            title: "Their title", body: "one\nmine\ntheirs\nthree\nfour\n", folder: nil, tags: ["a", "b", "c", "d"],
            status: .draft, isFavorite: false))
    }

    @Test func fieldMergeTakesTheChangedSide() {
        #expect(FieldMerge(base: 1, mine: 1, theirs: 2) == .resolved(2))
        #expect(FieldMerge(base: 1, mine: 3, theirs: 1) == .resolved(3))
        #expect(FieldMerge(base: 1, mine: 4, theirs: 4) == .resolved(4))
        #expect(FieldMerge(base: 1, mine: 3, theirs: 4) == .conflict(base: 1, mine: 3, theirs: 4))
        #expect(TagSetMerge.merge(base: ["x"], mine: ["x", "y"], theirs: ["y", "x"]) == ["x", "y"])
        #expect(TagSetMerge.merge(base: ["x", "y"], mine: [], theirs: ["x", "y", "z"]) == ["z"])
    }
}
