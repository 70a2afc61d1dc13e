import Foundation
import Library
import ObjectGraph
import Platform
import Transfer

/// The `attachments` suite's export figure: Markdown (with its `assets/` folder), HTML (files
/// beside it, and `--embed`), PDF and JSON exports of N articles (1,000 by default) that each show
/// one image of their own (a 64 KB PNG that barely compresses, so the library keeps it in a file),
/// read from the store as `quire export` does.
///
/// The baseline, run in the same repetitions (interleaved, so that both see the same load), is
/// the floor for any export of those articles: reading each image's bytes from the library's
/// attachment folder and writing them and each article's text into plain files. Times are CPU
/// seconds of the process (user + system, `getrusage`), steadier than wall-clock time on a loaded
/// machine; each is the median of the repetitions after one warm-up.
enum AttachmentExportFigure {
    static func results(_ options: BenchmarkOptions) async throws -> [BenchmarkResult] {
        let library = try Library(url: options.workDirectory.appendingPathComponent("attachments-export.quire"))
        var bodies: [UUID: String] = [:]
        for index in 0..<options.rows {
            let article = try await library.createArticle(ArticleContent(title: "Figure \(index)", body: ""))
            let attachment = try await library.addAttachment(to: article.id, fileName: "figure-\(index).png", data: image(seed: UInt64(index)))
            let body = "# Figure \(index)\n\nAs the figure shows:\n\n\(attachment.reference.markdown(mediaType: attachment.mediaType))\n"
            try await library.editArticle(article.id, body: body)
            bodies[article.id] = body
        }
        let source = try await library.exportSource(for: .library)
        let attachmentFolder = ExternalBinaryFolder(store: library.url)
        let suffix = options.rows == 1_000 ? "1k" : "\(options.rows)"
        let formats: [(String, ExportFormat, Bool, String)] = [
            ("md", .markdown, false, ""),
            ("html", .html(.filePerArticle), false, ""),
            ("html_embed", .html(.filePerArticle), true, ""),
            ("pdf", .pdf(.filePerArticle, paper: .a4), false, ""),
            ("json", .jsonArchive(try await library.archiveOptions()), false, ".json"),
        ]
        var results: [BenchmarkResult] = []
        for (name, format, embeds, fileExtension) in formats {
            var exportSamples: [Double] = []
            var rawSamples: [Double] = []
            for run in 0...options.repetitions {
                let raw = options.workDirectory.appendingPathComponent("raw-\(run)")
                let rawSeconds = try cpuSeconds { try writeRaw(bodies, attachments: attachmentFolder, to: raw) }
                try FileManager.default.removeItem(at: raw)
                let destination = options.workDirectory.appendingPathComponent("\(name)-\(run)\(fileExtension)")
                let job = ExportJob(format: format, destination: destination, embedsAttachments: embeds)
                let start = cpuTime()
                let result = try await job.run(from: source)
                let exportSeconds = cpuTime() - start
                guard result.articleCount == options.rows, result.unavailableAttachments.isEmpty else {
                    throw BenchmarkFailure.wrongCount(result.articleCount)
                }
                try FileManager.default.removeItem(at: destination)
                if run > 0 {
                    exportSamples.append(exportSeconds)
                    rawSamples.append(rawSeconds)
                }
            }
            results.append(BenchmarkResult(
                name: "attachments_export_\(name)_\(suffix)", unit: "cpu_s", value: median(exportSamples),
                baseline: "raw_file_writes", baselineValue: median(rawSamples)))
        }
        return results
    }

    /// A PNG signature and 64 KB fixed by `seed`: an image by its first bytes, which no compression
    /// shrinks.
    private static func image(seed: UInt64) -> Data {
        var random = SeededGenerator(seed: seed + 1)
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &random) })
    }

    /// The least an export does: each article's text into a file, each image read from the
    /// attachment folder and written beside it.
    private static func writeRaw(_ bodies: [UUID: String], attachments: ExternalBinaryFolder, to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("assets"), withIntermediateDirectories: true)
        for (id, body) in bodies {
            try Data(body.utf8).write(to: folder.appendingPathComponent("\(id).md"))
            for reference in AttachmentReference.all(in: body) {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: attachments.path(of: reference.sha256)))
                try bytes.write(to: folder.appendingPathComponent("assets").appendingPathComponent(reference.fileName))
            }
        }
    }

    /// CPU seconds `body` takes.
    private static func cpuSeconds(_ body: () throws -> Void) rethrows -> Double {
        let start = cpuTime()
        try body()
        return cpuTime() - start
    }

    /// The process's CPU time so far (user + system), in seconds.
    private static func cpuTime() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}
