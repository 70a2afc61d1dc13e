import Foundation
import ObjectGraph
import Testing
@testable import Library
import QuireTestSupport

/// A full disk, through the fault VFS (writes fail with `SQLITE_FULL` after N writes, on any
/// machine) and, when running as root, through a small tmpfs that really fills up: writing stops,
/// the writer is told, the editor's text is held in memory and in the rescue file, and everything
/// resumes when space returns; an upgrade that runs out of space leaves the library as it was.
/// (Serialized: the fault VFS is one per process, its folder and write count shared.)
@Suite(.serialized) struct DiskFullTests {
    @Test func editsStopAndTheTextIsHeldUntilSpaceReturns() async throws {
        let folder = try TemporaryFolder()
        let fault = DiskFullFault(folder: folder.url)
        defer { fault.remove() }
        let library = try await Library.open(at: folder.appending("library.quire"), options: LibraryOpenOptions(createIfMissing: true))
        try await heldUntilSpaceReturns(library) {
            fault.failWrites(after: 0)
        } freeSpace: {
            fault.release()
        }
        #expect(fault.refusedWrites > 0)
    }

    /// The app's own changes in the view context (a kept conflict copy, a chip, a pasted image)
    /// tell the writer of a full disk as the background operations do.
    @Test @MainActor func aViewContextWriteThatMeetsAFullDiskTurnsTheConditionToDiskFull() async throws {
        let folder = try TemporaryFolder()
        let fault = DiskFullFault(folder: folder.url)
        defer { fault.remove() }
        let library = try await Library.open(at: folder.appending("library.quire"), options: LibraryOpenOptions(createIfMissing: true))
        fault.failWrites(after: 0)
        #expect(throws: StoreError.self) { try library.createArticleInViewContext(ArticleContent(title: "Kept", body: "")) }
        guard case .diskFull = library.condition else {
            Issue.record("the condition is \(library.condition)")
            return
        }
        fault.release()
        #expect(library.checkSpaceAgain() == .writable)
        #expect(try !library.createArticleInViewContext(ArticleContent(title: "Kept", body: "")).isTemporaryID)
    }

    @Test(.enabled(if: ScratchMount.isAvailable)) func aRealFullDiskHoldsTheTextUntilSpaceReturns() async throws {
        let mount = try ScratchMount(megabytes: 48)
        defer { mount.unmount() }
        let library = try await Library.open(at: mount.url.appendingPathComponent("library.quire"), options: LibraryOpenOptions(createIfMissing: true))
        let filler = mount.url.appendingPathComponent("filler")
        try await heldUntilSpaceReturns(library) {
            try Self.fill(filler)
        } freeSpace: {
            try FileManager.default.removeItem(at: filler)
        }
    }

    /// The common story: an article, the disk fills, an edit fails as `diskFull`, typing goes to
    /// the rescue file and stays in memory, space returns, the held text is saved as the draft.
    private func heldUntilSpaceReturns(
        _ library: Library, fillDisk: () throws -> Void, freeSpace: () throws -> Void
    ) async throws {
        let article = try await library.createArticle(ArticleContent(title: "Draft", body: "before the disk filled\n"))
        let recorder = DraftRecorder(library: library, interval: .milliseconds(1))
        try fillDisk()

        await #expect { try await library.editArticle(article.id, body: "an edit that cannot be saved") } throws: { error in
            let problem = LibraryProblem.classify(error, path: library.url.path)
            if case .diskFull = problem.kind { return problem.remedies == [.freeSpace] }
            return false
        }
        guard case .diskFull = library.condition else {
            Issue.record("the condition is \(library.condition)")
            return
        }
        let typed = "typed while the disk was full\n" + String(repeating: "more words ", count: 2000)
        await recorder.record(articleID: article.id, title: "Draft, retitled", body: typed)
        await #expect(throws: LibraryProblem.self) { try await recorder.flush() }
        #expect(await recorder.heldDrafts.map(\.body) == [typed])
        #expect(try library.draftRescueFile.read().map(\.body) == [typed])
        // Reading goes on.
        #expect(try await library.article(article.id).body == "before the disk filled\n")

        try freeSpace()
        #expect(library.checkSpaceAgain() == .writable)
        try await recorder.flush()
        #expect(await recorder.heldDrafts.isEmpty)
        #expect(try library.draftRescueFile.read().isEmpty)
        let drafts = try await library.unrecoveredDrafts()
        #expect(drafts.map(\.body) == [typed] && drafts.map(\.title) == ["Draft, retitled"])
        #expect(try await library.editArticle(article.id, body: typed).body == typed)
    }

    /// Writes zeros to `url` until the disk is full.
    private static func fill(_ url: URL) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        let chunk = Data(count: 1 << 20)
        while (try? handle.write(contentsOf: chunk)) != nil {}
        // The last partial chunk, a page at a time.
        while (try? handle.write(contentsOf: Data(count: 4096))) != nil {}
    }

    /// A rescue file whose space the disk had no room for when the recorder started gets it once
    /// the disk has room again: after the next draft the store takes.
    @Test(.enabled(if: ScratchMount.isAvailable)) func theRescueFilesSpaceIsSetAsideOnceTheDiskHasRoomAgain() async throws {
        let mount = try ScratchMount(megabytes: 16)
        let library = try await Library.open(at: mount.url.appendingPathComponent("library.quire"), options: LibraryOpenOptions(createIfMissing: true))
        let article = try await library.createArticle(ArticleContent(title: "Draft", body: ""))
        let rescue = DraftRescueFile(url: mount.url.appendingPathComponent("library.quire.rescue"), slotSize: 1 << 20)
        let filler = mount.url.appendingPathComponent("filler")
        try Self.fill(filler)
        // Room for a draft in the store, not for the rescue file's 2 MB.
        let handle = try FileHandle(forWritingTo: filler)
        try handle.truncate(atOffset: try handle.seekToEnd() - (1 << 20))
        try handle.close()
        let recorder = DraftRecorder(library: library, interval: .milliseconds(1), rescue: rescue)
        await #expect { try await recorder.flush() } throws: { error in
            guard let failure = error as? DraftRecorderFailure, case .spaceNotReserved? = failure.error as? DraftRescueError else { return false }
            return failure.step == .reservingRescueSpace
        }
        #expect(Self.size(of: rescue.url) < 2 << 20)

        try FileManager.default.removeItem(at: filler)
        await recorder.record(articleID: article.id, title: "Draft", body: "typed once there was room")
        // The draft's write runs on a task of the recorder's own.
        #expect(await eventually { Self.size(of: rescue.url) == 2 << 20 })
        try await recorder.flush()
    }

    /// Each failure of the recorder's own work says which step failed: setting aside the rescue
    /// file's space, saving a recovery copy, writing the rescue file, removing a recovery copy.
    @Test func theRecordersFailuresNameTheStepThatFailed() async throws {
        let folder = try TemporaryFolder()
        let fault = DiskFullFault(folder: folder.url)
        defer { fault.remove() }
        let library = try await Library.open(at: folder.appending("library.quire"), options: LibraryOpenOptions(createIfMissing: true))
        let article = try await library.createArticle(ArticleContent(title: "Draft", body: ""))
        // A rescue file that cannot be made: its folder does not exist.
        let rescue = DraftRescueFile(url: folder.appending("missing/library.quire.rescue"))
        let recorder = DraftRecorder(library: library, interval: .milliseconds(1), rescue: rescue)
        #expect(try await Self.nextFailure(of: recorder)?.step == .reservingRescueSpace)

        // The text of an article the store no longer has (deleted elsewhere while it was typed).
        await recorder.record(articleID: UUID(), title: "Gone", body: "typed into a deleted article")
        let unsaved = try await Self.nextFailure(of: recorder)
        #expect(unsaved?.step == .savingRecoveryCopy)
        #expect((unsaved?.error as? LibraryError) != nil)

        // The disk fills: the text is held, and the rescue file cannot take it; nor can the store
        // remove the article's recovery copy saved before.
        try await library.saveDraft(for: article.id, title: "Draft", body: "typed before the disk filled")
        fault.failWrites(after: 0)
        await recorder.record(articleID: article.id, title: "Draft", body: "typed on a full disk")
        #expect(try await Self.nextFailure(of: recorder)?.step == .writingRescueFile)
        await #expect { try await recorder.finish(articleID: article.id) } throws: { error in
            (error as? DraftRecorderFailure)?.step == .removingRecoveryCopy
        }
    }

    /// The recorder's next failure of its own, asked for until it comes (its writes run on tasks
    /// of their own); nil if none comes.
    private static func nextFailure(of recorder: DraftRecorder) async throws -> DraftRecorderFailure? {
        for _ in 0..<500 {
            do {
                try await recorder.flush()
            } catch let failure as DraftRecorderFailure {
                return failure
            } catch {
                // Texts held for want of space (a LibraryProblem): not a failure of the recorder's.
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    private static func size(of url: URL) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    }

    @Test func textLeftInTheRescueFileComesBackOnTheNextStart() async throws {
        let folder = try TemporaryFolder()
        let url = folder.appending("library.quire")
        let library = try await Library.open(at: url, options: LibraryOpenOptions(createIfMissing: true))
        let kept = try await library.createArticle(ArticleContent(title: "Kept", body: "saved"))
        let gone = UUID()
        // What a recorder left when the app was killed while the disk was full.
        try library.draftRescueFile.prepare()
        try library.draftRescueFile.write([
            RescuedDraft(articleID: kept.id, title: "Kept", body: "saved, and typed on a full disk", saved: Date()),
            RescuedDraft(articleID: gone, title: "", body: "typed into an article deleted elsewhere", saved: Date()),
        ])
        let restarted = try await Library.open(at: url)
        #expect(try await restarted.adoptRescuedDrafts() == 2)
        #expect(try restarted.draftRescueFile.read().isEmpty)
        #expect(try await restarted.unrecoveredDrafts().map(\.body) == ["saved, and typed on a full disk"])
        #expect(try await restarted.articles(matching: ArticleQuery(searchText: "deleted elsewhere")).map(\.title) == ["Rescued draft"])
    }

    @Test func aRescueFileTornByACrashKeepsItsPreviousText() throws {
        let folder = try TemporaryFolder()
        let file = DraftRescueFile(url: folder.appending("library.quire.rescue"), slotSize: 4096)
        try file.prepare()
        let first = [RescuedDraft(articleID: UUID(), title: "One", body: "first", saved: Date(timeIntervalSince1970: 1))]
        let second = [RescuedDraft(articleID: UUID(), title: "Two", body: "second", saved: Date(timeIntervalSince1970: 2))]
        try file.write(first)
        try file.write(second)
        #expect(try file.read() == second)
        // A crash half-way through the next write (into the first slot) leaves the second text.
        let handle = try FileHandle(forUpdating: file.url)
        try handle.seek(toOffset: 50)
        try handle.write(contentsOf: Data("torn".utf8))
        try handle.close()
        #expect(try file.read() == second)
        #expect(throws: DraftRescueError.self) {
            try file.write([RescuedDraft(articleID: UUID(), title: "", body: String(repeating: "x", count: 5000), saved: Date())])
        }
        #expect(try file.read() == second)
    }

    @Test func anUpgradeThatRunsOutOfSpaceLeavesTheLibraryAsItWas() async throws {
        // How many writes a whole upgrade of the fixture takes, to fail it at points along the way.
        let total: Int
        do {
            let folder = try TemporaryFolder()
            let fault = DiskFullFault(folder: folder.url)
            defer { fault.remove() }
            let before = DiskFullFault.writes
            _ = try await Library.open(at: try LibraryFixtures.copy(LibraryFixtures.v1, into: folder))
            total = DiskFullFault.writes - before
        }
        #expect(total > 100)
        for limit in [0, total / 5, total / 2, total * 4 / 5, total - 1] {
            let folder = try TemporaryFolder()
            let fault = DiskFullFault(folder: folder.url)
            defer { fault.remove() }
            let url = try LibraryFixtures.copy(LibraryFixtures.v1, into: folder)
            let before = try Data(contentsOf: url)
            fault.failWrites(after: limit)
            await #expect { _ = try await Library.open(at: url) } throws: { error in
                (error as? LibraryProblem)?.code == "disk-full"
            }
            // Untouched, or (when only the first open after the swap failed) upgraded whole.
            if try PersistentStore.metadata(at: url)?.schema.checksum == LibrarySchema.v1.checksum {
                #expect(try Data(contentsOf: url) == before, "after \(limit) writes")
            } else {
                #expect(LibraryCheck.run(url).classification == .ok, "after \(limit) writes")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".") }.isEmpty)
            fault.release()
            let library = try await Library.open(at: url)
            #expect(library.container.persistentStore.metadata.schema.checksum == LibrarySchema.current.checksum)
            let dump = try StoreDump(url, schema: LibrarySchema.current).restricted(to: LibrarySchema.v1)
            #expect(dump == (try StoreDump(LibraryFixtures.copy(LibraryFixtures.v1, into: folder, name: "fixture.quire"), schema: LibrarySchema.v1)))
        }
    }

    @Test(.enabled(if: ScratchMount.isAvailable)) func anUpgradeWithoutRoomIsRefusedBeforeItStarts() async throws {
        let mount = try ScratchMount(megabytes: 9)
        defer { mount.unmount() }
        let url = mount.url.appendingPathComponent("library.quire")
        try FileManager.default.copyItem(at: LibraryFixtures.v1, to: url)
        let before = try Data(contentsOf: url)
        await #expect { _ = try await Library.open(at: url) } throws: { error in
            guard case .notEnoughSpaceToUpgrade(let required, let available)? = (error as? LibraryProblem)?.kind else { return false }
            return available < required
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: mount.url.path).filter { !$0.hasPrefix("library.quire") }.isEmpty)
    }
}
