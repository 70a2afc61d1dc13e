import CRsvg
import Foundation
import Library
import ObjectGraph
import Platform
import Transfer

/// The `attachments` suite's export figure: Markdown (with its `assets/` folder), HTML (files
/// beside it, and `--embed`), PDF and JSON exports of twice `--rows` articles (1,000 at the suite's
/// default of 500, the figure; the suite's rows are megabytes of images to sync) that each show
/// one image of their own (a 66 KB PNG of random pixels, so the library keeps it in a file),
/// read from the store as `quire export` does.
///
/// The baseline, run in the same repetitions (interleaved, so that both see the same load, and
/// first in every other one), is the least an export of the same shape does (``RawExportFiles``):
/// each article's text (from memory) and its image's bytes (read from the library's attachment
/// folder) written into the files the format makes, with the same guarantees: a file per article
/// with the image in `assets/` (Markdown, HTML), a file per article holding its image (HTML with
/// `--embed`, PDF), or one file (JSON). (Until 2026-12-03 every format was read against the first
/// shape, written through Foundation, which made JSON 0.36× and embedded HTML 0.78× of their
/// "floor".) Times are processor seconds of the process (every thread, `CLOCK_PROCESS_CPUTIME_ID`),
/// steadier than wall-clock time on a loaded machine; each is the median of the repetitions after
/// one warm-up.
enum AttachmentExportFigure {
    static func results(_ options: BenchmarkOptions) async throws -> [BenchmarkResult] {
        let articleCount = 2 * options.rows
        let library = try Library(url: options.workDirectory.appendingPathComponent("attachments-export.quire"))
        let attachmentFolder = ExternalBinaryFolder(store: library.url)
        var articles: [(body: String, image: String)] = []
        for index in 0..<articleCount {
            let article = try await library.createArticle(ArticleContent(title: "Figure \(index)", body: ""))
            let attachment = try await library.addAttachment(to: article.id, fileName: "figure-\(index).png", data: try image(seed: UInt64(index)))
            let body = "# Figure \(index)\n\nAs the figure shows:\n\n\(attachment.reference.markdown(mediaType: attachment.mediaType))\n"
            try await library.editArticle(article.id, body: body)
            articles.append((body, attachmentFolder.path(of: attachment.reference.sha256)))
        }
        let source = try await library.exportSource(for: .library)
        let suffix = articleCount == 1_000 ? "1k" : "\(articleCount)"
        let formats: [(String, ExportFormat, Bool, String, RawExportFiles.Shape)] = [
            ("md", .markdown, false, "", .filesWithAssets),
            ("html", .html(.filePerArticle), false, "", .filesWithAssets),
            ("html_embed", .html(.filePerArticle), true, "", .filesHoldingImages),
            ("pdf", .pdf(.filePerArticle, paper: .a4), false, "", .filesHoldingImages),
            ("json", .jsonArchive(try await library.archiveOptions()), false, ".json", .oneFile),
        ]
        var results: [BenchmarkResult] = []
        for (name, format, embeds, fileExtension, shape) in formats {
            let output = LatestOutput()
            let (rawTimes, exportTimes) = try await measureAlternating(
                repetitions: options.repetitions, processorTime: true,
                setUpFirst: { try output.replace(with: options.workDirectory.appendingPathComponent("raw\(fileExtension)")) },
                first: { raw in try writeRaw(articles, shape, to: raw) },
                setUpSecond: { () -> ExportJob in
                    let destination = try output.replace(with: options.workDirectory.appendingPathComponent("\(name)\(fileExtension)"))
                    return ExportJob(format: format, destination: destination, embedsAttachments: embeds)
                },
                second: { job in
                    let result = try await job.run(from: source)
                    guard result.articleCount == articleCount, result.unavailableAttachments.isEmpty else {
                        throw BenchmarkFailure.wrongCount(result.articleCount)
                    }
                })
            try output.remove()
            results.append(BenchmarkResult(
                name: "attachments_export_\(name)_\(suffix)_cpu", unit: "s", samples: exportTimes.map { $0 / 1000 },
                baseline: "raw_file_writes", baselineSamples: rawTimes.map { $0 / 1000 }))
        }
        return results
    }

    /// A real 150 × 150 PNG of random pixels fixed by `seed` (about 66 KB, which no compression
    /// shrinks, so the library keeps it in a file and the PDF decodes and draws it).
    private static func image(seed: UInt64) throws -> Data {
        guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, 150, 150), let pixels = gdk_pixbuf_get_pixels(pixbuf) else {
            throw AttachmentBenchmarkError.image("gdk-pixbuf cannot make an image")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        var random = SeededGenerator(seed: seed + 1)
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        for row in 0..<150 {
            for column in 0..<450 { pixels[row * stride + column] = UInt8.random(in: 0...255, using: &random) }
        }
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        guard gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, "png", nil, nil, nil) != 0, let buffer else {
            throw AttachmentBenchmarkError.image("gdk-pixbuf cannot write a PNG")
        }
        defer { g_free(buffer) }
        return Data(bytes: buffer, count: Int(size))
    }

    /// The least an export of `shape` does: each article's text and its image's bytes into the
    /// shape's files.
    private static func writeRaw(_ articles: [(body: String, image: String)], _ shape: RawExportFiles.Shape, to destination: URL) throws {
        let files = try RawExportFiles(shape, destination: destination)
        for (body, image) in articles {
            var body = body
            try body.withUTF8 { try files.add(text: UnsafeRawBufferPointer($0), images: [image]) }
        }
        try files.commit()
    }
}

/// Why the attachments figure could not be measured.
enum AttachmentBenchmarkError: Error, CustomStringConvertible {
    case image(String)

    var description: String {
        switch self {
        case .image(let reason): reason
        }
    }
}
