import GtkKit
import Library
import ObjectGraph
import Platform

/// The article list: the articles an ``ArticleQuery`` selects (the sidebar's filter, the search
/// text, the sort order), as a `GtkListView` over a fetched-results controller of the view context,
/// with one article selected at a time and an `AdwStatusPage` when nothing matches.
///
/// The controller reads only IDs and sort keys when the query changes; rows load a batch at a
/// time as GTK shows them, and later changes of the store (the editor's saves, the library's
/// operations, sync) move, insert or update single rows.
///
/// Every list shows its first screen of rows from a `LIMIT`ed query (``firstScreenRows``) at once,
/// and its whole list on another thread after: a search's after a pause in the typing
/// (``wholeListPause``), any other list's once the first screen's rows are drawn (GTK 4.8 makes
/// a row for each of up to 200 items in the frame that first shows them, and reading a large
/// library's whole list would hold that frame back too). Both come from the one controller: the
/// whole list begins with the first screen's rows, so the rows shown stay where they are (and
/// keep their widgets), and the selected article stays selected even when the first screen does
/// not hold it.
///
/// Rows can be dragged onto the sidebar (``ArticleRow``). When the window's own operation takes
/// the selected article out of the list (trash, restore, a move out of the folder shown), the
/// article that takes its place is selected (``selectNeighbour(whenLeaving:)``).
@MainActor
final class ArticleList {
    /// The query the list shows; setting it fetches again, keeping the selection when the
    /// selected article is still listed.
    var query: ArticleQuery {
        didSet {
            guard query != oldValue else { return }
            fetch()
        }
    }

    /// Called when the selected article changes (nil: none).
    var selectionChanged: (@MainActor (ManagedObjectID?) -> Void)?
    /// Called when the list cannot read the store (once, until reading works again); the list
    /// keeps showing what it had, and reads its rows again after a pause (``readFailed(_:)``).
    var failed: (@MainActor (any Error) -> Void)?
    /// A row's context menu (a right click selects the row's article, then opens it there); its
    /// actions act on the selected article.
    var rowMenu: MenuModel?
    /// The context menu last opened on a row (tests read it).
    private(set) weak var openedRowMenu: PopoverMenu?

    let controller: FetchedResultsController<StoredArticle>
    let source: FetchedResultsListSource<StoredArticle>
    let listView: ListView<FetchedResultsListSource<StoredArticle>>
    /// Whether the writer can drag rows onto the sidebar.
    let rowsAreDraggable: Bool
    private let rowFactory: ListRowFactory<FetchedResultsListSource<StoredArticle>, ArticleRow>
    private let stack: Stack
    private let status: StatusPage
    private var selectedObjectID: ManagedObjectID?
    private var changes: ContextObservation?
    /// The selected article an operation is taking out of the list, and its index then.
    private var leaving: (objectID: ManagedObjectID, index: Int)?
    /// An article to select once a change of the store lists it.
    private var awaitedSelection: ManagedObjectID?
    /// The selected article a search's first screen leaves out: still selected for the window
    /// (no change is reported) until the whole list shows it, or does not.
    private var selectionAwaitingWholeList: ManagedObjectID?
    /// Reads a search's whole list once the typing pauses.
    private var wholeList: Timeout?
    /// Whether a list's whole list waits for its first screen's rows to be drawn (a new fetch
    /// gives the wait up: it starts its own).
    private var wholeListAwaitsRows = false
    /// Called as a search's whole list starts to be read (``FeltSpeed``'s `search-whole-list`).
    var wholeListStarted: (@MainActor () -> Void)?
    /// Reads the rows again after reading the store failed (``readFailed(_:)``).
    private lazy var rereading = ReadAgainAfterFailure { [weak self] in self?.fetch() }

    /// How many rows a list shows first: the rows its height shows, and a few more for a window
    /// made taller before the whole list arrives; at most ``firstScreenRowsBeforeLayout``, the
    /// number while the list has no height yet (the window's first frame). No more, since GTK 4.8
    /// binds and lays out a row for each of them in the frame that shows them (and makes it, when
    /// the row factory has no spare row view): at 100,000 articles a one-letter search's first
    /// 100 rows took 12 ms of processor time, all of them 87 ms; and each key typed in the search
    /// field does it for them all again (in a window 960 pixels high, 14 rows instead of 40).
    var firstScreenRows: Int {
        let height = listView.widget.height
        guard height > 0 else { return Self.firstScreenRowsBeforeLayout }
        return min(Self.firstScreenRowsBeforeLayout, (height + ArticleRow.height - 1) / ArticleRow.height + Self.rowsBelowTheView)
    }

    /// The first screen before the list has a height: more than a window shows (40 rows of 76
    /// pixels fill a 3,000-pixel list).
    static let firstScreenRowsBeforeLayout = 40
    /// Rows a first screen holds beyond those the list's height shows.
    static let rowsBelowTheView = 2
    /// The pause in the typing, in milliseconds, after which a search reads its whole list: what
    /// GTK's search entry used to wait before every search, now only before its costly part.
    static let wholeListPause: UInt32 = 150

    /// Attaches to the list view, stack and status page of the main window's builder file and
    /// fetches `query`. `rowsAreDraggable` lets the writer drag rows (not in a read-only library).
    init(
        context: ManagedObjectContext, query: ArticleQuery, rowsAreDraggable: Bool, listView widget: Widget, stack: Stack,
        status: StatusPage
    ) throws {
        self.query = query
        self.rowsAreDraggable = rowsAreDraggable
        self.stack = stack
        self.status = status
        controller = try FetchedResultsController(fetchRequest: Self.request(for: query), context: context)
        var reportFailure: (@MainActor (any Error) -> Void)?
        source = FetchedResultsListSource(controller: controller) { error in reportFailure?(error) }
        let model = ListModel(source: source)
        let selection = SelectionModel(model: model, mode: .single)
        let source = source
        var openMenu: (@MainActor (ArticleRow, Double, Double) -> Void)?
        let makeRow: @MainActor () -> ArticleRow = {
            let row = ArticleRow(draggable: rowsAreDraggable)
            row.menuRequested = { row, x, y in openMenu?(row, x, y) }
            return row
        }
        rowFactory = ListRowFactory(model: model, rowHeight: ArticleRow.height, makeRow: makeRow) { row, _, index in
            guard index < source.count else { return }
            row.show(source.object(at: index))
        }
        listView = ListView(listView: widget, selection: selection, factory: rowFactory)
        // Rows would hold back the window's first frame; they arrive just after it.
        listView.makeRowsAfterNextFrame()
        reportFailure = { [weak self] error in self?.readFailed(error) }
        openMenu = { [weak self] row, x, y in self?.openMenu(of: row, atX: x, y: y) }
        selection.onChanged = { [weak self] in self?.selectionDidChange() }
        fetch()
        // Rows come and go with every change of the context; the empty state follows them once
        // the controller (which observes the context too) has applied the change.
        changes = context.addObserver { [weak self] _ in
            Task { @MainActor in
                self?.showEmptyStateIfNeeded()
                self?.selectAwaitedArticle()
            }
        }
    }

    /// The fetch request of a query as the list runs it.
    static func request(for query: ArticleQuery) -> FetchRequest<StoredArticle> {
        var request = query.fetchRequest
        request.fetchBatchSize = 100
        // Rows show their tags: a batch of rows reads its tags in one query, not one per row.
        request.prefetch(\.tags)
        return request
    }

    /// How many articles are listed.
    var count: Int { source.count }

    /// The selected article's object ID.
    var selectedID: ManagedObjectID? { listView.selection.selectedIdentities().first }

    /// Selects the article (if listed) and scrolls to it; returns whether it is listed.
    @discardableResult
    func select(_ objectID: ManagedObjectID) -> Bool {
        guard let index = source.index(of: objectID) else { return false }
        listView.selection.select(objectID)
        listView.scroll(toRowAt: index)
        return true
    }

    /// Selects the article as soon as it is listed: now, or when a change of the store lists it
    /// (an operation's save reaches the view context after the operation returns). Another
    /// selection or query first cancels it.
    func selectWhenListed(_ objectID: ManagedObjectID) {
        awaitedSelection = nil
        guard !select(objectID) else { return }
        awaitedSelection = objectID
    }

    /// Asks that when the selected article `objectID` leaves the list, the article that takes its
    /// place (or the last one) is selected, as GNOME Files does after a move to the Trash. Another
    /// selection or query first cancels it.
    func selectNeighbour(whenLeaving objectID: ManagedObjectID) {
        guard selectedID == objectID, let index = source.index(of: objectID) else { return }
        leaving = (objectID, index)
    }

    /// Selects the row's article and opens ``rowMenu`` where the writer right-clicked.
    private func openMenu(of row: ArticleRow, atX x: Double, y: Double) {
        guard let objectID = row.objectID, let rowMenu, select(objectID) else { return }
        openedRowMenu = row.openMenu(rowMenu, atX: x, y: y)
    }

    /// The article at a position of the list.
    func article(at index: Int) -> StoredArticle {
        source.object(at: index)
    }

    private func fetch() {
        leaving = nil
        awaitedSelection = nil
        wholeList = nil
        wholeListAwaitsRows = false
        selectionAwaitingWholeList = selectionAwaitingWholeList ?? selectedObjectID
        controller.fetchRequest = Self.request(for: query)
        do {
            try controller.performFetch(firstRows: firstScreenRows)
            // Read in full only once the whole list is too, if one is still to come: a retry
            // whose first screen reads but whose whole list does not keeps the pause growing,
            // and its failure is not reported again.
            if !controller.hasMoreRows { rereading.succeeded() }
        } catch {
            readFailed(error)
        }
        if controller.hasMoreRows {
            if query.isSearching {
                wholeList = Timeout(milliseconds: Self.wholeListPause) { [weak self] in self?.fetchWholeList() }
            } else {
                wholeListAwaitsRows = true
                listView.whenRowsShown { [weak self] in
                    // The current fetch's whole list, once: a wait an earlier fetch left reads it
                    // and clears the flag, so the later one's finds nothing to do.
                    guard let self, wholeListAwaitsRows else { return }
                    wholeListAwaitsRows = false
                    fetchWholeList()
                }
            }
        }
        settleAfterFetch()
    }

    /// A list's whole list, after its first screen: the same rows first, then the rest. The
    /// rows are read on another thread (tens of milliseconds for a one-letter search of 100,000
    /// articles), so a key typed meanwhile is handled at once; its search gives this one up.
    private func fetchWholeList() {
        if query.isSearching { wholeListStarted?() }
        do {
            try controller.performFetchInBackground { [weak self] error in
                MainActor.assumeIsolated {
                    if let error { self?.readFailed(error) } else { self?.rereading.succeeded() }
                    self?.settleAfterFetch()
                }
            }
        } catch {
            readFailed(error)
            settleAfterFetch()
        }
    }

    /// Reading the store failed: for a fetch, or for applying a change of the context (the
    /// controller then keeps the rows as they were, which no longer follow the store, and asks
    /// to be fetched again once the store works). The rows are fetched again after a pause
    /// until a fetch (that one, or a new query's) reads the whole list; the first failure is
    /// reported.
    private func readFailed(_ error: any Error) {
        if rereading.failed() { failed?(error) }
    }

    /// Whether a list's whole list is still to be read after its first screen.
    var isAwaitingWholeList: Bool { wholeList?.isPending == true || wholeListAwaitsRows || controller.isFetchingInBackground }

    private func settleAfterFetch() {
        showEmptyStateIfNeeded()
        if let held = selectionAwaitingWholeList, selectedID == nil, !controller.hasMoreRows, source.index(of: held) != nil {
            // For the window it never stopped being selected: selecting it again reports nothing.
            listView.selection.select(held)
        }
        if selectedID != nil || !controller.hasMoreRows { selectionAwaitingWholeList = nil }
        selectionDidChange()
    }

    private func selectionDidChange() {
        let selected = selectedID
        // A search's first screen left the selected article out: the whole list may show it.
        if selected == nil, selectionAwaitingWholeList != nil { return }
        if selected != nil { selectionAwaitingWholeList = nil }
        guard selected != selectedObjectID else { return }
        if selected == nil, let leaving, leaving.objectID == selectedObjectID, source.index(of: leaving.objectID) == nil,
           source.count > 0 {
            // Selecting the neighbour calls back here, which reports it.
            self.leaving = nil
            listView.selection.select(source.identity(at: min(leaving.index, source.count - 1)))
            return
        }
        leaving = nil
        awaitedSelection = nil
        selectedObjectID = selected
        selectionChanged?(selected)
    }

    private func selectAwaitedArticle() {
        guard let awaited = awaitedSelection, source.index(of: awaited) != nil else { return }
        selectWhenListed(awaited)
    }

    private func showEmptyStateIfNeeded() {
        let isEmpty = source.count == 0
        stack.visibleChildName = isEmpty ? "empty" : "list"
        guard isEmpty else { return }
        let (title, description) = Self.emptyState(for: query)
        status.title = title
        // The search text is the writer's: it shows as typed, not as markup.
        status.descriptionMarkup = Markup.escape(description)
        status.iconName = query.isSearching ? "system-search-symbolic" : query.filter == .trash ? "user-trash-symbolic" : "document-new-symbolic"
    }

    /// What the list says when a query selects nothing.
    static func emptyState(for query: ArticleQuery) -> (title: String, description: String) {
        if query.isSearching { return (gettext("No Results"), String(cFormat: gettext("No article contains “%s”."), query.searchText)) }
        switch query.filter {
        case .trash: return (gettext("Trash Is Empty"), gettext("Articles you move to the trash wait here until you empty it."))
        case .favorites: return (gettext("No Favorites"), gettext("Star an article to find it here."))
        case .folder(let name): return (String(cFormat: gettext("No Articles in “%s”"), name), gettext("Move articles here from the folder menu, or press Ctrl+N."))
        case .all, .unfiled, .tag: return (gettext("No Articles"), gettext("Press Ctrl+N to write your first article."))
        }
    }

    /// The status page's title, as shown when the list is empty.
    var emptyStateTitle: String? {
        guard source.count == 0 else { return nil }
        return status.title
    }
}
