import Foundation
import Library

/// `quire empty-trash`: deletes the articles in the trash for good.
struct EmptyTrashVerb: Verb {
    static let name = "empty-trash"
    static let summary = "Delete the articles in the trash for good"
    static let usage = "[--library PATH]"

    let library: LibraryOption

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
    }

    func run() async throws {
        let result = try await library.open().emptyTrash()
        var report = "Deleted \(Self.articles(result.deleted)) for good."
        if result.kept > 0 {
            report += " Kept \(Self.articles(result.kept)) with a conflict to resolve first (quire conflicts)."
        }
        FileHandle.standardOutput.write(Data((report + "\n").utf8))
    }

    private static func articles(_ count: Int) -> String {
        count == 1 ? "1 article" : "\(count) articles"
    }
}
