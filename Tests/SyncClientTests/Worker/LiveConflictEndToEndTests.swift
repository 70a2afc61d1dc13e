import Foundation
import Library
import Testing
import QuireTestSupport
@testable import SyncClient

/// Issue 23 as a script meets it: two libraries and a real quire-server on loopback, each step a
/// run of the `quire` binary. An article deleted on A and edited on B is restored and edited on A;
/// whatever A decides, A's saved line is never lost, and `quire conflicts` shows A's side as the
/// article stands.
@Suite struct LiveConflictEndToEndTests {
    typealias Devices = ConflictEndToEndTests.Devices

    static let body = ConflictEndToEndTests.body
    static let laterLine = "A's line after the restore"

    /// Runs `quire` on a device's library the way a script does.
    struct Script {
        let quire: QuireCommand
        let devices: Devices

        init(_ devices: Devices) throws {
            quire = try #require(QuireCommand(), "quire is not built beside the tests")
            self.devices = devices
        }

        @discardableResult
        func run(_ device: ClientLibrary, _ arguments: [String], input: String? = nil,
                 sourceLocation: SourceLocation = #_sourceLocation) async throws -> ProgramRun {
            let run = try await quire.run(arguments, library: device.library.url, input: input)
            #expect(run.status == 0, "quire \(arguments.joined(separator: " ")): \(run.error)", sourceLocation: sourceLocation)
            return run
        }

        @discardableResult
        func sync(_ device: ClientLibrary, sourceLocation: SourceLocation = #_sourceLocation) async throws -> ProgramRun {
            try await run(device, ["sync", "--server", "http://127.0.0.1:\(devices.server.port)", "--token", devices.token],
                          sourceLocation: sourceLocation)
        }

        /// `quire conflicts --json`, parsed.
        func conflicts(_ device: ClientLibrary) async throws -> [[String: Any]] {
            let run = try await run(device, ["conflicts", "--json"])
            return try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]])
        }

        /// `quire show --json`, parsed.
        func show(_ device: ClientLibrary, _ id: String) async throws -> [String: Any] {
            let run = try await run(device, ["show", "--json", id])
            return try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        }
    }

    /// The issue's steps exactly: A trashes X; B edits X and syncs; A syncs (deleted here, edited
    /// on the server); A restores X and edits it. A had changed nothing before the trash, so the
    /// restore merges cleanly with B's edit and settles the conflict; A's edit goes on top of it
    /// and reaches B and the server.
    @Test func theIssuesStepsThroughTheCommandLine() async throws {
        let devices = try Devices()
        defer { devices.stop() }
        let script = try Script(devices)
        let x = try await devices.sharedArticle(Self.body).uuidString.lowercased()

        try await script.run(devices.a, ["trash", x])
        let byB = ConflictEndToEndTests.edit(Self.body, line: 4, to: "B's edit of line 5.")
        try await script.run(devices.b, ["edit", x, "--body-file", "-"], input: byB)
        try await script.sync(devices.b)

        let found = try await script.sync(devices.a)
        #expect(found.output.contains("1 conflict to resolve"), "\(found.output)")
        let listed = try await script.conflicts(devices.a)
        #expect(listed.count == 1)
        #expect(listed.first?["kind"] as? String == "deletedHere" && listed.first?["local"] is NSNull)

        try await script.run(devices.a, ["restore", x])
        #expect(try await script.conflicts(devices.a).isEmpty, "the restore merged cleanly with B's edit")
        #expect(try await script.show(devices.a, x)["body"] as? String == byB)
        try await script.run(devices.a, ["edit", x, "--body-file", "-"], input: byB + Self.laterLine + "\n")

        try await script.sync(devices.a)
        try await script.sync(devices.b)
        let articles = try await devices.expectConverged()
        let id = try #require(UUID(uuidString: x))
        #expect(articles[id]?.body == byB + Self.laterLine + "\n")
    }

    /// A and B changed the same line before A's trash: the restore leaves an edit conflict whose
    /// local side (`quire conflicts --json`) is the restored, then edited, article; every
    /// `quire resolve --keep` keeps A's later line somewhere both devices and the server see.
    @Test(arguments: ["mine", "theirs", "both", "merged"])
    func anEditAfterARestoreSurvivesEveryChoice(_ keep: String) async throws {
        let devices = try Devices()
        defer { devices.stop() }
        let script = try Script(devices)
        let (x, byA, byB) = try await Self.restoredIntoAnEditConflict(devices, script)
        let edited = byA + Self.laterLine + "\n"
        try await script.run(devices.a, ["edit", x, "--body-file", "-"], input: edited)

        let listed = try #require(try await script.conflicts(devices.a).first)
        #expect(listed["kind"] as? String == "editedOnBothSides")
        #expect((listed["local"] as? [String: Any])?["body"] as? String == edited, "the live article, the edit included")
        #expect(listed["keepTheirsKeepsCopy"] as? Bool == true)
        let conflictID = try #require(listed["id"] as? String)

        var arguments = ["resolve", String(conflictID.prefix(8)), "--keep", keep, "--json"]
        var input: String?
        if keep == "merged" {
            arguments += ["--merged-file", "-"]
            input = ConflictEndToEndTests.edit(edited, line: 4, to: "A's and B's line 5, together.")
        }
        let resolved = try await script.run(devices.a, arguments, input: input)
        let outcome = try #require(try JSONSerialization.jsonObject(with: Data(resolved.output.utf8)) as? [String: Any])
        #expect(outcome["conflictId"] as? String == conflictID && outcome["articleId"] as? String == x)
        #expect(outcome["kind"] as? String == "editedOnBothSides")
        let copyID = (outcome["copy"] as? [String: Any])?["id"] as? String

        try await script.sync(devices.a)
        try await script.sync(devices.b)
        let articles = try await devices.expectConverged()
        let id = try #require(UUID(uuidString: x))
        let article = try #require(articles[id])
        switch keep {
        case "mine":
            #expect(article.body == edited && copyID == nil)
        case "theirs", "both":
            #expect(article.body == byB)
            let copy = try #require(copyID.flatMap(UUID.init(uuidString:)).flatMap { articles[$0] }, "the copy's ID is in the JSON")
            #expect(copy.body == edited && copy.title == "Shared (conflicted copy)")
            #expect((outcome["summary"] as? String)?.contains("“Shared (conflicted copy)”") == true)
        default:
            #expect(article.body.contains("A's and B's line 5, together.") && article.body.contains(Self.laterLine))
        }
    }

    /// The server's side of an open conflict becomes a tombstone (B deletes the article): the
    /// conflict reads "edited here, deleted on the server" with A's live text, Keep Theirs moves
    /// that text to A's trash and Keep Mine puts it back on the server.
    @Test(arguments: ["mine", "theirs"])
    func anEditAfterARestoreSurvivesTheServerDeletingTheArticle(_ keep: String) async throws {
        let devices = try Devices()
        defer { devices.stop() }
        let script = try Script(devices)
        let (x, byA, _) = try await Self.restoredIntoAnEditConflict(devices, script)
        let edited = byA + Self.laterLine + "\n"
        try await script.run(devices.a, ["edit", x, "--body-file", "-"], input: edited)
        try await script.run(devices.b, ["trash", x])
        try await script.sync(devices.b)
        try await script.sync(devices.a)

        let listed = try #require(try await script.conflicts(devices.a).first)
        #expect(listed["kind"] as? String == "deletedOnServer" && listed["remote"] is NSNull)
        #expect((listed["local"] as? [String: Any])?["body"] as? String == edited)
        let resolved = try await script.run(devices.a, ["resolve", try #require(listed["id"] as? String), "--keep", keep])
        try await script.sync(devices.a)
        try await script.sync(devices.b)
        let articles = try await devices.expectConverged()
        let id = try #require(UUID(uuidString: x))
        if keep == "theirs" {
            #expect(resolved.output.contains("Accepted the server's deletion of “Shared”: it is in the Trash."), "\(resolved.output)")
            #expect(articles[id] == nil)
            let kept = try await script.show(devices.a, x)
            #expect(kept["body"] as? String == edited && !(kept["trashed"] is NSNull), "A's text is in A's trash")
        } else {
            #expect(articles[id]?.body == edited, "back on the server and on B")
        }
    }

    /// A script read the conflict as "deleted here" and decides Delete Anyway (`--keep mine`), but
    /// the article was restored since: mine would now send A's text over B's edit. With
    /// `--if-kind` nothing is changed and the exit status is 75; the kind it has now works.
    @Test func aDecisionAgainstAKindTheConflictNoLongerHasChangesNothing() async throws {
        let devices = try Devices()
        defer { devices.stop() }
        let script = try Script(devices)
        let (x, byA, byB) = try await Self.restoredIntoAnEditConflict(devices, script)

        let refused = try await script.quire.run(["resolve", x, "--keep", "mine", "--if-kind", "deletedHere"], library: devices.a.library.url)
        #expect(refused.status == 75, "\(refused.error)")
        #expect(refused.error.contains("was deleted here, edited on the server and is edited on both sides now"), "\(refused.error)")
        let listed = try #require(try await script.conflicts(devices.a).first, "still open")
        #expect(listed["kind"] as? String == "editedOnBothSides")
        try await script.sync(devices.a)
        #expect(try await devices.server.articles(token: devices.token).values.map(\.body) == [byB], "nothing was sent")

        try await script.run(devices.a, ["resolve", x, "--keep", "mine", "--if-kind", "editedOnBothSides"])
        try await script.sync(devices.a)
        try await script.sync(devices.b)
        #expect(try await devices.expectConverged()[try #require(UUID(uuidString: x))]?.body == byA)
    }

    /// A newer server version that makes the two sides equal needs no decision: the worker
    /// settles the open conflict as it pulls it.
    @Test func aNewerServerVersionEqualToThisDevicesSettlesTheConflict() async throws {
        let devices = try Devices()
        defer { devices.stop() }
        let id = try await devices.sharedArticle(Self.body)
        let agreed = ConflictEndToEndTests.edit(Self.body, line: 4, to: "The line both come to agree on.")
        try await devices.a.library.editArticle(id, body: ConflictEndToEndTests.edit(Self.body, line: 4, to: "A's first try."))
        try await devices.a.sync(devices.server, token: devices.token)
        try await devices.b.library.editArticle(id, body: agreed)
        try await devices.b.sync(devices.server, token: devices.token)
        #expect(try await devices.b.library.openConflicts().count == 1)

        try await devices.a.library.editArticle(id, body: agreed)
        try await devices.a.sync(devices.server, token: devices.token)
        let summary = try await devices.b.sync(devices.server, token: devices.token)
        #expect(summary.pulled.merged == 1 && summary.status.openConflicts == 0)
        #expect(try await devices.b.library.article(id).syncState == .synced)
        #expect(try await devices.expectConverged()[id]?.body == agreed)
    }

    /// A syncs the shared article; A changes line 5 and trashes it; B changes line 5 and syncs;
    /// A syncs (deleted here) and restores: an edit conflict with A's text as its local side.
    static func restoredIntoAnEditConflict(_ devices: Devices, _ script: Script) async throws -> (id: String, byA: String, byB: String) {
        let x = try await devices.sharedArticle(Self.body).uuidString.lowercased()
        let byA = ConflictEndToEndTests.edit(Self.body, line: 4, to: "A's edit of line 5.")
        let byB = ConflictEndToEndTests.edit(Self.body, line: 4, to: "B's edit of line 5.")
        try await script.run(devices.a, ["edit", x, "--body-file", "-"], input: byA)
        try await script.run(devices.a, ["trash", x])
        try await script.run(devices.b, ["edit", x, "--body-file", "-"], input: byB)
        try await script.sync(devices.b)
        try await script.sync(devices.a)
        #expect(try await script.conflicts(devices.a).first?["kind"] as? String == "deletedHere")
        try await script.run(devices.a, ["restore", x])
        let listed = try #require(try await script.conflicts(devices.a).first)
        #expect(listed["kind"] as? String == "editedOnBothSides")
        #expect((listed["local"] as? [String: Any])?["body"] as? String == byA)
        return (x, byA, byB)
    }
}
