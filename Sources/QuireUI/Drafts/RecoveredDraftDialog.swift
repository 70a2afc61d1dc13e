import Foundation
import GtkKit
import Library
import Platform

/// Offers back the writer's text of one article that was not saved when Quire stopped (a crash,
/// `kill -9`, a power cut): restore it as the article's text, or discard it. Closing the dialog
/// decides nothing: the draft is offered again on the next start.
@MainActor
final class RecoveredDraftDialog {
    /// What the writer decided.
    enum Decision: Sendable, Hashable {
        case restore
        case discard
        case later
    }

    /// The dialog's window.
    let window: MessageDialog
    private var waiting: CheckedContinuation<Decision, Never>?

    /// A dialog over `parent` for `draft`.
    init(draft: RecoveredDraft, over parent: Window?) throws {
        let builder = try Builder(resource: Quire.resourcePath + "drafts/recovered-draft-dialog.ui")
        window = try builder.object("recovered_dialog")
        window.body = Self.body(for: draft)
        window.transientFor = parent
        window.connect(.response) { [weak self] response in
            let decision: Decision = switch response {
            case "restore": .restore
            case "discard": .discard
            default: .later
            }
            self?.waiting?.resume(returning: decision)
            self?.waiting = nil
        }
    }

    /// What the dialog says about a draft: which article, when, and how much text.
    static func body(for draft: RecoveredDraft) -> String {
        let title = ConflictDialog.displayTitle(draft.title)
        let words = ArticleText.wordCount(of: draft.body)
        let time = DateFormatter.localizedString(from: draft.saved, dateStyle: .medium, timeStyle: .short)
        let typed = String(cFormat: ngettext("%d word", "%d words", words), words)
        return String(cFormat: gettext("Quire stopped before it could save your last changes to “%1$s” (%2$s, typed at %3$s). Restore them, or keep the article as it was saved?"), title, typed, time)
    }

    /// Shows the dialog and waits for the writer's answer.
    func decision() async -> Decision {
        window.present()
        return await withCheckedContinuation { waiting = $0 }
    }
}
