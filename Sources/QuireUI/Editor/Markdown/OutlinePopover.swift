import GtkKit
import Library
import Platform

/// The outline of the article: its headings in a popover under the status line's Outline button,
/// indented by level, read afresh each time it opens; activating one jumps there.
@MainActor
final class OutlinePopover {
    let popover = Popover()
    let list = ListBox()
    private var headings: [MarkdownHeading] = []
    private let chosen: @MainActor (MarkdownHeading) -> Void
    private let button: MenuButton

    /// An outline that `button` opens, of the headings `read` returns then.
    init(button: MenuButton, read: @escaping @MainActor () -> [MarkdownHeading], chosen: @escaping @MainActor (MarkdownHeading) -> Void) {
        self.button = button
        self.chosen = chosen
        let scroller = ScrolledWindow(maximumHeight: 420)
        scroller.child = list
        list.setStyleClass("navigation-sidebar", on: true)
        popover.child = scroller
        button.popover = popover
        list.connect(.rowActivated) { [weak self] row in
            guard let self, let index = row?.index, headings.indices.contains(index) else { return }
            popover.popdown()
            chosen(headings[index])
        }
        popover.connect(.map) { [weak self] in self?.fill(read()) }
    }

    /// Opens the outline.
    func show() {
        button.popup()
    }

    private func fill(_ headings: [MarkdownHeading]) {
        self.headings = headings
        list.removeAll()
        if headings.isEmpty {
            let label = Label(gettext("No headings"))
            label.setStyleClass("dim-label", on: true)
            label.marginStart = 12
            label.marginEnd = 12
            list.append(label)
        }
        for heading in headings {
            let label = Label(heading.text)
            label.horizontalAlignment = 0
            label.ellipsizesAtEnd = true
            label.marginStart = 6 + 14 * (heading.level - 1)
            label.setProperty("max-width-chars", Int32(40))
            list.append(label)
        }
    }

    /// The headings listed, in order (tests read them).
    var listedHeadings: [MarkdownHeading] { headings }
}
