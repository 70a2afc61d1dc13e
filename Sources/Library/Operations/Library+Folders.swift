import Foundation
import ObjectGraph

/// Folders. A folder is part of each of its articles' synced content, so renaming or deleting one
/// writes an outbox operation for every article in it, in the same save.
extension Library {
    /// Creates an empty folder.
    public func createFolder(named name: String) async throws {
        try await write { context, now in try ArticleEdits.createFolder(named: name, in: context, at: now) }
    }

    /// Renames a folder; its articles sync under the new name.
    public func renameFolder(_ name: String, to newName: String) async throws {
        try await write { context, now in
            guard let folder = try LibraryNames.folder(named: name, in: context) else { throw LibraryError.folderNotFound(name) }
            guard newName != name else { return }
            guard try LibraryNames.folder(named: newName, in: context) == nil else { throw LibraryError.folderExists(newName) }
            try LibraryNames.check(newName, kind: "folder")
            folder.name = newName
            try LocalChanges.record(in: context, at: now, alsoChanged: Array(folder.articles))
        }
    }

    /// Deletes a folder; its articles stay, in no folder. Returns the articles it held (trashed
    /// ones included), for an Undo that creates the folder again and moves them back.
    @discardableResult
    public func deleteFolder(named name: String) async throws -> [UUID] {
        try await write { context, now in try ArticleEdits.deleteFolder(named: name, in: context, at: now) }
    }
}
