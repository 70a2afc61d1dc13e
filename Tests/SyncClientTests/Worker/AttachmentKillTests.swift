import Foundation
import Glibc
import Library
import Platform
import SyncProtocol
import SyncTestSupport
import Testing
@testable import SyncClient

/// `quire sync` killed with SIGKILL after its k-th request, for every k through the uploads of
/// three articles with images (HEAD, PUT of each blob, PUT of each article): each restart sends
/// what is left, no article ever reaches the server before its blob, and in the end the server and
/// a second device hold every image with identical bytes.
@Suite(.serialized) struct AttachmentKillTests {
    @Test(.timeLimit(.minutes(3)))
    func everyKillDuringTheUploadsEndsWithEveryImageOnTheServer() async throws {
        let server = try TestServer()
        let proxy = try FaultProxy(upstreamPort: server.port)
        defer { proxy.stop(); server.stop() }
        let token = try server.addAccount()
        let a = try ClientLibrary("attach-killed-a")
        let b = try ClientLibrary("attach-killed-b")
        defer { a.remove(); b.remove() }
        var images: [UUID: (AttachmentReference, Data)] = [:]
        for index in 0..<3 {
            let bytes = AttachmentSyncTests.image(700_000 + index * 1000, seed: UInt8(index + 20))
            let (article, reference) = try await AttachmentSyncTests.articleWithImage(on: a, bytes, name: "image \(index).png")
            images[article] = (reference, bytes)
        }
        // A slow link keeps each request on the wire long enough for the kill to land inside it.
        proxy.randomize(seed: 1, rate: 1, faults: [.delay(0.15)])

        var kills = 0
        // Syncs that ended on their own before their kill, unfinished, with their exit status and
        // standard error: that kill point is tried again (at most a few times), so that a sync
        // refused for a moment (the full suite loads the machine) does not leave the sweep without
        // its kills. Why they end is not known yet (never seen outside the full suite): each is
        // printed, so that the next full run says.
        var endedEarly: [String] = []
        var k = 1
        while k <= 9 && endedEarly.count < 6 {
            let point = k
            let before = proxy.log.count
            let errorsFile = a.folder.appending(path: "sync-\(point)-\(endedEarly.count).err")
            _ = FileManager.default.createFile(atPath: errorsFile.path, contents: nil)
            let errors = try FileHandle(forWritingTo: errorsFile)
            defer { try? errors.close() }
            // A generous timeout: under load a slow request must not end the run before its kill.
            let sync = try KilledSyncTests.startSync(a, port: proxy.port, token: token, timeout: 20, errors: errors)
            while sync.isRunning && proxy.log.count < before + point { try await Task.sleep(for: .milliseconds(5)) }
            if sync.isRunning {
                kill(sync.processIdentifier, SIGKILL)
                kills += 1
                k += 1
            }
            sync.waitUntilExit()
            if sync.terminationReason == .exit {
                if sync.terminationStatus == 0 {
                    k += 1
                } else {
                    let said = (try? String(contentsOf: errorsFile, encoding: .utf8)) ?? ""
                    let early = "status \(sync.terminationStatus) after \(proxy.log.count - before) of \(point) requests: \(said)"
                    endedEarly.append(early)
                    print("AttachmentKillTests: quire sync ended before its kill, \(early)")
                }
            }
            // Whatever the kill interrupted, an article on the server has its blob there.
            for (article, (reference, _)) in images where try await server.articles(token: token)[article] != nil {
                #expect(try await server.transport(token: token).hasBlob(reference.sha256) == .success(Int64(images[article]!.1.count)),
                        "after the kill at request \(point), article \(article) is on the server without its image")
            }
        }
        #expect(kills >= 3, "syncs that ended before their kill exited with \(endedEarly)")

        proxy.randomize(seed: 1, rate: 0, faults: [])
        var finished = false
        for _ in 0..<5 where !finished {
            let sync = try KilledSyncTests.startSync(a, port: proxy.port, token: token)
            sync.waitUntilExit()
            let waiting = try await a.waitingOperations()
            finished = sync.terminationStatus == 0 && waiting == 0
        }
        #expect(finished)
        try await b.sync(server, token: token)
        for (article, (reference, bytes)) in images {
            #expect(try await server.transport(token: token).blob(reference.sha256) == .success(bytes))
            let downloaded = try await b.library.attachmentData(sha256: reference.sha256, of: article)
            #expect(downloaded.map(SHA256.hex) == SHA256.hex(bytes))
        }
    }
}
