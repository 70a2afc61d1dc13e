import GtkKit
import Platform

/// The open article's tags as chips, each with a button that removes it, and an entry that adds
/// one: typing offers the library's tags that begin with the text (Tab takes the first), Return
/// adds the text (an existing tag's spelling when it names one, a new tag otherwise), Backspace
/// in the empty entry removes the last chip.
///
/// The chips know nothing of the store: ``tagAdded`` and ``tagRemoved`` tell the host, which
/// saves the change and shows the article's tags again with ``show(tags:known:)``.
@MainActor
final class TagChips {
    /// The row: a tag icon, the chips and the entry.
    let widget: Box
    /// Where the writer types a tag.
    let entry: Entry
    /// Called when the writer adds a tag, with its name.
    var tagAdded: (@MainActor (String) -> Void)?
    /// Called when the writer removes a tag, with its name.
    var tagRemoved: (@MainActor (String) -> Void)?

    private let chips = FlowBox()
    private let hint = Label("")
    private var completion = TagCompletion(known: [], carried: [])

    init() {
        widget = Box(.horizontal, spacing: 6)
        widget.setStyleClass("quire-tag-chips", on: true)
        entry = Entry()
        entry.setProperty("placeholder-text", gettext("Add a tag"))
        entry.setProperty("width-chars", Int32(12))
        entry.tooltipText = gettext("Return adds the tag; Tab completes one the library has")
        entry.setAccessibleLabel(gettext("Add a tag"))
        entry.setAccessibleDescription(entry.tooltipText ?? "")
        chips.maximumChildrenPerLine = 30
        chips.expandsHorizontally = true
        entry.centersVertically = true
        hint.setStyleClass("dim-label", on: true)
        hint.centersVertically = true
        let icon = Image(iconName: SidebarItem.tagIconName)
        icon.centersVertically = true
        widget.append(icon)
        widget.append(chips)
        widget.append(entry)
        widget.append(hint)
        entry.connect(.activate) { [weak self] in self?.addTyped() }
        entry.connect(.changed) { [weak self] in self?.showSuggestion() }
        KeyController(on: entry) { [weak self] key in
            guard let self, key.modifiers.isEmpty else { return false }
            switch key.name {
            case "Tab": return completeTyped()
            case "BackSpace" where entry.text.isEmpty: return removeLast()
            default: return false
            }
        }
    }

    /// The tags shown, in order.
    private(set) var tags: [String] = []

    /// What the entry offers for the text typed so far.
    var suggestions: [String] { completion.suggestions(for: entry.text) }

    /// Shows the article's `tags` as chips and completes from `known` (every tag of the library).
    /// The chips are made again only when the tags changed: the window shows the tags again after
    /// every save, and a chip made again under the pointer would lose the writer's click.
    func show(tags: [String], known: [String]) {
        completion = TagCompletion(known: known, carried: tags)
        showSuggestion()
        guard tags != self.tags || chips.items.count != tags.count else { return }
        self.tags = tags
        chips.removeAll()
        for tag in tags { chips.append(makeChip(tag)) }
    }

    /// Turns editing off (a read-only library, an article in the Trash): chips lose their remove
    /// buttons' sensitivity and the entry takes no text.
    var isEditable = true {
        didSet {
            entry.isSensitive = isEditable
            for button in chips.descendants(ofType: Button.self) { button.isSensitive = isEditable }
        }
    }

    /// Adds what the writer typed (Return).
    func addTyped() {
        guard isEditable, let name = completion.tagToAdd(for: entry.text) else { return }
        entry.text = ""
        tagAdded?(name)
    }

    /// Completes the typed text to the first suggestion (Tab); false when there is none.
    func completeTyped() -> Bool {
        guard let first = suggestions.first else { return false }
        entry.text = first
        entry.cursorPosition = -1
        return true
    }

    private func removeLast() -> Bool {
        guard isEditable, let last = tags.last else { return false }
        tagRemoved?(last)
        return true
    }

    /// The hint beside the entry (“Tab: essay”), empty without a suggestion.
    var hintText: String { hint.text }

    private func showSuggestion() {
        let first = suggestions.first
        hint.text = first.map { String(cFormat: gettext("Tab: %s"), $0) } ?? ""
        hint.isVisible = first != nil
    }

    private func makeChip(_ tag: String) -> Widget {
        let chip = Box(.horizontal, spacing: 2)
        chip.setStyleClass("quire-tag-chip", on: true)
        let label = Label(tag)
        label.ellipsizesAtEnd = true
        chip.append(label)
        let remove = Button(label: "")
        remove.setProperty("icon-name", "window-close-symbolic")
        remove.setStyleClass("flat", on: true)
        remove.setStyleClass("circular", on: true)
        remove.tooltipText = String(cFormat: gettext("Remove the tag “%s”"), tag)
        remove.setAccessibleLabel(remove.tooltipText ?? "")
        remove.isSensitive = isEditable
        remove.connect(.clicked) { [weak self] in self?.tagRemoved?(tag) }
        chip.append(remove)
        return chip
    }
}
