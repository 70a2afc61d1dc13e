import CRsvg
import Foundation
import ObjectGraph
import Platform
import Testing
@testable import Library
@testable import Transfer
import QuireTestSupport

/// Real images for export tests, encoded by gdk-pixbuf (GIF, which gdk-pixbuf cannot write, by hand).
enum ImageSamples {
    /// A `width` × `height` image of one colour (`rgb`, as 0xRRGGBB) in gdk-pixbuf's format `type`
    /// ("png", "jpeg", "webp"); with `noise`, random pixels instead, which barely compress (so that
    /// the library keeps the file outside its database).
    static func solid(_ type: String, width: Int32, height: Int32, rgb: UInt32, noise: Bool = false) throws -> Data {
        let pixbuf = try #require(gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, width, height))
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        gdk_pixbuf_fill(pixbuf, rgb << 8 | 0xFF)
        if noise {
            var random = SeededGenerator(seed: UInt64(rgb))
            let pixels = try #require(gdk_pixbuf_get_pixels(pixbuf))
            let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
            for row in 0..<Int(height) {
                for column in 0..<Int(width) * 3 { pixels[row * stride + column] = UInt8.random(in: 0...255, using: &random) }
            }
        }
        var buffer: UnsafeMutablePointer<gchar>?
        var size: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        let saved = gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &size, type, nil, nil, &error)
        if let error { defer { g_error_free(error) }; throw ToolFailure(description: String(cString: error.pointee.message)) }
        let bytes = try #require(buffer)
        defer { g_free(bytes) }
        #expect(saved != 0)
        return Data(bytes: bytes, count: Int(size))
    }

    /// A 1 × 1 blue GIF.
    static let gif = Data([
        0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0xFF, 0x00, 0x00, 0x00,
        0x2C, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B,
    ])

    /// An SVG of a red square, `size` pixels wide, with a script that must never run and a
    /// marker text that must never appear as markup.
    static func svg(size: Int) -> Data {
        Data("""
            <svg xmlns="http://www.w3.org/2000/svg" width="\(size)" height="\(size)">
            <script>alert("svg-script-ran")</script>
            <rect width="\(size)" height="\(size)" fill="#ff0000"/>
            </svg>
            """.utf8)
    }
}

/// Export and import of attachments: Markdown and HTML with an `assets/` folder, HTML with data
/// URIs, PDF with drawn images, the JSON archive, and an attachment whose file is damaged.
@Suite struct AttachmentTransferTests {
    /// A library with two articles: the first with a PNG, a JPEG, an SVG and a text file; the second
    /// with the same PNG (stored once in an export) and a different file also named "photo.jpg".
    private func illustrated() async throws -> (store: TemporaryLibrary, files: [String: Data]) {
        let store = try TemporaryLibrary()
        let library = store.library
        let files = [
            "chart.png": try ImageSamples.solid("png", width: 300, height: 200, rgb: 0x0000FF),
            "photo.jpg": try ImageSamples.solid("jpeg", width: 1600, height: 800, rgb: 0x00FF00),
            "logo (dark).svg": ImageSamples.svg(size: 64),
            "notes.txt": Data("plain notes\n".utf8),
            "other/photo.jpg": try ImageSamples.solid("jpeg", width: 40, height: 40, rgb: 0x808080),
        ]
        let first = try await library.createArticle(ArticleContent(title: "Figures", body: ""))
        var body = "# Figures\n\nA chart:\n\n"
        for name in ["chart.png", "photo.jpg", "logo (dark).svg", "notes.txt"] {
            let attachment = try await library.addAttachment(to: first.id, fileName: name, data: files[name]!)
            body += attachment.reference.markdown(mediaType: attachment.mediaType) + "\n\n"
        }
        try await library.editArticle(first.id, body: body + "The end.\n")
        let second = try await library.createArticle(ArticleContent(title: "More", body: ""))
        let chart = try await library.addAttachment(to: second.id, fileName: "chart.png", data: files["chart.png"]!)
        let photo = try await library.addAttachment(to: second.id, fileName: "other/photo.jpg", data: files["other/photo.jpg"]!)
        try await library.editArticle(second.id, body: "Text ![the chart](\(chart.reference.uri)) and ![](\(photo.reference.uri))\n")
        return (store, files)
    }

    /// Every article's body and its attachments' bytes, by title.
    private func contents(of library: Library) async throws -> [String: (body: String, attachments: [String: Data])] {
        var result: [String: (String, [String: Data])] = [:]
        for id in try await library.exportSource(for: .library).ids {
            let article = try await library.article(id)
            var bytes: [String: Data] = [:]
            for attachment in try await library.attachments(of: id) {
                bytes[attachment.sha256] = try await library.attachmentData(sha256: attachment.sha256, of: id)
            }
            result[article.title] = (article.body, bytes)
        }
        return result
    }

    /// A new library with everything at `url` imported.
    private func importedIntoNewLibrary(_ url: URL) async throws -> TemporaryLibrary {
        let target = try TemporaryLibrary()
        let scan = try await ImportScan.read([url])
        #expect(scan.failures.isEmpty)
        try await target.library.apply(ImportPlan(scan: scan, library: try await target.library.importContents(for: scan), onExisting: .skip))
        return target
    }

    private func sha256s(_ files: [String: Data]) -> Set<String> { Set(files.values.map(SHA256.hex)) }

    @Test func markdownExportWritesOneAssetsFolderAndImportsBackEveryByte() async throws {
        let (store, files) = try await illustrated()
        let folder = try TemporaryFolder()
        let destination = folder.appending("export")
        let result = try await store.library.export(.library, with: ExportJob(format: .markdown, destination: destination))
        #expect(result.unavailableAttachments.isEmpty)

        // One assets folder: the shared chart once, the second photo.jpg under another name.
        let assets = try FileManager.default.contentsOfDirectory(atPath: destination.appendingPathComponent("assets").path).sorted()
        #expect(assets == ["chart.png", "logo (dark).svg", "notes.txt", "photo 2.jpg", "photo.jpg"])
        for name in assets {
            let data = try Data(contentsOf: destination.appendingPathComponent("assets").appendingPathComponent(name))
            #expect(sha256s(files).contains(SHA256.hex(data)), "\(name) holds other bytes")
        }
        let markdown = try String(contentsOf: destination.appendingPathComponent("Figures.md"), encoding: .utf8)
        #expect(markdown.contains("![chart.png](assets/chart.png)"))
        #expect(markdown.contains("![logo (dark).svg](assets/logo%20%28dark%29.svg)"))
        #expect(markdown.contains("[notes.txt](assets/notes.txt)"))
        #expect(!markdown.contains("attachment:"))

        // Into a new library: the same text, the same bytes.
        let before = try await contents(of: store.library)
        let target = try await importedIntoNewLibrary(destination)
        let after = try await contents(of: target.library)
        #expect(after["Figures"]?.body == before["Figures"]?.body)
        #expect(after["Figures"]?.attachments == before["Figures"]?.attachments)
        #expect(after["More"]?.attachments == before["More"]?.attachments)
        #expect(after["More"].map { AttachmentReference.all(in: $0.body).map(\.sha256) }
            == before["More"].map { AttachmentReference.all(in: $0.body).map(\.sha256) })
    }

    @Test func markdownImportReadsOnlyFilesInsideTheFolderOfItsFile() async throws {
        let folder = try TemporaryFolder()
        let inside = folder.appending("notes")
        try FileManager.default.createDirectory(at: inside.appendingPathComponent("img"), withIntermediateDirectories: true)
        let image = try ImageSamples.solid("png", width: 4, height: 4, rgb: 0xFF0000)
        try image.write(to: inside.appendingPathComponent("img/dot.png"))
        try Data("secret".utf8).write(to: folder.appending("secret.txt"))
        try FileManager.default.createSymbolicLink(
            at: inside.appendingPathComponent("img/link.txt"), withDestinationURL: folder.appending("secret.txt"))
        // Brackets that open no link, and text before them that is not ASCII, change nothing.
        let body = "Café [draft] ]] ![dot](img/dot.png) [s](../secret.txt) [l](img/link.txt) [other](other.md) [web](https://example.org/x.png) [gone](img/none.png) ]\n"
        try Data(body.utf8).write(to: inside.appendingPathComponent("note.md"))

        let scan = try await ImportScan.read([inside])
        let imported = try #require(scan.articles.first)
        #expect(imported.attachments.map(\.sha256) == [SHA256.hex(image)])
        #expect(imported.article.body == body.replacingOccurrences(
            of: "img/dot.png", with: AttachmentReference(sha256: SHA256.hex(image), fileName: "dot.png").uri))
    }

    @Test func htmlExportWritesFilesBesideOrEmbedsThemAndKeepsSVGAnImage() async throws {
        let (store, files) = try await illustrated()
        let folder = try TemporaryFolder()

        let beside = folder.appending("html")
        try await store.library.export(.library, with: ExportJob(format: .html(.filePerArticle), destination: beside))
        let page = try String(contentsOf: beside.appendingPathComponent("Figures.html"), encoding: .utf8)
        for (name, path) in [("chart.png", "assets/chart.png"), ("logo (dark).svg", "assets/logo%20%28dark%29.svg")] {
            #expect(page.contains("<img src=\"\(path)\""), "no image for \(name)")
            let written = try Data(contentsOf: beside.appendingPathComponent(try #require(path.removingPercentEncoding)))
            #expect(SHA256.hex(written) == SHA256.hex(files[name]!))
        }
        #expect(page.contains("<a href=\"assets/notes.txt\">"))
        #expect(!page.contains("attachment:") && !page.contains("<svg"))

        let combined = folder.appending("all/Library.html")
        try FileManager.default.createDirectory(at: combined.deletingLastPathComponent(), withIntermediateDirectories: true)
        try await store.library.export(.library, with: ExportJob(format: .html(.combined(title: "All")), destination: combined))
        let all = try String(contentsOf: combined, encoding: .utf8)
        #expect(all.contains("<img src=\"assets/chart.png\""))
        #expect(FileManager.default.fileExists(atPath: folder.appending("all/assets/photo 2.jpg").path))

        let embedded = folder.appending("embedded")
        try await store.library.export(
            .library, with: ExportJob(format: .html(.filePerArticle), destination: embedded, embedsAttachments: true))
        #expect(!FileManager.default.fileExists(atPath: embedded.appendingPathComponent("assets").path))
        let embeddedPage = try String(contentsOf: embedded.appendingPathComponent("Figures.html"), encoding: .utf8)
        #expect(!embeddedPage.contains("attachment:") && !embeddedPage.contains("<svg") && !embeddedPage.contains("svg-script-ran"))
        for (name, mediaType) in [("chart.png", "image/png"), ("photo.jpg", "image/jpeg"), ("logo (dark).svg", "image/svg+xml")] {
            let prefix = "<img src=\"data:\(mediaType);base64,"
            let start = try #require(embeddedPage.range(of: prefix), "no data URI for \(name)")
            let encoded = embeddedPage[start.upperBound...].prefix { $0 != "\"" }
            #expect(SHA256.hex(try #require(Data(base64Encoded: String(encoded)))) == SHA256.hex(files[name]!))
        }
        // A link downloads its file; it never opens as a page.
        #expect(embeddedPage.contains("<a href=\"data:application/octet-stream;base64,\(files["notes.txt"]!.base64EncodedString())\">"))
    }

    @Test func jsonArchiveHoldsTheAttachmentsAndImportsThemByteForByte() async throws {
        let (store, files) = try await illustrated()
        // An attachment the text no longer refers to is still the article's, and goes with it.
        let kept = try await store.library.createArticle(ArticleContent(title: "Kept", body: "The picture left the text.\n"))
        try await store.library.addAttachment(to: kept.id, fileName: "chart.png", data: files["chart.png"]!)
        let folder = try TemporaryFolder()
        let archive = folder.appending("library.json")
        try await store.library.export(
            .library, with: ExportJob(format: .jsonArchive(try await store.library.archiveOptions()), destination: archive))

        let before = try await contents(of: store.library)
        let target = try await importedIntoNewLibrary(archive)
        let after = try await contents(of: target.library)
        #expect(Set(after.keys) == Set(before.keys))
        #expect(before["Kept"]?.attachments.count == 1)
        for (title, article) in before {
            #expect(after[title]?.body == article.body)
            #expect(after[title]?.attachments == article.attachments, "attachments of \(title)")
        }

        // An archive from before attachments still imports; one whose bytes were changed does not.
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: archive)) as? [String: Any])
        var articles = try #require(json["articles"] as? [[String: Any]])
        let withAttachments = try #require(articles.firstIndex { $0["attachments"] != nil })
        var attachments = try #require(articles[withAttachments]["attachments"] as? [[String: Any]])
        attachments[0]["data"] = Data("other bytes".utf8).base64EncodedString()
        articles[withAttachments]["attachments"] = attachments
        json["articles"] = articles
        let tampered = folder.appending("tampered.json")
        try JSONSerialization.data(withJSONObject: json).write(to: tampered)
        let tamperedScan = try await ImportScan.read([tampered])
        #expect(tamperedScan.articles.isEmpty)
        #expect(tamperedScan.failures.first?.description.contains("do not have the SHA-256 recorded with them") == true)

        json["articles"] = articles.map { article in article.filter { $0.key != "attachments" } }
        let older = folder.appending("older.json")
        try JSONSerialization.data(withJSONObject: json).write(to: older)
        let olderScan = try await ImportScan.read([older])
        #expect(olderScan.failures.isEmpty && olderScan.articles.count == 3)
        #expect(olderScan.articles.allSatisfy { $0.attachments.isEmpty })
    }

    @Test func pdfDrawsEachImageAtMostTextWidthAndNeverLargerThanItIs() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        let article = try await library.createArticle(ArticleContent(title: "Pictures", body: ""))
        var body = ""
        let images: [(String, Data)] = [
            ("small.png", try ImageSamples.solid("png", width: 200, height: 100, rgb: 0x0000FF)),
            ("wide.jpg", try ImageSamples.solid("jpeg", width: 2000, height: 1000, rgb: 0x00FF00)),
            ("tiny.gif", ImageSamples.gif),
            ("picture.webp", try ImageSamples.solid("webp", width: 120, height: 60, rgb: 0x00FFFF)),
            ("square.svg", ImageSamples.svg(size: 300)),
            ("huge.png", try ImageSamples.solid("png", width: 6000, height: 60, rgb: 0x0000FF)),
        ]
        for (name, data) in images {
            let attachment = try await library.addAttachment(to: article.id, fileName: name, data: data)
            body += "Before \(name).\n\n" + attachment.reference.markdown(mediaType: attachment.mediaType) + "\n\n"
        }
        try await library.editArticle(article.id, body: body)
        let folder = try TemporaryFolder()
        let result = try await library.export(.library, with: ExportJob(format: .pdf(.filePerArticle, paper: .a4), destination: folder.url))
        #expect(result.unavailableAttachments.isEmpty)
        let pdf = try #require(result.files.first).path
        #expect(!(try Tool.run("pdftotext", [pdf, "-"])).contains("not shown"))

        let rows = try Self.images(in: pdf)
        let byWidth = Dictionary(rows.map { ($0.width, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(Set(byWidth.keys) == [200, 2000, 1, 120, 4096], "\(rows)")
        // Kept to 4,096 pixels on its longer side, aspect kept.
        #expect(byWidth[4096]?.height == 40)
        // Drawn at their own size (96 pixels per inch), not enlarged.
        #expect(byWidth[200]?.height == 100 && byWidth[200]?.xPPI == 96 && byWidth[200]?.yPPI == 96)
        #expect(byWidth[120]?.xPPI == 96 && byWidth[1]?.xPPI == 96)
        // Scaled down to the text width, aspect kept.
        let textWidth = PaperSize.a4.width - 2 * PDFStyle().marginSide
        let expectedPPI = Int((2000 / (textWidth / 72)).rounded())
        #expect(byWidth[2000]?.height == 1000 && byWidth[2000]?.xPPI == expectedPPI && byWidth[2000]?.yPPI == expectedPPI)

        // The SVG is drawn as vectors: red on the rendered page, where no raster image is red.
        let prefix = folder.appending("page").path
        _ = try Tool.run("pdftoppm", ["-r", "24", pdf, prefix])
        var redPixels = 0
        for page in try FileManager.default.contentsOfDirectory(atPath: folder.url.path) where page.hasPrefix("page") {
            redPixels += try Self.pixels(inPPM: Data(contentsOf: folder.appending(page))) { $0 > 200 && $1 < 60 && $2 < 60 }
        }
        // 300 px at 96 ppi is 225 pt, 75 px at 24 dpi: about 5,600 red pixels.
        #expect(redPixels > 4_000, "\(redPixels) red pixels")
    }

    @Test func aDamagedAttachmentPrintsALineNamingItAndTheExportCompletes() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        let article = try await library.createArticle(ArticleContent(title: "Damaged", body: ""))
        let good = try await library.addAttachment(
            to: article.id, fileName: "good.png", data: try ImageSamples.solid("png", width: 300, height: 300, rgb: 0x0000FF))
        let bad = try await library.addAttachment(
            to: article.id, fileName: "bad.png", data: try ImageSamples.solid("png", width: 500, height: 500, rgb: 0x00FF00, noise: true))
        try await library.editArticle(article.id, body: "![good](\(good.reference.uri))\n\n![bad](\(bad.reference.uri))\n\nAfter.\n")
        let path = ExternalBinaryFolder(store: library.url).path(of: bad.sha256)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: path))

        let folder = try TemporaryFolder()
        let pdf = try await library.export(.library, with: ExportJob(format: .pdf(.filePerArticle, paper: .a4), destination: folder.appending("pdf")))
        #expect(pdf.unavailableAttachments.count == 1)
        #expect(pdf.unavailableAttachments.first?.hasPrefix("bad.png in “Damaged”: ") == true, "\(pdf.unavailableAttachments)")
        let text = try Tool.run("pdftotext", [try #require(pdf.files.first).path, "-"]).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("[image bad.png not shown:"), "\(text)")
        #expect(text.contains("After."))
        #expect(try Self.images(in: try #require(pdf.files.first).path).map(\.width) == [300])

        // Markdown keeps the reference as it was, so nothing of the text is lost.
        let markdown = folder.appending("md")
        let exported = try await library.export(.library, with: ExportJob(format: .markdown, destination: markdown))
        #expect(exported.unavailableAttachments.count == 1)
        let text2 = try String(contentsOf: markdown.appendingPathComponent("Damaged.md"), encoding: .utf8)
        #expect(text2.contains("![bad](\(bad.reference.uri))") && text2.contains("![good](assets/good.png)"))
    }

    /// The images in a PDF, as `pdfimages -list` lists them (page num type width height color comp bpc
    /// enc interp object ID x-ppi y-ppi size ratio), without soft masks.
    private static func images(in pdf: String) throws -> [(width: Int, height: Int, xPPI: Int, yPPI: Int)] {
        let lines = try Tool.run("pdfimages", ["-list", pdf]).split(separator: "\n").dropFirst(2)
        let rows: [[String]] = lines.map { $0.split(separator: " ").map(String.init) }
        return rows.filter { $0.count > 13 && $0[2] == "image" }.map { row -> (width: Int, height: Int, xPPI: Int, yPPI: Int) in
            (Int(row[3]) ?? 0, Int(row[4]) ?? 0, Int(row[12]) ?? 0, Int(row[13]) ?? 0)
        }
    }

    /// How many pixels of a binary PPM (P6, as pdftoppm writes) satisfy `test`.
    private static func pixels(inPPM data: Data, _ test: (UInt8, UInt8, UInt8) -> Bool) throws -> Int {
        // Header: "P6\n<width> <height>\n255\n".
        var newlines = 0
        var start = 0
        for (index, byte) in data.enumerated() where byte == 0x0A {
            newlines += 1
            if newlines == 3 { start = index + 1; break }
        }
        let pixels = data[start...]
        var count = 0
        var index = pixels.startIndex
        while index + 2 < pixels.endIndex {
            if test(pixels[index], pixels[index + 1], pixels[index + 2]) { count += 1 }
            index += 3
        }
        return count
    }
}
