import Foundation
import Testing
@testable import Library
@testable import Transfer

@Suite struct ExportScopeTests {
    @Test func scopesParseFromTheCommandLine() {
        let id = UUID()
        #expect(ExportScope(argument: "all") == .library)
        #expect(ExportScope(argument: "drafts") == .drafts)
        #expect(ExportScope(argument: "unsynced") == .unsynced)
        #expect(ExportScope(argument: "folder:Travel notes") == .folder("Travel notes"))
        #expect(ExportScope(argument: "selected:\(id.uuidString),\(id.uuidString.lowercased())") == .selected([id, id]))
        #expect(ExportScope(argument: "selected:nope") == nil)
        #expect(ExportScope(argument: "folder:") == nil)
        #expect(ExportScope(argument: "everything") == nil)
    }

    @Test func scopesSelectArticles() {
        var draft = SampleArticles.article("Draft", folder: "Travel")
        draft.syncState = .synced
        var ready = SampleArticles.article("Ready", status: .ready)
        ready.syncState = .modified
        var trashed = SampleArticles.article("Trashed", folder: "Travel")
        trashed.trashed = Date()
        let all = [draft, ready, trashed]
        #expect(all.filter(ExportScope.drafts.includes) == [draft])
        #expect(all.filter(ExportScope.unsynced.includes) == [ready])
        #expect(all.filter(ExportScope.folder("Travel").includes) == [draft])
        #expect(all.filter(ExportScope.library.includes) == [draft, ready])
        #expect(all.filter(ExportScope.selected([trashed.id]).includes) == [trashed])
    }
}
