import GtkKit
import Library
import Platform

/// Moving around the window: the sidebar's places, the search bar, the folded leaflet's panes.
extension MainWindow {
    func connectWidgets(builder: Builder) {
        sidebar.selectionChanged = { [weak self] item in self?.sidebarSelected(item) }
        sidebar.statusChosen = { [weak self] status in self?.articleList.query.status = status }
        sidebar.articleDropped = { [weak self] id, item in self?.drop(id, on: item) ?? false }
        articleList.selectionChanged = { [weak self] objectID in self?.open(objectID) }
        articleList.failed = { [weak self] error in self?.showError(gettext("Could not read the library"), error) }
        // Each letter shows at once what it finds: a search's first screen is one cheap LIMITed
        // query, and its whole list waits for a pause in the typing (ArticleList.wholeListPause).
        searchEntry.searchDelay = Self.searchDelay
        searchEntry.connect(.changed) { [weak self] in
            guard let feltSpeed = self?.feltSpeed, feltSpeed.searchTyped == nil else { return }
            feltSpeed.searchTyped = .now
            feltSpeed.searchTypedKey = feltSpeed.searchKeyPressed
        }
        searchEntry.connect(.searchChanged) { [weak self] in
            guard let self else { return }
            let started = ContinuousClock.now
            articleList.query.searchText = searchEntry.text
            if let feltSpeed, let typed = feltSpeed.searchTyped {
                feltSpeed.searchTyped = nil
                if let pressed = feltSpeed.searchTypedKey {
                    feltSpeed.report("search-key-shown-ms", sinceKeyPressedAt: pressed, afterNextFrameOf: window)
                }
                feltSpeed.searchTypedKey = nil
                feltSpeed.report("search-shown-ms", since: typed, afterNextFrameOf: window)
                feltSpeed.report("search-run-ms", since: started, afterNextFrameOf: window)
            }
        }
        searchBar.connect(entry: searchEntry)
        if let searchButton = try? builder.object("search_button", as: ToggleButton.self) {
            searchButton.bind("active", to: searchBar, "search-mode-enabled", bidirectional: true)
        }
        // Closing the search bar shows the whole list again.
        searchBar.connect(.notify("search-mode-enabled")) { [weak self] _ in
            guard let self, !searchBar.isSearchModeEnabled else { return }
            searchEntry.text = ""
            articleList.query.searchText = ""
        }
        backButton.isVisible = leaflet.isFolded
        leaflet.foldChanged = { [weak self] folded in self?.backButton.isVisible = folded }
    }

    /// The search entry's delay, in milliseconds, before a change of its text searches: none.
    /// GTK's 150 ms saved running a whole search at every letter; a first screen costs a few
    /// milliseconds (12 for a one-letter search of 100,000 articles), less than the time between
    /// two keys, so typing stays smooth while each letter shows its result within the 50 ms the
    /// writer feels as immediate.
    static let searchDelay: UInt32 = 0

    private func sidebarSelected(_ item: SidebarItem) {
        articleList.query.filter = item.filter
        showTitle()
        updateActions()
        if leaflet.isFolded { leaflet.showChild(listPane) }
    }

    func goBack() {
        leaflet.navigateBack()
    }

    /// Names the place shown under the window's title.
    func showTitle() {
        windowTitle.subtitle = sidebar.selected.title
    }
}
