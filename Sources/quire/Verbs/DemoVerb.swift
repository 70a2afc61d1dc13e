import CommandLineArguments
import Library
import Platform

/// `quire demo`: fills a library with realistic demo articles.
struct DemoVerb: Verb {
    static let name = "demo"
    static let summary = gettext("Add realistic demo articles to a library (created if missing)")
    static let usage = "[--library PATH] [--json] --articles N [--seed N]"
    static let details = gettext("--json prints one object: library (its path), added and present (already there).")

    let library: LibraryOption
    let count: Int
    let seed: UInt64
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        emitsJSON = arguments.flag("--json")
        guard let text = try arguments.option("--articles") else { throw .missingArgument("--articles") }
        guard let count = Int(text), count > 0, count <= 10_000_000 else {
            throw .invalidValue(option: "--articles", value: text, expected: gettext("a number from 1 to 10000000"))
        }
        self.count = count
        let seedText = try arguments.option("--seed") ?? "1"
        guard let seed = UInt64(seedText) else { throw .invalidValue(option: "--seed", value: seedText, expected: gettext("a whole number")) }
        self.seed = seed
    }

    func run() async throws {
        let library = try library.open(creatingIfMissing: true)
        let added = try await library.addDemoArticles(count: count, seed: seed)
        let present = count - added
        if emitsJSON {
            try VerbOutput.printJSON(["library": .string(library.url.path), "added": .number(added), "present": .number(present)] as [String: JSONValue])
            return
        }
        let note = present == 0 ? "" : " " + String(cFormat: ngettext("(%d was there already; --seed gives other articles)", "(%d were there already; --seed gives other articles)", present), present)
        print(String(cFormat: ngettext("Added %1$d demo article to %2$s", "Added %1$d demo articles to %2$s", added), added, library.url.path) + note)
    }
}
