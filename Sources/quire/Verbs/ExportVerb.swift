import CommandLineArguments
import Foundation
import Library
import Platform
import SyncClient
import Transfer

/// `quire export`: articles to Markdown, HTML, PDF or a JSON archive.
struct ExportVerb: Verb {
    static let name = "export"
    static let summary = gettext("Export articles as Markdown, HTML, PDF or a JSON archive")
    static let usage = """
        [--library PATH] --format md|html|pdf|json [--scope selected:ID,...|folder:NAME|drafts|unsynced|all] \
        [--combined] [--embed] [--with-history] --out PATH [--force] [--json]
        """
    static let details = [
        gettext("--json prints one object: articles (how many were exported) and destination."),
        gettext("--with-history (json only) writes each article's earlier versions ('quire history ID') into\nthe archive, which 'quire import' brings back into the history of the article it imports."),
        gettext("Attachments go with the articles: md and html write them into an assets folder beside the\nfiles, with relative references (html --embed puts them into the pages as data URIs instead),\npdf draws the images, json holds their bytes. One that cannot be read is named on standard\nerror and in --json's unavailableAttachments; the export still completes."),
        gettext("When the library has a sync account ('quire account set'), attachments the articles refer to\nthat the library lacks (a sync left them to download on first use) are downloaded from the\nserver first, their SHA-256 checked, and kept in the library. Those the server does not have,\nor all of them while it cannot be reached, are named as above, with why."),
        gettext("Exit status: 0 the export was written (even with attachments named as unavailable), 1 it\nwas not (the message says why; the destination is left as it was), 2 a usage error."),
    ].joined(separator: "\n\n")

    /// The formats by the name the command line gives them.
    enum Format: String, CaseIterable {
        case md, html, pdf, json
    }

    let library: LibraryOption
    let format: Format
    let scope: ExportScope
    let isCombined: Bool
    /// Whether HTML pages hold their attachments as data URIs.
    let embedsAttachments: Bool
    /// Whether a JSON archive holds each article's version history.
    let includesHistory: Bool
    let destination: URL
    let overwrites: Bool
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        guard let formatName = try arguments.option("--format") else { throw .missingArgument("--format") }
        guard let format = Format(rawValue: formatName) else {
            throw .invalidValue(option: "--format", value: formatName, expected: gettext("md, html, pdf or json"))
        }
        self.format = format
        let scopeText = try arguments.option("--scope") ?? "all"
        guard let scope = ExportScope(argument: scopeText) else {
            throw .invalidValue(option: "--scope", value: scopeText, expected: gettext("selected:ID,..., folder:NAME, drafts, unsynced or all"))
        }
        self.scope = scope
        isCombined = arguments.flag("--combined")
        includesHistory = arguments.flag("--with-history")
        embedsAttachments = arguments.flag("--embed")
        if embedsAttachments && format != .html {
            throw .invalidValue(option: "--format", value: format.rawValue, expected: gettext("html, which --embed needs"))
        }
        if includesHistory && format != .json {
            throw .invalidValue(option: "--format", value: format.rawValue, expected: gettext("json, which --with-history needs"))
        }
        if isCombined && (format == .md || format == .json) {
            throw .invalidValue(option: "--format", value: format.rawValue, expected: gettext("html or pdf, which --combined needs"))
        }
        guard let out = try arguments.option("--out") else { throw .missingArgument("--out") }
        guard !out.isEmpty else { throw .invalidValue(option: "--out", value: out, expected: gettext("a path")) }
        destination = URL(fileURLWithPath: out)
        overwrites = arguments.flag("--force")
        emitsJSON = arguments.flag("--json")
    }

    func run() async throws {
        let library = try library.open()
        let layout: ExportLayout = isCombined ? .combined(title: title) : .filePerArticle
        let exportFormat: ExportFormat
        switch format {
        case .md: exportFormat = .markdown
        case .html: exportFormat = .html(layout)
        case .pdf: exportFormat = .pdf(layout)
        case .json: exportFormat = .jsonArchive(try await library.archiveOptions())
        }
        let job = ExportJob(
            format: exportFormat, destination: destination, overwritesExisting: overwrites, embedsAttachments: embedsAttachments)
        var source = try await library.exportSource(for: scope, includingHistory: includesHistory)
        source.unheldProblems = await Self.fetchMissingAttachments(of: source.ids, in: library)
        let result: ExportResult
        do {
            result = try await job.run(from: source, progress: VerbOutput.progress(gettext("Exporting")))
        } catch ExportError.destinationExists(let path) {
            throw ExportVerbError.destinationExists(path)
        }
        for problem in result.unavailableAttachments {
            VerbOutput.note(String(cFormat: gettext("Not exported: %s"), problem))
        }
        if emitsJSON {
            return try VerbOutput.printJSON([
                "articles": .number(result.articleCount), "destination": .string(destination.standardizedFileURL.path),
                "unavailableAttachments": .strings(result.unavailableAttachments),
            ] as [String: JSONValue])
        }
        print(String(cFormat: ngettext("Exported %1$d article to %2$s", "Exported %1$d articles to %2$s", result.articleCount), result.articleCount, destination.standardizedFileURL.path))
    }

    /// Downloads, through a sync worker, what the articles refer to that no article of the library
    /// holds, when the library has a sync account (``SyncWorker/fetchMissingAttachments(in:progress:)``:
    /// hash-checked and stored as attachments, so the export reads them as any other). Answers why
    /// each of the others cannot be had, by SHA-256, for the export to say; bytes the library
    /// could not store are among those, with the library's reason. Without an account nothing is
    /// asked; an account that cannot be used is said on standard error, and the export goes on
    /// with what the library holds.
    private static func fetchMissingAttachments(of articleIDs: [UUID], in library: Library) async -> [String: String] {
        do {
            guard let account = try AccountSettings(libraryURL: library.url).load()?.account else { return [:] }
            try account.check()
            let worker = SyncWorker(library: library, account: account, requestTimeout: 30)
            let unavailable = try await worker.fetchMissingAttachments(in: articleIDs)
            return Dictionary(
                unavailable.compactMap { found in
                    problem(found.fetch, libraryPath: library.url.path).map { (found.missing.reference.sha256, $0) }
                },
                uniquingKeysWith: { first, _ in first })
        } catch {
            VerbOutput.note(String(cFormat: gettext("Attachments the library lacks were not asked of the sync server: %s"), VerbRunner.describe(error)))
            return [:]
        }
    }

    /// Why the export cannot have an attachment, as its line about the file says it: the server's
    /// answer (``AttachmentFetch/problem``), or the library's failure to store the bytes it sent
    /// (or to read whether it holds them).
    private static func problem(_ answer: Result<AttachmentFetch, any Error>, libraryPath: String) -> String? {
        switch answer {
        case .success(let fetch):
            fetch.problem
        case .failure(let error):
            // One line per file: the description's own lines (its details, a hint) joined.
            String(cFormat: gettext("the library could not read or store these bytes: %s"),
                   VerbRunner.describe(error, libraryPath: libraryPath).split(separator: "\n").joined(separator: " "))
        }
    }

    /// The heading of a combined document.
    private var title: String {
        switch scope {
        case .selected: gettext("Selected articles")
        case .folder(let name): name
        case .drafts: gettext("Drafts")
        case .unsynced: gettext("Unsynced articles")
        case .library: gettext("Library")
        }
    }
}

/// Why `quire export` stopped, in the command line's words.
enum ExportVerbError: Error, CustomStringConvertible {
    /// A file the export would write exists and `--force` was not given.
    case destinationExists(String)

    var description: String {
        switch self {
        case .destinationExists(let path): String(cFormat: gettext("%s already exists (add --force to replace it)"), path)
        }
    }
}
