import Foundation
import GtkKit
import Platform

/// The small popover of Ctrl+K and of the status line's link button: an address field; Return
/// makes the link of the selection, Escape or a click elsewhere closes it without a change.
@MainActor
final class LinkPopover {
    let popover = Popover()
    let entry = Entry()
    private var completion: (@MainActor (String) -> Void)?
    private let button: MenuButton

    /// The popover of `button`; `prepare` runs whenever it opens and returns what to do with the
    /// address typed.
    init(button: MenuButton, prepare: @escaping @MainActor () -> (@MainActor (String) -> Void)?) {
        self.button = button
        let box = Box(.vertical, spacing: 6)
        let label = Label(gettext("Link Address"))
        label.horizontalAlignment = 0
        label.setStyleClass("heading", on: true)
        box.append(label)
        entry.setProperty("placeholder-text", "https://")
        entry.setProperty("width-chars", Int32(32))
        entry.setAccessibleLabel(label.text)
        box.append(entry)
        popover.child = box
        button.popover = popover
        entry.connect(.activate) { [weak self] in self?.finish() }
        popover.connect(.map) { [weak self] in
            guard let self else { return }
            completion = prepare()
            entry.text = ""
            entry.grabFocus()
            if completion == nil { popover.popdown() }
        }
    }

    /// Opens the popover.
    func ask() {
        button.popup()
    }

    private func finish() {
        let url = entry.text.trimmingCharacters(in: .whitespaces)
        let completion = self.completion
        self.completion = nil
        popover.popdown()
        completion?(url)
    }
}
