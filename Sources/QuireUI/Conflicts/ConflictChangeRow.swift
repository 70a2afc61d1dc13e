import Foundation
import GtkKit
import Library
import Platform

/// One row of the conflict dialog's list of changes (`conflict-change-row.ui`): what changed and
/// where, and a linked choice of Mine, Theirs and, for the body, Both.
@MainActor
final class ConflictChangeRow {
    /// The change the row decides.
    let change: MergeChoices.Change
    /// The row in the list of changes.
    let row: ActionRow
    /// The toggle button of each side the change offers.
    let buttons: [MergeChoices.Side: ToggleButton]
    /// Called when the writer picks another side.
    var chosen: ((MergeChoices.Side) -> Void)?

    init(change: MergeChoices.Change, side: MergeChoices.Side, merge: ArticleMerge, theirs: String) throws {
        self.change = change
        let builder = try Builder(resource: Quire.resourcePath + "conflicts/conflict-change-row.ui")
        row = try builder.object("row")
        let all: [MergeChoices.Side: ToggleButton] = [
            .mine: try builder.object("mine_button"), .theirs: try builder.object("theirs_button"),
            .both: try builder.object("both_button"),
        ]
        let offered = MergeChoices.sides(for: change)
        buttons = all.filter { offered.contains($0.key) }
        all[.both]?.isVisible = offered.contains(.both)

        let (title, subtitle) = Self.describe(change, merge: merge, theirs: theirs)
        row.usesMarkup = false
        row.title = title
        row.subtitle = subtitle

        buttons[side]?.isActive = true
        for (side, button) in buttons {
            button.connect(.toggled) { [weak self, weak button] in
                guard let self, let button, button.isActive else { return }
                self.chosen?(side)
            }
        }
    }

    /// The side whose button is pressed.
    var side: MergeChoices.Side? {
        buttons.first { $0.value.isActive }?.key
    }

    /// The row's title and subtitle: which part of the article, and why the merge left it open.
    /// `theirs` names where the other version was made ("Laptop").
    static func describe(_ change: MergeChoices.Change, merge: ArticleMerge, theirs: String) -> (String, String) {
        switch change {
        case .title(let hunk):
            return (gettext("Title"), String(cFormat: gettext("“%1$s” on this device, “%2$s” on %3$s"), hunk.mine.trimmingCharacters(in: .newlines), hunk.theirs.trimmingCharacters(in: .newlines), theirs))
        case .folder:
            guard case let .conflict(_, mineFolder, theirsFolder) = merge.folder else { return (gettext("Folder"), "") }
            return (gettext("Folder"), String(cFormat: gettext("%1$s on this device, %2$s on %3$s"), folderName(mineFolder), folderName(theirsFolder), theirs))
        case .status:
            guard case let .conflict(_, mineStatus, theirsStatus) = merge.status else { return (gettext("Status"), "") }
            return (gettext("Status"), String(cFormat: gettext("%1$s on this device, %2$s on %3$s"), mineStatus.title, theirsStatus.title, theirs))
        case .body(let hunk):
            return (excerpt(hunk), String(cFormat: gettext("%1$s · %2$s"), lineNumbers(hunk), reason(hunk.reason)))
        }
    }

    /// The first line with text of this device's side (of the server's where this device's side
    /// is empty), quoted, so the writer recognises the place.
    private static func excerpt(_ hunk: ConflictHunk) -> String {
        let text = hunk.mine.allSatisfy(\.isWhitespace) ? hunk.theirs : hunk.mine
        let line = text.split(whereSeparator: \.isNewline).first { !$0.allSatisfy(\.isWhitespace) }
        return line.map { String(cFormat: gettext("“%s”"), $0.trimmingCharacters(in: .whitespaces)) } ?? gettext("Blank lines")
    }

    private static func folderName(_ folder: String?) -> String {
        folder.map { String(cFormat: gettext("“%s”"), $0) } ?? gettext("no folder")
    }

    /// "Line 4" or "Lines 4–7" of this device's text (of the server's where this device's side is
    /// empty), counted from 1 as the writer counts lines.
    private static func lineNumbers(_ hunk: ConflictHunk) -> String {
        let lines = hunk.mineLines.isEmpty ? hunk.theirsLines : hunk.mineLines
        if lines.isEmpty { return String(cFormat: gettext("After line %d"), hunk.baseLines.lowerBound) }
        return lines.count == 1 ? String(cFormat: gettext("Line %d"), lines.lowerBound + 1) : String(cFormat: gettext("Lines %1$d–%2$d"), lines.lowerBound + 1, lines.upperBound)
    }

    private static func reason(_ reason: ConflictHunk.Reason) -> String {
        switch reason {
        case .overlapping: gettext("Both sides changed these lines")
        case .adjacent: gettext("Both sides changed neighbouring lines")
        case .ambiguousBase: gettext("The changes are too close to merge safely")
        case .diffTooLarge: gettext("Too many changes to match line by line")
        }
    }
}
