import CommandLineArguments
import Foundation
import Library
import Platform

/// `quire folder add|rename|delete|list …`: the library's folders. `quire folders` is the older
/// spelling of `quire folder list`, kept for scripts.
struct FolderVerb: Verb {
    static let name = "folder"
    static let summary = gettext("Add, rename, delete or list folders")
    static let usage = "[--library PATH] [--json] add NAME | rename OLD NEW | delete NAME | list"
    static let details = [
        gettext("add NAME          Creates an empty folder.\nrename OLD NEW    Renames a folder; its articles are sent under the new name at the next\n                  'quire sync'.\ndelete NAME       Deletes a folder; its articles stay, in no folder.\nlist              Lists the folders with the number of their articles outside the trash\n                  (what 'quire folders' prints)."),
        gettext("Every subcommand prints the folders as they are then; --json prints an array of objects\nwith name and articleCount."),
    ].joined(separator: "\n\n")

    enum Change {
        case add(String)
        case rename(String, String)
        case delete(String)
    }

    let library: LibraryOption
    let change: Change?
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        emitsJSON = arguments.flag("--json")
        switch arguments.positional() {
        case "list"?: change = nil
        case "add"?: change = .add(try arguments.positional("NAME"))
        case "rename"?: change = .rename(try arguments.positional("OLD"), try arguments.positional("NEW"))
        case "delete"?: change = .delete(try arguments.positional("NAME"))
        case nil: throw .missingArgument(gettext("add, rename, delete or list"))
        case let other?: throw .invalidValue(option: "subcommand", value: other, expected: gettext("add, rename, delete or list"))
        }
    }

    func run() async throws {
        let library = try library.open(creatingIfMissing: { if case .add = change { true } else { false } }())
        switch change {
        case nil: break
        case let .add(name)?: try await library.createFolder(named: name)
        case let .rename(old, new)?: try await library.renameFolder(old, to: new)
        case let .delete(name)?: try await library.deleteFolder(named: name)
        }
        try FoldersVerb.printFolders(try await library.folders(), asJSON: emitsJSON)
    }
}
