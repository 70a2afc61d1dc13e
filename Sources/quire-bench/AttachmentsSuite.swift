import Foundation
import Library
import Platform
import SyncClient
import SyncProtocol
import SyncServer

/// `quire-bench attachments`: images in a library and through sync. Each figure is its own
/// function below, listed in ``figures``: a new figure is a function and one line there. The
/// export figures (``AttachmentExportFigure``, in their own file) come after them.
///
/// - `insert_100_images_ms`: 100 images of 1 MB (fewer when `--rows` is below 100) added with
///   `Library.addAttachment`, one save each, into an empty library. Baseline: the same bytes
///   written as files with the same durability (temporary file, fsync, rename, fsync of the folder).
/// - `first_sync_images_mb_per_s`: megabytes per second that one `SyncWorker.synchronize()` pushes
///   from a library of `--rows` articles, each with an image of 1 MB its body refers to, to an empty
///   account of `quire-server` on loopback (HEAD, PUT of each blob, then the article). Baseline:
///   the same bytes as bare `PUT /v1/blobs/{sha256}` requests to the same server in the same run
///   (`URLSessionTransport.putBlob`, libcurl with kept-alive connections), as many at once as
///   the worker sends (`maximumInFlight`), with no HEAD and no article.
struct AttachmentsSuite: BenchmarkSuite {
    static let name = "attachments"
    static let summary = "images: adding them to a library, the first sync of a library with images, and exports of articles with images"
    /// Megabytes of images (one per article) in the first sync.
    static let defaultRows = 500
    static let imageBytes = 1024 * 1024

    /// Every figure of the suite, in the order they are reported.
    static let figures: [@Sendable (BenchmarkOptions) async throws -> BenchmarkResult] = [
        measureInsert,
        measureFirstSync,
    ]

    static func run(_ options: BenchmarkOptions) async throws -> [BenchmarkResult] {
        var results: [BenchmarkResult] = []
        for figure in figures { results.append(try await figure(options)) }
        return results + (try await AttachmentExportFigure.results(options))
    }

    /// An image-like megabyte that differs for every `index` and `salt` (not compressible, as
    /// photos are not).
    static func image(_ index: Int, salt: Int = 0) -> Data {
        var generator = SeededGenerator(seed: UInt64(index) &* 0x9E37_79B9 &+ UInt64(salt))
        var bytes = [UInt8](repeating: 0, count: imageBytes)
        bytes.withUnsafeMutableBytes { buffer in
            let words = buffer.bindMemory(to: UInt64.self)
            for position in words.indices { words[position] = generator.next() }
        }
        bytes.replaceSubrange(0..<8, with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        return Data(bytes)
    }

    // MARK: Insert

    @Sendable static func measureInsert(_ options: BenchmarkOptions) async throws -> BenchmarkResult {
        let count = min(100, options.rows)
        let images = (0..<count).map { image($0) }
        var round = 0
        let milliseconds = try await measureMilliseconds(repetitions: options.repetitions, setUp: { () throws -> (Library, UUID) in
            round += 1
            let library = try Library(url: folder("insert-\(round)", options).appendingPathComponent("library.quire"))
            let article = try await library.createArticle(ArticleContent(title: "Pictures", body: ""))
            return (library, article.id)
        }) { library, article in
            for (index, bytes) in images.enumerated() {
                try await library.addAttachment(to: article, fileName: "image-\(index).png", data: bytes)
            }
        }
        var baselineRound = 0
        let baseline = try measureMilliseconds(repetitions: options.repetitions, setUp: { () throws -> URL in
            baselineRound += 1
            let target = folder("raw-\(baselineRound)", options)
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            return target
        }) { target in
            for bytes in images {
                try DurableFile.write(bytes, to: target.appendingPathComponent(SHA256.hex(bytes)).path)
            }
        }
        return BenchmarkResult(name: "insert_100_images_ms", unit: "ms", value: milliseconds,
                               baseline: "raw_durable_files", baselineValue: baseline)
    }

    // MARK: First sync

    @Sendable static func measureFirstSync(_ options: BenchmarkOptions) async throws -> BenchmarkResult {
        let loopback = try LoopbackServer(folder: options.workDirectory.appendingPathComponent("server")) {
            $0.blobQuotaBytes = nil
        }
        defer { loopback.server.shutdown() }
        let worker = SyncWorkerConfiguration(server: loopback.url)
        var accounts = 0
        /// A transport for a new, empty account; the previous one is deleted, so the server's
        /// database does not grow with every repetition.
        func freshAccount() throws -> URLSessionTransport {
            if accounts > 0 { _ = try loopback.storage.deleteAccount(name: "account-\(accounts)") }
            accounts += 1
            return try loopback.transport(forNewAccount: "account-\(accounts)", requestTimeout: 600)
        }
        let count = options.rows
        let megabytes = Double(count * imageBytes) / 1_048_576

        var round = 0
        let milliseconds = try await measureMilliseconds(repetitions: options.repetitions, setUp: { () throws -> SyncWorker in
            if round > 0 { try? FileManager.default.removeItem(at: folder("sync-\(round)", options)) }
            round += 1
            let library = try Library(url: folder("sync-\(round)", options).appendingPathComponent("library.quire"))
            for index in 0..<count {
                let article = try await library.createArticle(ArticleContent(title: "Picture \(index)", body: ""))
                let attachment = try await library.addAttachment(to: article.id, fileName: "photo-\(index).png",
                                                                 data: image(index, salt: round))
                try await library.editArticle(article.id, body: attachment.reference.markdown(mediaType: attachment.mediaType) + "\n")
            }
            return SyncWorker(library: library, transport: try freshAccount(), configuration: worker)
        }) { syncWorker in
            let summary = try await syncWorker.synchronize()
            guard summary.pushed == count, summary.refused == 0 else {
                throw AttachmentsBenchError("the first sync pushed \(summary.pushed) of \(count) articles, refused \(summary.refused)")
            }
        }

        var baselineRound = 0
        let baselineMilliseconds = try await measureMilliseconds(repetitions: options.repetitions, setUp: { () throws -> (URLSessionTransport, salt: Int, digests: [String]) in
            baselineRound += 1
            // The worker reads each digest from the article's body and hashes nothing, so the
            // digests are made here, untimed: hashed in the block they were about a twentieth of
            // it (perf, 50 images: libcrypto 10 % of the block, the server hashing the same bytes
            // once more). The bytes are made in the block (under 1 % of it), as the worker reads
            // each from its file there.
            let salt = 1000 + baselineRound
            return (try freshAccount(), salt, (0..<count).map { SHA256.hex(image($0, salt: salt)) })
        }) { transport, salt, digests in
            // As many on the wire at once as the worker sends, each task over its own reused connection.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for lane in 0..<worker.maximumInFlight {
                    group.addTask {
                        for index in stride(from: lane, to: count, by: worker.maximumInFlight) {
                            let bytes = image(index, salt: salt)
                            guard case .success(true) = try await transport.putBlob(digests[index], bytes: bytes) else {
                                throw AttachmentsBenchError("PUT of blob \(index) was not stored")
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        return BenchmarkResult(name: "first_sync_images_mb_per_s", unit: "per_s", value: megabytes / milliseconds * 1000,
                               baseline: "bare_blob_puts", baselineValue: megabytes / baselineMilliseconds * 1000)
    }

    static func folder(_ name: String, _ options: BenchmarkOptions) -> URL {
        options.workDirectory.appendingPathComponent("attachments-\(name)")
    }
}

private struct AttachmentsBenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
