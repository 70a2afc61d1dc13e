import Foundation
import GtkKit
import Library
import Platform

/// What a transfer dialog (or the editor's Insert Image…) asks the writer to pick.
struct FileRequest: Sendable, Hashable {
    /// What kind of thing is picked.
    enum Kind: Sendable, Hashable {
        /// An existing folder to export into.
        case folder
        /// A new or existing file to save, suggested under this name.
        case saveFile(suggestedName: String)
        /// Existing files to import; `fileExtensions` (without dots) filter the list.
        case openFiles(fileExtensions: [String])
        /// Existing images to put in an article.
        case openImages
    }

    /// The chooser's title.
    var title: String
    /// The label of the button that accepts the choice.
    var acceptLabel: String
    /// What is picked.
    var kind: Kind
}

/// How the transfer dialogs ask for files: through `GtkFileChooserNative` in the app (the desktop
/// portal's chooser where there is one), and with a fixed answer in tests, which cannot drive a
/// native chooser. Returns the chosen files, or an empty list when the writer cancels.
@MainActor
struct FileChooser {
    /// Asks for `request` over `parent`.
    let choose: @MainActor (FileRequest, Window) async -> [URL]

    /// The desktop's file chooser, as a modal dialog of the transfer dialog.
    static let native = FileChooser { request, parent in
        await withCheckedContinuation { continuation in
            showNativeChooser(for: request, over: parent) { continuation.resume(returning: $0) }
        }
    }

    /// Always answers `urls`: for tests.
    static func answering(_ urls: [URL]) -> FileChooser {
        FileChooser { _, _ in urls }
    }

    private static func showNativeChooser(
        for request: FileRequest, over parent: Window, chosen: @escaping @MainActor ([URL]) -> Void
    ) {
        let purpose: FileChooserNative.Purpose = switch request.kind {
        case .folder: .selectFolder
        case .saveFile: .save
        case .openFiles, .openImages: .open
        }
        let chooser = FileChooserNative(purpose, title: request.title, acceptLabel: request.acceptLabel, over: parent)
        switch request.kind {
        case .folder:
            break
        case .saveFile(let name):
            chooser.currentName = name
        case .openFiles(let extensions):
            chooser.selectsMultiple = true
            chooser.addFilter(named: gettext("Markdown Files and Quire Archives"), suffixes: extensions)
        case .openImages:
            chooser.selectsMultiple = true
            chooser.addFilter(named: gettext("Images"), suffixes: AttachmentMediaType.imageEndings)
        }
        chooser.show { paths in chosen(paths.map { URL(fileURLWithPath: $0) }) }
    }
}
