import CGtk
import GtkShim

/// The list as GTK has been told it: the state behind a ``ListModel``'s `GtkShimListModel`.
///
/// It answers `get_n_items` and `get_item`, publishes the source's batches as `items-changed`
/// emissions and keeps one row item per identity for the rows someone (GTK, mostly) holds.
/// While a batch is being published it answers for the list between two emissions, as the
/// `GListModel` contract requires, from the ``ListChangePlan``.
///
/// The model instance keeps it alive (its callback data); it refers to the instance unowned.
@MainActor
final class PresentedList<Source: ListSource>: ListModelAnswering {
    typealias Identity = Source.Identity

    /// What observers (the selection, the list view) hear, around each publication.
    enum Event {
        /// A batch is about to be emitted; the source already answers for the new rows.
        case willApply(ListChangePlan<Identity>)
        /// A batch was emitted and the row items carry their new positions.
        case didApply(ListChangePlan<Identity>)
        /// A reload is about to be emitted. ``liveIdentity(at:)`` still answers for the rows
        /// GTK shows, by their old index.
        case willReload
        /// A reload was emitted.
        case didReload
    }

    /// A row item someone holds, and its index once the change being published is complete
    /// (nil: its row left the list).
    private struct LiveRow {
        let item: OpaquePointer
        var index: Int?
    }

    let source: Source
    /// The number of rows GTK has been told about.
    private(set) var count: Int
    /// The `GtkShimListModel`, set once it exists.
    var model: OpaquePointer?
    /// Batches with more emissions than this are published as a reload (see ``ListModel``).
    var reloadThreshold = 1000
    /// A reload to at most this many rows is one emission (see ``reload()``).
    static var singleEmissionReloadLimit: Int { 1000 }
    var inconsistencyHandler: @MainActor (ListChangeError) -> Void

    /// Row items by identity. Items are not retained: an item leaves when it is finalized.
    private var rows: [Identity: LiveRow] = [:]
    /// The batch being emitted and how many of its emissions have been made.
    private var publishing: (plan: ListChangePlan<Identity>, emitted: Int)?
    private var isReloading = false
    private var observers: [@MainActor (Event) -> Void] = []

    /// How often GTK (or anyone) asked for an item: `get_item` calls.
    private(set) var itemRequests = 0
    /// How many row items were created.
    private(set) var itemsCreated = 0

    /// Starts counting `get_item` calls and created items from zero.
    func resetItemRequests() {
        itemRequests = 0
        itemsCreated = 0
    }

    init(source: Source, inconsistencyHandler: @escaping @MainActor (ListChangeError) -> Void) {
        self.source = source
        self.count = source.count
        self.inconsistencyHandler = inconsistencyHandler
    }

    /// The number of row items alive and in the list.
    var liveItemCount: Int { rows.count }

    /// Adds an observer; it lives as long as the list (capture owners weakly).
    func observe(_ observer: @escaping @MainActor (Event) -> Void) {
        observers.append(observer)
    }

    private func notify(_ event: Event) {
        for observer in observers { observer(event) }
    }

    /// Whether a batch or reload is being emitted right now.
    var isPublishing: Bool { publishing != nil || isReloading }

    // MARK: Answering GTK

    /// The identity GTK sees at `position`, and the row's index once the change being
    /// published is complete (nil if it is leaving).
    private func resolve(_ position: Int) -> (identity: Identity, index: Int?) {
        guard let (plan, emitted) = publishing else { return (source.identity(at: position), position) }
        switch plan.position(position, afterEmissions: emitted) {
        case .new(let index):
            return (source.identity(at: index), index)
        case .old(let oldIndex):
            let newIndex = plan.newIndex(ofOldIndex: oldIndex)
            if let leaving = plan.removedIdentity(atOldIndex: oldIndex) { return (leaving, newIndex) }
            guard let newIndex else { preconditionFailure("a surviving row has no new index") }
            return (source.identity(at: newIndex), newIndex)
        }
    }

    /// The identity GTK sees at `position` (`0 ..< count`), also between the emissions of a batch.
    func identity(at position: Int) -> Identity {
        resolve(position).identity
    }

    /// The source's index of the row GTK sees at `position`, or nil if the row is leaving.
    func sourceIndex(at position: Int) -> Int? {
        resolve(position).index
    }

    /// The row item at `position` as a new reference, the same one for an identity as long as
    /// someone holds it and the row stays in the list.
    func rowItem(at position: Int) -> OpaquePointer? {
        itemRequests += 1
        guard position >= 0, position < count else { return nil }
        let (identity, index) = resolve(position)
        if let row = rows[identity] {
            g_object_ref(UnsafeMutableRawPointer(row.item))
            return row.item
        }
        let payload = RowItemIdentity<Source>(identity: identity, list: self)
        guard
            let item = gtkshim_row_item_new(
                Unmanaged.passRetained(payload).toOpaque(), releaseRowItemIdentity, Self.gtkPosition(index))
        else { preconditionFailure("gtkshim_row_item_new failed") }
        payload.item = item
        rows[identity] = LiveRow(item: item, index: index)
        itemsCreated += 1
        return item
    }

    /// The identity of the row at `index` among the row items alive, without asking the
    /// source: during ``Event/willReload`` the source already has its new rows.
    func liveIdentity(at index: Int) -> Identity? {
        rows.first { $0.value.index == index }?.key
    }

    /// Forgets a finalized row item, unless its identity has a newer one.
    func itemFinalized(_ item: OpaquePointer, identity: Identity) {
        if rows[identity]?.item == item { rows[identity] = nil }
    }

    // MARK: Publishing changes

    /// Publishes a batch as the fewest `items-changed` emissions, or as a reload when it does
    /// not fit the list GTK has (reporting why) or needs more emissions than
    /// ``reloadThreshold``.
    func apply(_ changes: [ListChange<Identity>]) {
        precondition(!isPublishing, "the list source changed while its previous change was being published")
        let plan: ListChangePlan<Identity>
        do {
            plan = try ListChangePlan(changes, oldCount: count, newCount: source.count, newIdentity: source.identity(at:))
        } catch {
            inconsistencyHandler(error)
            reload()
            return
        }
        guard plan.emissions.count <= reloadThreshold else {
            reload()
            return
        }
        for (identity, row) in rows {
            rows[identity]?.index = row.index.flatMap(plan.newIndex(ofOldIndex:))
        }
        notify(.willApply(plan))
        for (offset, emission) in plan.emissions.enumerated() {
            publishing = (plan, offset + 1)
            count = plan.count(afterEmissions: offset + 1)
            g_list_model_items_changed(
                model, guint(emission.position), guint(emission.removed), guint(emission.added))
        }
        publishing = nil
        settleRows()
        for identity in plan.changed {
            if let row = rows[identity] { gtkshim_row_item_updated(row.item) }
        }
        notify(.didApply(plan))
    }

    /// Publishes the source's rows as new: `items_changed(0, n, n')` when the new list has at
    /// most ``singleEmissionReloadLimit`` rows, otherwise `items_changed(0, n, 0)` then
    /// `(0, 0, n')`.
    ///
    /// GTK 4.8 gives a removed row's widget to a row of the new list only within the emission
    /// that removed it, when the row's item is the same object. In one `items_changed(0, n, n')`
    /// it asks for every new item to find them (DESIGN.md): for a short list (a search's first
    /// screen) that costs little, and the rows in both lists (a search refined by a letter)
    /// keep their widgets instead of new ones being made (GTK 4.8 binds a row again when its
    /// position changes). For a long one (0.7 s at a million
    /// rows) the reload removes all, then adds all, which costs only the rows GTK shows, made
    /// again.
    func reload() {
        precondition(!isPublishing, "the list source reloaded while a change was being published")
        notify(.willReload)
        for identity in rows.keys {
            rows[identity]?.index = source.index(of: identity)
        }
        isReloading = true
        let oldCount = count
        let newCount = source.count
        if oldCount > 0, newCount > 0, newCount <= Self.singleEmissionReloadLimit {
            count = newCount
            g_list_model_items_changed(model, 0, guint(oldCount), guint(newCount))
        } else {
            if oldCount > 0 {
                count = 0
                g_list_model_items_changed(model, 0, guint(oldCount), 0)
            }
            count = newCount
            if count > 0 {
                g_list_model_items_changed(model, 0, 0, guint(count))
            }
        }
        isReloading = false
        settleRows()
        notify(.didReload)
    }

    /// Gives every live row item its final position and forgets those that left the list.
    private func settleRows() {
        for (identity, row) in rows {
            gtkshim_row_item_set_position(row.item, Self.gtkPosition(row.index))
            if row.index == nil { rows[identity] = nil }
        }
    }

    private static func gtkPosition(_ index: Int?) -> guint {
        index.map { guint($0) } ?? guint.max  // GTK_INVALID_LIST_POSITION
    }
}

/// What a `GtkShimListModel` asks Swift. Its C callbacks cannot be generic, so they reach the
/// generic ``PresentedList`` through this protocol.
@MainActor
protocol ListModelAnswering: AnyObject {
    /// The number of items.
    var count: Int { get }
    /// A new reference to the item at `position`, or nil past the end.
    func rowItem(at position: Int) -> OpaquePointer?
}

extension ListModelAnswering {
    /// A new `GtkShimListModel` answered by `self`, which it keeps alive until it is finalized.
    func makeListModel() -> OpaquePointer {
        var callbacks = GtkShimListModelCallbacks(
            get_n_items: { data in
                MainActor.assumeIsolated { guint(answering(data).count) }
            },
            get_item: { data, position in
                MainActor.assumeIsolated {
                    answering(data).rowItem(at: Int(position)).map { UInt(bitPattern: $0) }
                }.flatMap { OpaquePointer(bitPattern: $0) }
            })
        let data = Unmanaged.passRetained(self as AnyObject).toOpaque()
        guard let model = gtkshim_list_model_new(&callbacks, data, { Unmanaged<AnyObject>.fromOpaque($0!).release() })
        else { preconditionFailure("gtkshim_list_model_new failed") }
        return model
    }
}

@MainActor
private func answering(_ data: gpointer?) -> any ListModelAnswering {
    Unmanaged<AnyObject>.fromOpaque(data!).takeUnretainedValue() as! any ListModelAnswering
}

/// The identity a row item carries. The item owns it and releases it when finalized, which
/// tells the list to forget the item.
@MainActor
final class RowItemIdentity<Source: ListSource>: RowItemFinalizing {
    let identity: Source.Identity
    weak var list: PresentedList<Source>?
    /// The item, for comparison only: it is not retained.
    var item: OpaquePointer?

    init(identity: Source.Identity, list: PresentedList<Source>) {
        self.identity = identity
        self.list = list
    }

    func itemFinalized() {
        guard let item else { return }
        list?.itemFinalized(item, identity: identity)
    }
}

/// A row item's payload, told when its item is finalized.
@MainActor
protocol RowItemFinalizing: AnyObject {
    func itemFinalized()
}

/// The `GDestroyNotify` of a row item's identity: runs when the item is finalized.
let releaseRowItemIdentity: @convention(c) (gpointer?) -> Void = { data in
    // The address crosses into the main actor as a plain integer (raw pointers are not Sendable).
    let address = UInt(bitPattern: data)
    MainActor.assumeIsolated {
        let payload = Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeRetainedValue()
        (payload as? any RowItemFinalizing)?.itemFinalized()
    }
}
