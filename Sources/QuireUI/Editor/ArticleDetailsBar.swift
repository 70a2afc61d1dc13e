import GtkKit
import SyncProtocol

/// The row above the open article's title: its tags as chips with the tag entry
/// (``TagChips``) and its status (``StatusDropDown``). It shows what the host gives it and tells
/// the host what the writer changed; it never writes to the library.
@MainActor
final class ArticleDetailsBar {
    /// The row.
    let widget = Box(.horizontal, spacing: 12)
    /// The tags and the tag entry.
    let tagChips = TagChips()
    /// The status.
    let status = StatusDropDown()

    init() {
        widget.setStyleClass("quire-article-details", on: true)
        widget.marginStart = 12
        widget.marginEnd = 12
        widget.setProperty("margin-top", Int32(6))
        widget.setProperty("margin-bottom", Int32(6))
        tagChips.widget.expandsHorizontally = true
        widget.append(tagChips.widget)
        status.dropDown.centersVertically = true
        widget.append(status.dropDown)
    }

    /// Shows an article's tags and status; `known` is every tag of the library (the entry's
    /// completion), `isEditable` false for a read-only library or an article in the Trash.
    func show(tags: [String], status: ArticleStatus, known: [String], isEditable: Bool) {
        tagChips.show(tags: tags, known: known)
        tagChips.isEditable = isEditable
        self.status.show(status)
        self.status.dropDown.isSensitive = isEditable
    }
}
