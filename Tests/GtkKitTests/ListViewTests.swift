import CGtk
import GtkShim
import GtkTestSupport
import XCTest

@testable import GtkKit

/// A row that shows "Article N" for identity N.
@MainActor
final class ArticleTitleRow: ListRowView {
    /// How many rows exist, and how many were made.
    static var alive = 0
    static var made = 0

    let widget = Widget(owning: gtk_label_new(nil))

    init() {
        Self.alive += 1
        Self.made += 1
    }

    isolated deinit {
        Self.alive -= 1
    }

    func show(_ title: String) {
        gtk_label_set_text(OpaquePointer(widget.widgetPointer), title)
    }
}

/// A window with a scrolled `ListView` over an ``ArraySource``, counting what GTK asks for.
@MainActor
final class ListViewFixture {
    static let rowHeight = 30

    let window = Window()
    let source: ArraySource
    let model: ListModel<ArraySource>
    let selection: SelectionModel<ArraySource>
    let list: ListView<ArraySource>
    /// Rows bound (again after updates), and binds of rows the source had not been asked to
    /// prefetch just before.
    private(set) var binds = 0
    private(set) var bindsOutsidePrefetch: [Int] = []
    /// Titles that differ from "Article N".
    var titles: [Int: String] = [:]

    init(rows: Int) {
        source = ArraySource(Array(0..<rows))
        model = ListModel(source: source)
        selection = SelectionModel(model: model, mode: .multiple)
        weak var fixture: ListViewFixture?
        let factory = ListRowFactory(model: model, rowHeight: Self.rowHeight, makeRow: ArticleTitleRow.init) {
            row, identity, index in
            guard let fixture else { return }
            fixture.binds += 1
            if !(fixture.source.prefetches.last?.contains(index) ?? false) { fixture.bindsOutsidePrefetch.append(index) }
            row.show(fixture.titles[identity] ?? "Article \(identity)")
        }
        list = ListView(selection: selection, factory: factory)
        fixture = self
        let scrolled = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(OpaquePointer(scrolled), list.widget.widgetPointer)
        gtk_window_set_child(window.windowPointer, scrolled)
        window.defaultSize = (360, 600)
    }

    func resetCounts() {
        model.presented.resetItemRequests()
        source.resetCounts()
        binds = 0
        bindsOutsidePrefetch = []
    }

    /// `get_item` calls since the last reset.
    var itemRequests: Int { model.presented.itemRequests }

    var adjustment: UnsafeMutablePointer<GtkAdjustment> {
        gtk_scrollable_get_vadjustment(list.widget.opaquePointer)!
    }

    /// The height of one row in the list, from the list's height (all rows are the same).
    var rowPitch: Double { gtk_adjustment_get_upper(adjustment) / Double(model.count) }

    /// The rows on screen, top to bottom: their title and their top edge relative to the list.
    /// (GTK keeps about 200 row widgets; those out of view are not mapped.)
    var visibleRows: [(title: String, top: Double, isSelected: Bool)] {
        let listHeight = Double(list.widget.height)
        return list.widget.children.compactMap { rowWidget in
            var bounds = graphene_rect_t()
            guard rowWidget.isMapped, gtk_widget_compute_bounds(rowWidget.widgetPointer, list.widget.widgetPointer, &bounds) != 0,
                let label = rowWidget.descendants(ofType: gtk_label_get_type()).first,
                Double(bounds.origin.y + bounds.size.height) > 0, Double(bounds.origin.y) < listHeight
            else { return nil }
            let title = String(cString: gtk_label_get_text(OpaquePointer(label.widgetPointer)))
            let isSelected = gtk_widget_get_state_flags(rowWidget.widgetPointer).rawValue & GTK_STATE_FLAG_SELECTED.rawValue != 0
            return (title, Double(bounds.origin.y), isSelected)
        }.sorted { $0.top < $1.top }
    }
}

final class ListViewTests: GtkTestCase, @unchecked Sendable {
    /// Runs the main loop until `widget` has drawn `count` more frames.
    @MainActor
    private func waitForFrames(_ count: Int, of widget: Widget) {
        for _ in 0..<count {
            var drawn = false
            widget.afterNextFrame { drawn = true }
            spinMainLoop { drawn }
        }
    }

    @MainActor
    private func present(_ fixture: ListViewFixture) {
        fixture.window.present()
        waitForFrames(2, of: fixture.window)
    }

    /// What showing, inserting into and reloading a million rows costs GTK, measured twice to
    /// show the counts are deterministic.
    private struct Costs: Equatable {
        var firstFrame: Int
        var insertedRow: Int
        var reload: Int
    }

    /// A million rows: the first frame, one inserted row and a full reload each ask for a few
    /// hundred items at most, the same number each time; rows show the right articles, bound
    /// from prefetched data; a reload keeps the scroll position (to the pixel) and the
    /// selection by identity.
    func testAMillionRowsCostOnlyTheRowsShown() throws {
        let costs = try MainActor.assumeIsolated { try (0..<2).map { _ in try showInsertAndReloadAMillionRows() } }
        XCTAssertEqual(costs[0], costs[1], "the counts are deterministic")
        print("get_item calls for 1,000,000 rows: first frame \(costs[0].firstFrame), "
              + "one inserted row \(costs[0].insertedRow), full reload \(costs[0].reload)")
    }

    @MainActor
    private func showInsertAndReloadAMillionRows() throws -> Costs {
        let fixture = ListViewFixture(rows: 1_000_000)
        defer { fixture.window.destroy() }
        present(fixture)
        let firstFrame = fixture.itemRequests
        XCTAssertGreaterThan(firstFrame, 20, "the rows on screen at least")
        XCTAssertLessThan(firstFrame, 1_000, "hundreds, not millions")
        XCTAssertLessThan(fixture.source.identityReads, 1_000)
        XCTAssertEqual(fixture.source.prefetches, [0..<256], "one batch covers the rows bound")
        XCTAssertEqual(fixture.bindsOutsidePrefetch, [])
        XCTAssertEqual(fixture.rowPitch.rounded(), fixture.rowPitch, "every row has the same height")
        XCTAssertGreaterThanOrEqual(fixture.rowPitch, Double(ListViewFixture.rowHeight))
        let titles = fixture.visibleRows.map(\.title)
        XCTAssertEqual(Array(titles.prefix(3)), ["Article 0", "Article 1", "Article 2"])
        XCTAssertEqual(fixture.visibleRows.first?.top, 0)

        // One row arrives among those on screen.
        fixture.resetCounts()
        var identities = fixture.source.identities
        identities.insert(-1, at: 3)
        fixture.source.change(to: identities, reporting: [.insert(-1, at: 3)])
        waitForFrames(2, of: fixture.window)
        let insertedRow = fixture.itemRequests
        XCTAssertGreaterThan(insertedRow, 0)
        XCTAssertLessThan(insertedRow, 10)
        XCTAssertEqual(Array(fixture.visibleRows.map(\.title).prefix(5)),
                       ["Article 0", "Article 1", "Article 2", "Article -1", "Article 3"])

        // Scroll into the middle, part way into a row, and select rows on and off screen.
        // (GTK 4.8 loses its rows when the adjustment jumps far from the very top in one step,
        // with its own models too; scroll to the row first, as keyboard navigation would.)
        let pitch = fixture.rowPitch
        fixture.list.scroll(toRowAt: 500_001)
        waitForFrames(2, of: fixture.window)
        XCTAssertEqual(fixture.visibleRows.last?.title, "Article 500000", "scrolled just far enough to show it")
        gtk_adjustment_set_value(fixture.adjustment, 500_001 * pitch + 7)
        waitForFrames(2, of: fixture.window)
        XCTAssertEqual(fixture.visibleRows.first?.title, "Article 500000")
        XCTAssertEqual(fixture.visibleRows.first?.top, -7)
        for identity in [500_002, 3, 500_010, 500_100] {
            XCTAssertTrue(fixture.selection.select(identity, unselectRest: false))
        }

        // A new fetch: a thousand rows arrive at the top, five hundred leave above the view.
        fixture.resetCounts()
        fixture.source.reload(Array(-1_000..<0) + Array(0..<250_000) + Array(250_500..<1_000_000))
        waitForFrames(3, of: fixture.window)
        let reload = fixture.itemRequests
        XCTAssertLessThan(reload, 1_000, "hundreds, not millions")
        XCTAssertLessThan(fixture.source.identityReads, 2_000)
        XCTAssertEqual(gtk_adjustment_get_value(fixture.adjustment), 500_500 * pitch + 7, "the same row, 7 pixels in")
        XCTAssertEqual(fixture.visibleRows.first?.title, "Article 500000")
        XCTAssertEqual(fixture.visibleRows.first?.top, -7)
        XCTAssertEqual(fixture.selection.selectedIdentities(), [3, 500_002, 500_010, 500_100])
        let shown = fixture.visibleRows
        XCTAssertEqual(shown.count, 18, "600 pixels of 34-pixel rows")
        XCTAssertEqual(shown.filter(\.isSelected).map(\.title), ["Article 500002", "Article 500010"], "selected rows look selected")
        XCTAssertTrue(
            fixture.source.prefetches.contains { $0.contains(500_500) }, "the rows shown after the reload were prefetched")
        return Costs(firstFrame: firstFrame, insertedRow: insertedRow, reload: reload)
    }

    /// Work that waits for the rows held back for the window's first frame runs once a frame has
    /// shown them, not before; once they are shown, at once.
    func testWorkWaitingForTheRowsRunsAfterTheFrameThatShowsThem() {
        MainActor.assumeIsolated {
            let fixture = ListViewFixture(rows: 1000)
            defer { fixture.window.destroy() }
            fixture.list.makeRowsAfterNextFrame()
            let rowsSeen = RowsSeen()
            fixture.list.whenRowsShown { rowsSeen.counts.append(fixture.visibleRows.count) }
            fixture.window.present()
            waitForFrames(1, of: fixture.window)
            XCTAssertEqual(rowsSeen.counts, [], "the first frame has no rows: it waits")
            waitForFrames(2, of: fixture.window)
            XCTAssertEqual(rowsSeen.counts.count, 1, "ran once")
            XCTAssertGreaterThan(rowsSeen.counts.first ?? 0, 0, "after a frame that showed rows")
            fixture.list.whenRowsShown { rowsSeen.counts.append(-1) }
            XCTAssertEqual(rowsSeen.counts.last, -1, "rows shown already: at once")
        }
    }

    /// A search refined by one more letter: a reload whose rows partly stay. The rows on screen
    /// before and after keep their row widgets (the same objects, not made again; GTK 4.8 binds
    /// a row again when its position changes), and the rows shown are the new list's.
    func testAReloadKeepsTheRowWidgetsOfRowsInBothLists() {
        MainActor.assumeIsolated {
            let fixture = ListViewFixture(rows: 100)
            defer { fixture.window.destroy() }
            present(fixture)
            let before = rowWidgets(of: fixture)
            XCTAssertGreaterThan(before.count, 17, "the rows on screen at least")

            fixture.resetCounts()
            let refined = Array(0..<100).filter { $0 % 3 != 1 }
            fixture.source.reload(refined)
            waitForFrames(2, of: fixture.window)
            XCTAssertEqual(Array(fixture.visibleRows.map(\.title).prefix(4)), ["Article 0", "Article 2", "Article 3", "Article 5"])
            let after = rowWidgets(of: fixture)
            let kept = Set(before.keys).intersection(after.keys)
            XCTAssertGreaterThan(kept.count, 10, "most rows shown stay")
            for title in kept.sorted() {
                XCTAssertEqual(before[title], after[title], "\(title) kept its row widget")
            }
            XCTAssertLessThanOrEqual(fixture.itemRequests, 2 * refined.count, "GTK looked for each new row's widget once")

            // A reload that keeps nothing still shows the new rows.
            fixture.source.reload(Array(1_000..<1_050))
            waitForFrames(2, of: fixture.window)
            XCTAssertEqual(fixture.visibleRows.first?.title, "Article 1000")
            XCTAssertTrue(Set(rowWidgets(of: fixture).keys).isDisjoint(with: kept))
        }
    }

    /// GTK 4.8 destroys the row widget of every row a reload removes; the views in them serve
    /// the rows of the next reload, so reloads that replace every row make no new row view, and
    /// the views kept do not grow in number.
    func testAReloadThatReplacesEveryRowReusesTheRowViews() {
        MainActor.assumeIsolated {
            let fixture = ListViewFixture(rows: 1_000)
            defer { fixture.window.destroy() }
            present(fixture)
            XCTAssertGreaterThan(fixture.list.widget.children.count, 100, "GTK keeps rows beyond those on screen")

            // The first reload's rows are set up before the old ones are torn down, so only
            // the reloads after it can reuse row views.
            fixture.source.reload(Array(10_000..<11_000))
            waitForFrames(2, of: fixture.window)
            let (made, alive) = (ArticleTitleRow.made, ArticleTitleRow.alive)
            for round in 1...3 {
                let first = 10_000 + round * 1_000
                fixture.source.reload(Array(first..<first + 1_000))
                waitForFrames(2, of: fixture.window)
                XCTAssertEqual(Array(fixture.visibleRows.map(\.title).prefix(3)), (first..<first + 3).map { "Article \($0)" })
            }
            XCTAssertEqual(ArticleTitleRow.made, made, "no new row view")
            XCTAssertEqual(ArticleTitleRow.alive, alive)
        }
    }

    /// A row's content has no say in the list's width: a title far wider than the window is
    /// clipped, not scrolled to, and the window keeps its width.
    func testRowsTakeTheListsWidth() {
        MainActor.assumeIsolated {
            let fixture = ListViewFixture(rows: 100)
            defer { fixture.window.destroy() }
            present(fixture)
            let wideTitle = String(repeating: "A title wider than any window ", count: 40)
            fixture.titles[1] = wideTitle
            fixture.source.change(to: fixture.source.identities, reporting: [.update(1, at: 1)])
            waitForFrames(1, of: fixture.window)
            XCTAssertEqual(Array(fixture.visibleRows.map(\.title).prefix(2)), ["Article 0", wideTitle])
            let across = gtk_scrollable_get_hadjustment(fixture.list.widget.opaquePointer)!
            XCTAssertEqual(gtk_adjustment_get_upper(across), gtk_adjustment_get_page_size(across), "nothing to scroll across to")
            XCTAssertEqual(fixture.window.width, 360)
        }
    }

    /// The list view's row widgets by the title they show.
    @MainActor
    private func rowWidgets(of fixture: ListViewFixture) -> [String: UnsafeMutablePointer<GtkWidget>] {
        var widgets: [String: UnsafeMutablePointer<GtkWidget>] = [:]
        for rowWidget in fixture.list.widget.children {
            guard let label = rowWidget.descendants(ofType: gtk_label_get_type()).first else { continue }
            widgets[String(cString: gtk_label_get_text(OpaquePointer(label.widgetPointer)))] = rowWidget.widgetPointer
        }
        return widgets
    }

    /// An updated row shows its new data without GTK being told of any item change.
    func testUpdatedRowsAreBoundAgain() {
        MainActor.assumeIsolated {
            let fixture = ListViewFixture(rows: 1_000)
            defer { fixture.window.destroy() }
            present(fixture)
            let replay = ItemsChangedReplay(model: fixture.model)
            fixture.titles[2] = "A better title"
            fixture.source.change(to: fixture.source.identities, reporting: [.update(2, at: 2)])
            XCTAssertEqual(replay.emissions, [])
            waitForFrames(1, of: fixture.window)
            XCTAssertEqual(Array(fixture.visibleRows.map(\.title).prefix(4)), ["Article 0", "Article 1", "A better title", "Article 3"])
        }
    }

    /// Scrolling page by page, every row is bound from a range the source was asked to
    /// prefetch, and each request covers many rows.
    func testScrollingPrefetchesAheadOfTheRowsBound() {
        MainActor.assumeIsolated {
            let fixture = ListViewFixture(rows: 100_000)
            defer { fixture.window.destroy() }
            present(fixture)
            let page = gtk_adjustment_get_page_size(fixture.adjustment)
            for _ in 0..<30 {
                gtk_adjustment_set_value(fixture.adjustment, gtk_adjustment_get_value(fixture.adjustment) + page)
                waitForFrames(1, of: fixture.window)
            }
            for _ in 0..<10 {
                gtk_adjustment_set_value(fixture.adjustment, gtk_adjustment_get_value(fixture.adjustment) - page)
                waitForFrames(1, of: fixture.window)
            }
            gtk_adjustment_set_value(fixture.adjustment, 50_000 * fixture.rowPitch)
            waitForFrames(2, of: fixture.window)
            XCTAssertEqual(fixture.visibleRows.first?.title, "Article 50000")
            XCTAssertEqual(fixture.bindsOutsidePrefetch, [])
            XCTAssertGreaterThan(fixture.binds, 20 * fixture.source.prefetches.count, "prefetches are batches")
        }
    }

    /// Activating a row reports its identity.
    func testActivatingARowReportsItsIdentity() {
        MainActor.assumeIsolated {
            let fixture = ListViewFixture(rows: 100)
            defer { fixture.window.destroy() }
            present(fixture)
            fixture.source.reload(Array(fixture.source.identities.reversed()))
            var activated: [Int] = []
            fixture.list.onActivate = { activated.append($0) }
            let position = g_variant_ref_sink(g_variant_new_uint32(5))
            defer { g_variant_unref(position) }
            XCTAssertTrue(gtk_widget_activate_action_variant(fixture.list.widget.widgetPointer, "list.activate-item", position) != 0)
            XCTAssertEqual(activated, [94])
        }
    }
}

/// How many rows were on screen each time work waiting for the rows ran.
@MainActor
private final class RowsSeen {
    var counts: [Int] = []
}
