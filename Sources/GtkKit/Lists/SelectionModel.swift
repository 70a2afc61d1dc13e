import CGtk
import GtkShim

/// How many rows a ``SelectionModel`` lets the writer select.
public enum SelectionMode: Sendable {
    /// At most one row, as `GtkSingleSelection`.
    case single
    /// Any rows, with Ctrl and Shift clicks, rubberbands and select-all, as `GtkMultiSelection`.
    case multiple
}

/// A `GtkSelectionModel` over a ``ListModel`` that keeps the selection by identity across
/// inserts, deletes, moves and reloads, without reading every row.
///
/// GTK's own `GtkMultiSelection` keeps positions and walks every item on some changes; this
/// one keeps a ``ListSelection`` of identities and asks the source only about the rows a
/// request names. Hand ``object`` to a `GtkListView` (a ``ListView`` does).
///
/// ```swift
/// let selection = SelectionModel(model: model, mode: .multiple)
/// selection.onChanged = { [weak self] in self?.updateExportAction() }
/// let chosen = selection.selectedIdentities()  // in list order
/// ```
@MainActor
public final class SelectionModel<Source: ListSource> {
    /// The `GtkSelectionModel` (a `GtkShimSelectionModel`, also a `GListModel` of the list
    /// model's items).
    public let object: Object
    /// The list model whose rows are selected.
    public let model: ListModel<Source>
    let presented: PresentedSelection<Source>

    /// A selection over `model`, empty to begin with.
    public init(model: ListModel<Source>, mode: SelectionMode = .multiple) {
        self.model = model
        presented = PresentedSelection(list: model.presented, mode: mode)
        object = Object(owning: presented.makeSelectionModel(over: model.object.opaquePointer))
        presented.model = object.opaquePointer
    }

    /// Single or multiple selection.
    public var mode: SelectionMode { presented.mode }

    /// The selected rows, by identity.
    public var selection: ListSelection<Source.Identity> { presented.selection }

    /// Called after every change of the selection: by the writer, by code, or because
    /// selected rows left the list (and after every reload while every row is selected).
    public var onChanged: (@MainActor () -> Void)? {
        get { presented.changed }
        set { presented.changed = newValue }
    }

    /// The number of selected rows.
    public var selectedCount: Int { presented.selection.count(inListOf: model.count) }

    /// Whether the row with `identity` is selected.
    public func isSelected(_ identity: Source.Identity) -> Bool {
        presented.selection.contains(identity) && model.source.index(of: identity) != nil
    }

    /// The selected rows in list order. Costs a lookup per selected row, or, after a
    /// select-all, a read of every identity.
    public func selectedIdentities() -> [Source.Identity] {
        let source = model.source
        switch presented.selection {
        case .only(let selected):
            return selected.compactMap { identity in source.index(of: identity).map { ($0, identity) } }
                .sorted { $0.0 < $1.0 }
                .map(\.1)
        case .allExcept(let excluded):
            return (0..<source.count).compactMap { index in
                let identity = source.identity(at: index)
                return excluded.contains(identity) ? nil : identity
            }
        }
    }

    /// Selects the row with `identity`, alone or besides the others (multiple mode); false if
    /// it is not in the list.
    @discardableResult
    public func select(_ identity: Source.Identity, unselectRest: Bool = true) -> Bool {
        presented.select(identity, unselectRest: unselectRest)
    }

    /// Unselects the row with `identity`.
    public func unselect(_ identity: Source.Identity) {
        guard let index = model.source.index(of: identity) else { return }
        _ = presented.unselect(index)
    }

    /// Selects every row (multiple mode; false in single mode). Costs nothing per row.
    @discardableResult
    public func selectAll() -> Bool {
        presented.selectAll()
    }

    /// Unselects every row.
    public func unselectAll() {
        _ = presented.unselectAll()
    }
}
