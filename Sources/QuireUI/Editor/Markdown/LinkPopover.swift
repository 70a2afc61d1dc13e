import Foundation
import GtkKit

/// The small popover of Ctrl+K: an address field at the caret; Return makes the link, Escape
/// or a click elsewhere closes it without a change.
@MainActor
final class LinkPopover {
    let popover = Popover()
    let entry = Entry()
    private var completion: (@MainActor (String) -> Void)?

    /// A popover attached to `view`.
    init(over view: Widget) {
        let box = Box(.vertical, spacing: 6)
        let label = Label("Link Address")
        label.horizontalAlignment = 0
        label.setStyleClass("heading", on: true)
        box.append(label)
        entry.setProperty("placeholder-text", "https://")
        entry.setProperty("width-chars", Int32(32))
        box.append(entry)
        popover.child = box
        popover.attach(to: view)
        entry.connect(.activate) { [weak self] in self?.finish() }
    }

    /// Opens the popover at `rectangle` of the view; `completion` gets the address typed.
    func ask(pointingAt rectangle: (x: Int, y: Int, width: Int, height: Int), completion: @escaping @MainActor (String) -> Void) {
        self.completion = completion
        entry.text = ""
        popover.point(at: rectangle)
        popover.popup()
        entry.grabFocus()
    }

    private func finish() {
        let url = entry.text.trimmingCharacters(in: .whitespaces)
        let completion = self.completion
        self.completion = nil
        popover.popdown()
        completion?(url)
    }
}
