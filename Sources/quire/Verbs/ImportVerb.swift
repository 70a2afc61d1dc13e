import CommandLineArguments
import Foundation
import Library
import Platform
import Transfer

/// `quire import`: Markdown files, folders of them and JSON archives, as local edits.
struct ImportVerb: Verb {
    static let name = "import"
    static let summary = gettext("Import Markdown files or folders and JSON archives (created if missing)")
    static let usage = "[--library PATH] [--json] [--on-existing skip|replace|copy] PATH..."
    static let details = gettext("Reads Markdown files (front matter kept), folders of them and JSON archives (with the\nversions of an archive written with --with-history). --json prints one object: created,\nreplaced, copied, skipped, unchanged, restoredAttachments (attachments given back to\narticles the library had, lost or damaged ones included) and failures (each file or attachment\nnot imported, with why). An attachment larger than a library takes (25 MB) is left out alone:\nits article is imported with its reference. Exit status: 0 everything imported, 1 something was\nnot (the others were imported), 2 a usage error.")

    let library: LibraryOption
    let policy: ExistingArticlePolicy
    let paths: [URL]
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        emitsJSON = arguments.flag("--json")
        let policyName = try arguments.option("--on-existing") ?? "skip"
        guard let policy = ExistingArticlePolicy(rawValue: policyName) else {
            throw .invalidValue(option: "--on-existing", value: policyName, expected: gettext("skip, replace or copy"))
        }
        self.policy = policy
        var paths = [URL(fileURLWithPath: try arguments.positional("PATH"))]
        while let path = arguments.positional() { paths.append(URL(fileURLWithPath: path)) }
        self.paths = paths
    }

    func run() async throws {
        for path in paths where !FileManager.default.fileExists(atPath: path.path) {
            throw ImportVerbError.missing(path.path)
        }
        let library = try library.open(creatingIfMissing: true)
        let scan = try await ImportScan.read(paths)
        let plan = ImportPlan(scan: scan, library: try await library.importContents(for: scan), onExisting: policy)
        let result = try await library.apply(plan)
        let summary = plan.summary
        if emitsJSON {
            try VerbOutput.printJSON([
                "created": .number(summary.created), "replaced": .number(summary.replaced), "copied": .number(summary.copied),
                "skipped": .number(summary.skipped), "unchanged": .number(summary.unchanged),
                "restoredAttachments": .number(result.restoredAttachments),
                "failures": .strings(plan.failures.map(\.description)),
            ] as [String: JSONValue])
        } else {
            print(String(cFormat: gettext("Imported %1$d new, %2$d replaced, %3$d copied; %4$d skipped, %5$d unchanged"), summary.created, summary.replaced, summary.copied, summary.skipped, summary.unchanged))
            if result.restoredAttachments > 0 {
                print(String(cFormat: ngettext("Gave %d missing attachment back to an article the library had",
                                               "Gave %d missing attachments back to articles the library had", result.restoredAttachments),
                             result.restoredAttachments))
            }
        }
        for failure in plan.failures { VerbRunner.printError("quire import: \(failure)") }
        let attachments = plan.failures.filter(\.leftOutOnlyAnAttachment).count
        if !plan.failures.isEmpty { throw ImportVerbError.failures(files: plan.failures.count - attachments, attachments: attachments) }
    }
}

/// Why `quire import` failed as a whole.
enum ImportVerbError: Error, CustomStringConvertible {
    /// A path the writer named does not exist.
    case missing(String)
    /// Some files could not be imported (the others were), or some attachments were left out
    /// (their articles were imported).
    case failures(files: Int, attachments: Int)

    var description: String {
        switch self {
        case .missing(let path): return String(cFormat: gettext("%s does not exist"), path)
        case let .failures(files, attachments):
            let filesText = String(cFormat: ngettext("%d file could not be imported (the others were)", "%d files could not be imported (the others were)", files), files)
            let attachmentsText = String(cFormat: ngettext(
                "%d attachment was left out (its article was imported, with its reference)",
                "%d attachments were left out (their articles were imported, with their references)", attachments), attachments)
            switch (files, attachments) {
            case (_, 0): return filesText
            case (0, _): return attachmentsText
            default: return filesText + "; " + attachmentsText
            }
        }
    }
}
