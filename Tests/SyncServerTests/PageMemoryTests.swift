import Foundation
@testable import SyncServer
import SyncProtocol
import Synchronization
import Testing

/// Pages of heavy articles, read by several clients at once from a real server process: what the
/// process holds stays bounded by the page byte budget, not by the page's row limit.
@Suite(.serialized) struct PageMemoryTests {
    /// The peak resident memory of `pid` in MiB (`VmHWM`).
    static func peakMemory(_ pid: Int32) throws -> Double {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kilobytes = try #require(Double(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes / 1024
    }

    @Test func concurrentFullPagesOfFourMegabyteArticlesStayWithinTheBudget() throws {
        let database = try TestDatabase(.sqlite)
        defer { database.remove() }
        let directory: URL
        if case let .sqlite(folder) = database.location { directory = folder } else { return }
        let tokenResult = try ServerProcess.run(["account", "add", "alice", "--data", directory.path])
        let token = tokenResult.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try ServerProcess(serve: ["--data", directory.path, "--rate-limit", "off", "--page-bytes", "8388608"],
                                       logFile: database.folder.appendingPathComponent("server.log"))
        defer { _ = server.terminate() }

        // 24 articles of nearly 4 MiB: 94 MiB in all, which a page of 1000 rows would hold at once.
        let writer = LoopbackClient(port: server.port, token: token)
        let body = String(repeating: "Lorem ipsum dolor sit amet. ", count: 145_000)
        for index in 0..<24 {
            #expect(try writer.create(String(format: "article-%02d", index), ArticlePayload(title: "\(index)", body: body)).status == 201)
        }
        let before = try Self.peakMemory(server.process.processIdentifier)

        // Three readers page through the snapshot at once, each asking for 1000 rows a page.
        let pages = Mutex<[Int]>([])
        let failures = Mutex<[String]>([])
        let group = DispatchGroup()
        let port = server.port
        for _ in 0..<3 {
            group.enter()
            Thread {
                defer { group.leave() }
                let reader = LoopbackClient(port: port, token: token)
                var after: String?
                do {
                    while true {
                        let response = try reader.send("GET", SyncPath.articles + "?limit=1000" + (after.map { "&after=\($0)" } ?? ""))
                        let page = try response.decode(ArticlesPage.self)
                        pages.withLock { $0.append(page.articles.count) }
                        after = page.articles.last?.id
                        if !page.hasMore { break }
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }.start()
        }
        group.wait()
        let peak = try Self.peakMemory(server.process.processIdentifier)
        print("page budget: peak resident memory \(Int(before)) MiB after the writes, \(Int(peak)) MiB after 3 concurrent readers")

        #expect(failures.withLock { $0 }.isEmpty)
        // 8 MiB of content ends a page after the third article (two take 7.7 MiB).
        #expect(pages.withLock { $0 }.allSatisfy { $0 <= 3 })
        #expect(pages.withLock { $0 }.reduce(0, +) == 3 * 24)
        // Three pages of at most 12 MiB of content, with their copies (rows, JSON, the answer
        // libmicrohttpd sends) came to about 140 MiB; one unbounded page holds 94 MiB of content
        // before any copy, and three of them well over 700 MiB.
        #expect(peak - before < 300, "peak \(peak) MiB, \(before) MiB before the reads")
    }
}
