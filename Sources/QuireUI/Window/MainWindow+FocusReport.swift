import GtkKit

/// The lines of `QUIRE_REPORT_FELT_SPEED` (``FeltSpeed``) that say where the window is rather
/// than how fast: `focus PLACE` in the frame after the keyboard focus moves, `search-listed COUNT TEXT`
/// once a search's list is drawn, `search-whole-list` as a search's whole list starts to be read
/// (`quire-bench ux` types its next key then). A test that drives the real app by keys alone,
/// from outside, sends each key only when the window is where the key must land
/// (`KeyboardDrivenAppTests`): GTK 4.8 tells the accessibility bus nothing when the focus moves
/// inside a list. Also keeps the time of each key pressed in the search field.
extension MainWindow {
    func reportFocusAndSearches(to feltSpeed: FeltSpeed) {
        // After the next frame, which shows a widget that just took the focus; the search field is
        // shown a frame later (its bar's opening animation), and keys typed before then reach it
        // all the same (GtkKit's SearchBar.connect(entry:)).
        window.connect(.notify("focus-widget")) { [weak self] _ in
            self?.window.afterNextFrame { [weak self] in
                guard let self else { return }
                feltSpeed.note("focus \(focusPlace)")
            }
        }
        // The key's own time: a key pressed while the main thread is busy waits before GTK
        // handles it, and only this time sees that wait.
        KeyController(on: searchEntry, timed: { _, time in
            feltSpeed.searchKeyPressed = time
            return false
        })
        articleList.wholeListStarted = { feltSpeed.note("search-whole-list") }
        // After the handler that runs the search (connected first): the list holds its result.
        searchEntry.connect(.searchChanged) { [weak self] in
            guard let self else { return }
            let text = searchEntry.text
            window.afterNextFrame { [weak self] in
                guard let self else { return }
                feltSpeed.note("search-listed \(articleList.count) \(text)")
            }
        }
    }

    /// Where the keyboard focus is: `sidebar`, `search`, `articles`, `title`, `text`, `tags`,
    /// `sync-status` (the button), `sync-details` (inside its popover), `conflict-banner`, `none`, or else
    /// the focused widget's GTK type and the pane it is in (`GtkButton in header`).
    var focusPlace: String {
        guard let focus = window.focusedWidget else { return "none" }
        func within(_ widget: Widget) -> Bool { focus.widgetPointer == widget.widgetPointer || focus.isInside(widget) }
        let places: [(String, Widget)] = [
            ("search", searchEntry), ("sidebar", sidebarPane), ("articles", articleList.listView.widget),
            ("title", editor.titleField.view), ("text", editor.bodyView), ("tags", details.tagChips.entry),
            ("conflict-banner", conflictBanner.widget),
        ]
        if let place = places.first(where: { within($0.1) }) { return place.0 }
        if let details = syncStatus.widget.popover, within(details) { return "sync-details" }
        // The menu button's own toggle button takes its focus.
        if within(syncStatus.widget) { return "sync-status" }
        let pane = [("list", listPane), ("editor", editorStack), ("header", headerBar)].first { within($0.1) }
        return focus.typeName + (pane.map { " in " + $0.0 } ?? "")
    }
}
