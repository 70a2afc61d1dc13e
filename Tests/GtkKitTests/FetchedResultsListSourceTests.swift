import CGtk
import Foundation
import GtkShim
import ObjectGraph
import GtkTestSupport
import XCTest

@testable import GtkKit
import Platform

/// An article as the list shows it.
final class ListedArticle: ManagedObject {
    @Attribute("rank") var rank: Int
    @Attribute("title") var title: String
    @Attribute("isVisible") var isVisible: Bool

    static let schema = Schema(version: 1, entities: [
        EntityDescription(
            "ListedArticle", class: ListedArticle.self,
            attributes: [
                AttributeDescription("rank", .integer64, indexed: true),
                AttributeDescription("title", .string, default: ""),
                AttributeDescription("isVisible", .boolean, default: true),
            ]),
    ])
}

/// Replays a list model's `items-changed` emissions on an array of object IDs, reading the new
/// items through `g_list_model_get_item` as GTK does, and checks the whole model against the
/// replay after each emission while the list is small.
@MainActor
final class ObjectIDReplay {
    private let model: ListModel<FetchedResultsListSource<ListedArticle>>
    private(set) var identities: [ManagedObjectID] = []
    private(set) var emissions = 0
    private(set) var mismatches: [String] = []
    private var connection: SignalConnection?

    init(model: ListModel<FetchedResultsListSource<ListedArticle>>) {
        self.model = model
        identities = (0..<itemCount).map(identity(at:))
        connection = model.object.connect(Signal<(UInt32, UInt32, UInt32) -> Void>("items-changed")) {
            [unowned self] position, removed, added in
            replay(position: Int(position), removed: Int(removed), added: Int(added))
        }
    }

    private var itemCount: Int { Int(g_list_model_get_n_items(model.object.opaquePointer)) }

    private func replay(position: Int, removed: Int, added: Int) {
        emissions += 1
        identities.removeSubrange(position..<position + removed)
        identities.insert(contentsOf: (position..<position + added).map(identity(at:)), at: position)
        if itemCount != identities.count {
            mismatches.append("items_changed(\(position), \(removed), \(added)): \(itemCount) items, \(identities.count) replayed")
        } else if itemCount <= 300, (0..<itemCount).map(identity(at:)) != identities {
            mismatches.append("items_changed(\(position), \(removed), \(added)): the model shows other items than the replay")
        }
    }

    func identity(at position: Int) -> ManagedObjectID {
        guard let item = g_list_model_get_item(model.object.opaquePointer, guint(position)) else {
            preconditionFailure("no item at \(position)")
        }
        return model.identity(of: ListRowItem(owning: item))
    }

    isolated deinit {
        connection?.disconnect()
    }
}

final class FetchedResultsListSourceTests: GtkTestCase, @unchecked Sendable {
    /// A store of `count` articles ranked 0 ..< count, written by batch inserts, in a folder
    /// removed after the test.
    private func makeStore(articles count: Int) throws -> URL {
        let url = try makeTemporaryFolder().appending(path: "articles.sqlite")
        var description = StoreDescription.file(url)
        description.synchronous = .normal
        let context = try PersistentContainer(schema: ListedArticle.schema, store: description).newBackgroundContext()
        try context.performAndWait {
            for start in stride(from: 0, to: count, by: 100_000) {
                let rows: [[String: PrimitiveValue]] = (start..<min(start + 100_000, count)).map {
                    ["rank": .integer(Int64($0)), "title": .string("Article \($0)")]
                }
                _ = try context.execute(BatchInsertRequest<ListedArticle>(objects: rows))
            }
        }
        return url
    }

    /// Thousands of random changes of the view context, merged background saves, batch operations
    /// and new fetches: after each, the list model's `items-changed` emissions replayed on an
    /// array equal the controller's objects, and the controller equals a fresh fetch.
    func testRandomChangesReachTheListModelExactly() throws {
        try MainActor.assumeIsolated {
            let url = try makeStore(articles: 120)
            let container = try PersistentContainer(schema: ListedArticle.schema, store: .file(url))
            let view = container.viewContext
            view.mergePolicy = .mergeByPropertyObjectTrump
            var request = FetchRequest<ListedArticle>(predicate: \.isVisible == true, sortDescriptors: [.ascending(\.rank)])
            let controller = try FetchedResultsController(fetchRequest: request, context: view)
            var failures: [any Error] = []
            let source = FetchedResultsListSource(controller: controller) { failures.append($0) }
            let model = ListModel(source: source)
            model.inconsistencyHandler = { XCTFail("inconsistent batch: \($0)") }
            let replay = ObjectIDReplay(model: model)
            try controller.performFetch()
            XCTAssertEqual(replay.identities, try view.fetchObjectIDs(request))

            var random = SeededGenerator(seed: 0xF8C)
            func randomArticle() throws -> ListedArticle? {
                let all = try view.fetchObjectIDs(FetchRequest<ListedArticle>())
                guard !all.isEmpty else { return nil }
                return try view.existingObject(with: all[Int.random(in: 0..<all.count, using: &random)], as: ListedArticle.self)
            }
            for step in 0..<1_500 {
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<20:
                    let article = ListedArticle(context: view)
                    article.rank = Int.random(in: 0..<300, using: &random)
                    article.title = "new \(step)"
                    view.processPendingChanges()
                case 20..<50:
                    guard let article = try randomArticle() else { continue }
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: article.rank = Int.random(in: 0..<300, using: &random)
                    case 1: article.isVisible.toggle()
                    default: article.title = "edited \(step)"
                    }
                    view.processPendingChanges()
                case 50..<58:
                    guard let article = try randomArticle() else { continue }
                    view.delete(article)
                    view.processPendingChanges()
                case 58..<66:
                    try view.save()
                case 66..<86:
                    let background = container.newBackgroundContext()
                    let changes = try background.performAndWait {
                        let saved = try background.fetchObjectIDs(FetchRequest<ListedArticle>())
                        for id in saved.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)) {
                            let article = try background.existingObject(with: id, as: ListedArticle.self)
                            if Bool.random(using: &random) { article.rank = Int.random(in: 0..<300, using: &random) } else { background.delete(article) }
                        }
                        let article = ListedArticle(context: background)
                        article.rank = Int.random(in: 0..<300, using: &random)
                        return try background.save()
                    }
                    view.mergeChanges(fromContextDidSave: changes)
                case 86..<94:
                    let low = Int.random(in: 0..<300, using: &random)
                    let background = container.newBackgroundContext()
                    let changes = try background.performAndWait {
                        var update = BatchUpdateRequest<ListedArticle>(predicate: \.rank >= low && \.rank < low + 20)
                        update.set(\.isVisible, to: Bool.random(using: &random))
                        update.resultType = .objectIDs
                        return try background.execute(update).changes
                    }
                    ManagedObjectContext.mergeChanges(fromRemoteContextSave: changes, into: [view])
                case 94..<97:
                    let low = Int.random(in: 0..<300, using: &random)
                    let background = container.newBackgroundContext()
                    let changes = try background.performAndWait {
                        try background.execute(BatchDeleteRequest<ListedArticle>(
                            predicate: \.rank >= low && \.rank < low + 5, resultType: .objectIDs)).changes
                    }
                    ManagedObjectContext.mergeChanges(fromRemoteContextSave: changes, into: [view])
                case 97..<99:
                    // A new predicate: a new fetch, published as a reload.
                    request.predicate = Bool.random(using: &random) ? \.isVisible == true : \.rank < 200
                    controller.fetchRequest = request
                    try controller.performFetch()
                default:
                    view.reset()
                }
                let expected = try view.fetchObjectIDs(request)
                XCTAssertEqual(controller.fetchedObjects?.objectIDs, expected, "step \(step): the controller")
                XCTAssertEqual(replay.identities, expected, "step \(step): the replayed emissions")
                XCTAssertEqual(model.count, expected.count)
                XCTAssertEqual(replay.mismatches, [], "step \(step)")
                XCTAssertTrue(failures.isEmpty, "step \(step): \(failures)")
                if replay.identities != expected || !replay.mismatches.isEmpty { return }
            }
            XCTAssertGreaterThan(replay.emissions, 1_000, "the sequence did real work")
        }
    }

    /// What showing, inserting into and reloading a controller of a million rows costs GTK,
    /// measured twice to show the counts are deterministic.
    private struct Costs: Equatable {
        var firstFrame: Int
        var insertedRow: Int
        var reload: Int
        var firstFrameQueries: Int
    }

    /// A GtkListView over a controller of a million rows: the first frame, one inserted row and a
    /// full reload (a new fetch) each ask for a few hundred items at most, the same number each
    /// time; the rows shown are bound from objects loaded a batch per query.
    func testAMillionRowControllerCostsOnlyTheRowsShown() throws {
        let url = try makeStore(articles: 1_000_000)
        let costs = try MainActor.assumeIsolated { try (0..<2).map { _ in try showInsertAndReloadAMillionRows(store: url) } }
        XCTAssertEqual(costs[0], costs[1], "the counts are deterministic")
        print("get_item calls for a 1,000,000-row controller: first frame \(costs[0].firstFrame), "
              + "one inserted row \(costs[0].insertedRow), full reload \(costs[0].reload); "
              + "queries to bind the first frame \(costs[0].firstFrameQueries)")
    }

    @MainActor
    private func showInsertAndReloadAMillionRows(store url: URL) throws -> Costs {
        let container = try PersistentContainer(schema: ListedArticle.schema, store: .file(url))
        let selects = Counter()
        container.persistentStore.setStatementTrace { sql in
            if sql.hasPrefix("SELECT") { MainActor.assumeIsolated { selects.value += 1 } }
        }
        let view = container.viewContext
        let controller = try FetchedResultsController(
            fetchRequest: FetchRequest<ListedArticle>(sortDescriptors: [.ascending(\.rank)]), context: view)
        let source = FetchedResultsListSource(controller: controller) { XCTFail("\($0)") }
        // The app fetches, then builds the list over the results.
        try controller.performFetch()
        XCTAssertEqual(view.registeredObjects.count, 0, "fetching made no object")
        selects.value = 0
        let model = ListModel(source: source)
        let selection = SelectionModel(model: model, mode: .multiple)
        let factory = ListRowFactory(model: model, rowHeight: 30, makeRow: ArticleTitleRow.init) { row, _, index in
            row.show(source.object(at: index).title)
        }
        let list = ListView(selection: selection, factory: factory)
        let window = Window()
        defer { window.destroy() }
        let scrolled = gtk_scrolled_window_new()
        gtk_scrolled_window_set_child(OpaquePointer(scrolled), list.widget.widgetPointer)
        gtk_window_set_child(window.windowPointer, scrolled)
        window.defaultSize = (360, 600)
        XCTAssertEqual(model.count, 1_000_000)

        window.present()
        waitForFrames(2, of: window)
        let firstFrame = model.presented.itemRequests
        XCTAssertGreaterThan(firstFrame, 20, "the rows on screen at least")
        XCTAssertLessThan(firstFrame, 1_000, "hundreds, not millions")
        XCTAssertLessThanOrEqual(selects.value, 3, "the rows bound load in batches of 100 keys a query")
        let firstFrameQueries = selects.value
        XCTAssertLessThan(view.registeredObjects.count, 1_000, "objects only for the rows bound")
        XCTAssertEqual(Array(visibleTitles(of: list).prefix(3)), ["Article 0", "Article 1", "Article 2"])

        // One article arrives among those on screen.
        model.presented.resetItemRequests()
        let article = ListedArticle(context: view)
        article.rank = 2
        article.title = "Article new"
        view.processPendingChanges()
        waitForFrames(2, of: window)
        let insertedRow = model.presented.itemRequests
        XCTAssertGreaterThan(insertedRow, 0)
        XCTAssertLessThan(insertedRow, 10)
        XCTAssertEqual(Array(visibleTitles(of: list).prefix(5)), ["Article 0", "Article 1", "Article 2", "Article new", "Article 3"])

        // Scroll into the middle and select rows on and off screen.
        list.scroll(toRowAt: 500_001)
        waitForFrames(2, of: window)
        XCTAssertEqual(visibleTitles(of: list).last, "Article 500000")
        let shownBefore = visibleTitles(of: list)
        let selected = [3, 500_000, 500_002].map { controller.objectID(at: $0) }
        for id in selected { XCTAssertTrue(selection.select(id, unselectRest: false)) }

        // A new fetch without 500 articles above the view: a reload, back at the same rows.
        model.presented.resetItemRequests()
        controller.fetchRequest.predicate = \.rank < 250_000 || \.rank >= 250_500
        try controller.performFetch()
        waitForFrames(3, of: window)
        let reload = model.presented.itemRequests
        XCTAssertLessThan(reload, 1_000, "hundreds, not millions")
        XCTAssertEqual(visibleTitles(of: list), shownBefore, "the same rows are shown")
        XCTAssertEqual(Set(selection.selectedIdentities()), Set(selected), "the selection is kept by object ID")
        return Costs(firstFrame: firstFrame, insertedRow: insertedRow, reload: reload, firstFrameQueries: firstFrameQueries)
    }

    /// The titles of the rows on screen, top to bottom.
    @MainActor
    private func visibleTitles(of list: ListView<FetchedResultsListSource<ListedArticle>>) -> [String] {
        let height = Double(list.widget.height)
        return list.widget.children.compactMap { row -> (String, Double)? in
            var bounds = graphene_rect_t()
            guard row.isMapped, gtk_widget_compute_bounds(row.widgetPointer, list.widget.widgetPointer, &bounds) != 0,
                  let label = row.descendants(ofType: gtk_label_get_type()).first,
                  Double(bounds.origin.y + bounds.size.height) > 0, Double(bounds.origin.y) < height
            else { return nil }
            return (String(cString: gtk_label_get_text(OpaquePointer(label.widgetPointer))), Double(bounds.origin.y))
        }.sorted { $0.1 < $1.1 }.map(\.0)
    }

    /// Runs the main loop until `widget` has drawn `count` more frames.
    @MainActor
    private func waitForFrames(_ count: Int, of widget: Widget) {
        for _ in 0..<count {
            var drawn = false
            widget.afterNextFrame { drawn = true }
            spinMainLoop { drawn }
        }
    }
}
