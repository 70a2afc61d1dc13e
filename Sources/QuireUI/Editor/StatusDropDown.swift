import GtkKit
import Platform
import SyncProtocol

extension ArticleStatus {
    /// The status as the writer reads it (the editor's drop-down, the list's rows, the sidebar).
    var title: String {
        switch self {
        case .draft: gettext("Draft")
        case .ready: gettext("Ready")
        case .published: gettext("Published")
        }
    }
}

/// The open article's status as a drop-down (Draft, Ready, Published). Showing a status calls
/// nothing; the writer's choice calls ``statusChosen``, and the host saves it.
@MainActor
final class StatusDropDown {
    /// The drop-down.
    let dropDown = DropDown(choices: ArticleStatus.allCases.map(\.title))
    /// Called when the writer chooses another status.
    var statusChosen: (@MainActor (ArticleStatus) -> Void)?
    private var isShowing = false

    init() {
        dropDown.tooltipText = gettext("Status")
        dropDown.setAccessibleLabel(dropDown.tooltipText ?? "")
        dropDown.connect(.notify("selected")) { [weak self] _ in
            guard let self, !isShowing else { return }
            statusChosen?(status)
        }
    }

    /// The status shown.
    var status: ArticleStatus {
        let all = ArticleStatus.allCases
        return all.indices.contains(dropDown.selectedIndex) ? all[dropDown.selectedIndex] : .draft
    }

    /// Shows `status` without calling ``statusChosen``.
    func show(_ status: ArticleStatus) {
        isShowing = true
        defer { isShowing = false }
        dropDown.selectedIndex = ArticleStatus.allCases.firstIndex(of: status) ?? 0
    }

    /// Chooses `status` as the writer would (tests, keyboard).
    func choose(_ status: ArticleStatus) {
        dropDown.selectedIndex = ArticleStatus.allCases.firstIndex(of: status) ?? 0
    }
}
