import Foundation
import Library
import Platform
import Transfer

/// What the writer picked in the export dialog, and what it means for the export engine: the
/// ``ExportScope``, the ``ExportFormat``, and whether the destination is a folder or a file.
///
/// Pure, so the dialog's rules (which scopes are offered, when "combined" and "sync metadata"
/// apply, the name suggested for the destination) are tested without GTK.
struct ExportChoices: Sendable, Hashable {
    /// A scope the dialog offers, in the order of its list.
    enum ScopeChoice: Sendable, Hashable {
        case selected(count: Int)
        case folder
        case drafts
        case unsynced
        case library

        /// The label in the scope list.
        var label: String {
            switch self {
            case .selected(let count): count == 1 ? gettext("Selected Article") : String(cFormat: ngettext("Selected Articles (%d)", "Selected Articles (%d)", count), count)
            case .folder: gettext("Folder")
            case .drafts: gettext("Drafts")
            case .unsynced: gettext("Unsynced Edits")
            case .library: gettext("Whole Library")
            }
        }
    }

    /// The formats, in the order of the format list.
    enum FormatChoice: Int, Sendable, Hashable, CaseIterable {
        case markdown, html, pdf, jsonArchive

        /// The label in the format list.
        var label: String {
            switch self {
            case .markdown: gettext("Markdown")
            case .html: gettext("HTML")
            case .pdf: gettext("PDF")
            case .jsonArchive: gettext("JSON Archive")
            }
        }

        /// The extension of the files the format writes, without the dot.
        var fileExtension: String {
            switch self {
            case .markdown: "md"
            case .html: "html"
            case .pdf: "pdf"
            case .jsonArchive: "json"
            }
        }

        /// Whether the format can put every article into one document.
        var canCombine: Bool { self == .html || self == .pdf }
    }

    /// The selected articles the caller passed, in their order.
    let selection: [UUID]
    /// The library's folder names, for the folder scope.
    let folders: [String]
    /// The scopes offered: the selection only when there is one, a folder only when there are folders.
    let scopes: [ScopeChoice]

    /// The picked scope.
    var scope: ScopeChoice
    /// The picked folder, for ``ScopeChoice/folder``.
    var folder: String?
    /// The picked format.
    var format = FormatChoice.markdown
    /// Whether HTML or PDF goes into one combined document.
    var isCombined = false
    /// Whether a JSON archive keeps each article's sync metadata.
    var includesSyncMetadata = true
    /// Whether HTML carries its images and files inside the pages (data URIs) instead of in an
    /// `assets` folder beside them.
    var embedsAttachments = false

    /// Choices for a library with `folders`, starting with the selection when there is one and
    /// with the whole library otherwise.
    init(selection: [UUID], folders: [String]) {
        self.selection = selection
        self.folders = folders
        var scopes: [ScopeChoice] = []
        if !selection.isEmpty { scopes.append(.selected(count: selection.count)) }
        if !folders.isEmpty { scopes.append(.folder) }
        scopes += [.drafts, .unsynced, .library]
        self.scopes = scopes
        scope = selection.isEmpty ? .library : .selected(count: selection.count)
        folder = folders.first
    }

    /// Whether the combined-document choice applies to the picked format.
    var offersCombined: Bool { format.canCombine }

    /// Whether the embedding choice applies to the picked format.
    var offersEmbedding: Bool { format == .html }

    /// Whether the export embeds attachments: the choice, where it applies.
    var embeds: Bool { offersEmbedding && embedsAttachments }

    /// Whether the sync-metadata choice applies to the picked format.
    var offersSyncMetadata: Bool { format == .jsonArchive }

    /// Whether the export writes one file per article into a folder (otherwise one file).
    var writesFolder: Bool {
        switch format {
        case .markdown: true
        case .html, .pdf: !isCombined
        case .jsonArchive: false
        }
    }

    /// The scope for the engine; nil for the folder scope without a folder.
    var exportScope: ExportScope? {
        switch scope {
        case .selected: .selected(selection)
        case .folder: folder.map(ExportScope.folder)
        case .drafts: .drafts
        case .unsynced: .unsynced
        case .library: .library
        }
    }

    /// The name of the scope as a document or file title: a combined document's heading, and the
    /// destination name the file chooser suggests.
    var title: String {
        switch scope {
        case .selected: gettext("Selected Articles")
        case .folder: folder ?? gettext("Folder")
        case .drafts: gettext("Drafts")
        case .unsynced: gettext("Unsynced Edits")
        case .library: gettext("Quire Library")
        }
    }

    /// The engine's format for Markdown, HTML and PDF; nil for a JSON archive, whose options come
    /// from the library (``Library/archiveOptions(includingSyncMetadata:)`` with ``includesSyncMetadata``).
    var documentFormat: ExportFormat? {
        let layout: ExportLayout = isCombined ? .combined(title: title) : .filePerArticle
        switch format {
        case .markdown: return .markdown
        case .html: return .html(layout)
        case .pdf: return .pdf(layout)
        case .jsonArchive: return nil
        }
    }

    /// The name the file chooser suggests: the title as a folder name, or with the format's extension.
    var suggestedName: String {
        let stem = title.replacingOccurrences(of: "/", with: "-")
        return writesFolder ? stem : stem + "." + format.fileExtension
    }
}
