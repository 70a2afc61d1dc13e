import CGtk
import GtkShim

/// The selection behind a ``SelectionModel``'s `GtkShimSelectionModel`: answers GTK's
/// selection requests by position and keeps the selection by identity.
///
/// It maps positions to identities through the ``PresentedList`` (so it is exact between the
/// emissions of a batch), and identities to positions through the source's `index(of:)`, so no
/// request reads more rows than it names. Requests over a range read the identities in it.
@MainActor
final class PresentedSelection<Source: ListSource>: SelectionAnswering {
    typealias Identity = Source.Identity

    /// Beyond this many changed identities, `selection-changed` covers the whole list instead
    /// of looking each one up.
    private static var preciseChangeLimit: Int { 4096 }

    let list: PresentedList<Source>
    let mode: SelectionMode
    private(set) var selection: ListSelection<Identity> = .only([])
    /// The `GtkShimSelectionModel`, set once it exists.
    var model: OpaquePointer?
    /// Called after every change of the selection, by the writer or by the list.
    var changed: (@MainActor () -> Void)?
    /// Whether the list's current publication changes which rows are selected.
    private var publicationChangesSelection = false

    init(list: PresentedList<Source>, mode: SelectionMode) {
        self.list = list
        self.mode = mode
        list.observe { [weak self] event in self?.listChanged(event) }
    }

    /// Follows the list, before GTK hears of a change (it asks whether new rows are selected
    /// while the change is emitted): rows that leave are forgotten, rows that arrive are not
    /// selected.
    private func listChanged(_ event: PresentedList<Source>.Event) {
        switch event {
        case .willApply(let plan):
            publicationChangesSelection = plan.deleted.contains(where: selection.contains)
            selection.rowsLeft(plan.deleted)
            selection.rowsArrived(plan.inserted)
        case .willReload:
            let before = selection
            let source = list.source
            selection.keepRows { source.index(of: $0) != nil }
            // Which rows a select-all covers changes with the rows, and telling which of the
            // old rows left would mean reading them all.
            publicationChangesSelection = if case .allExcept = before { true } else { before != selection }
        case .didApply, .didReload:
            if publicationChangesSelection { changed?() }
            publicationChangesSelection = false
        }
    }

    var count: Int { list.count }

    // MARK: Answering GTK

    func isSelected(_ position: Int) -> Bool {
        position < count && selection.contains(list.identity(at: position))
    }

    /// The selected positions in `start ..< start + length`, as a new `GtkBitset`.
    func selectedPositions(from start: Int, length: Int) -> OpaquePointer {
        let bitset = gtk_bitset_new_empty()!
        let range = min(start, count)..<min(start + length, count)
        let named = selection.named
        // Read the identities in the range, unless looking up those the selection names is less
        // work (and possible: not while a change is being published).
        if list.isPublishing || named.count >= range.count {
            for position in range where selection.contains(list.identity(at: position)) {
                gtk_bitset_add(bitset, guint(position))
            }
            return bitset
        }
        let isInverted = if case .allExcept = selection { true } else { false }
        if isInverted { gtk_bitset_add_range(bitset, guint(range.lowerBound), guint(range.count)) }
        for identity in named {
            guard let index = list.source.index(of: identity), range.contains(index) else { continue }
            if isInverted { gtk_bitset_remove(bitset, guint(index)) } else { gtk_bitset_add(bitset, guint(index)) }
        }
        return bitset
    }

    func select(_ position: Int, unselectRest: Bool) -> Bool {
        guard position < count else { return false }
        let identity = list.identity(at: position)
        var new = selection
        if mode == .single || unselectRest {
            new = .only([identity])
        } else {
            new.insert(identity)
        }
        replace(with: new, touching: position..<position + 1)
        return true
    }

    func unselect(_ position: Int) -> Bool {
        guard position < count else { return false }
        var new = selection
        new.remove(list.identity(at: position))
        replace(with: new, touching: position..<position + 1)
        return true
    }

    func select(from start: Int, length: Int, unselectRest: Bool) -> Bool {
        let range = min(start, count)..<min(start + length, count)
        if mode == .single {
            // Like GtkSingleSelection: one row, or refuse (GTK then selects the row clicked).
            return range.count == 1 && select(range.lowerBound, unselectRest: true)
        }
        var new = unselectRest ? .only([]) : selection
        if range == 0..<count {
            new = .allExcept([])
        } else {
            for position in range { new.insert(list.identity(at: position)) }
        }
        replace(with: new, touching: range)
        return true
    }

    func unselect(from start: Int, length: Int) -> Bool {
        let range = min(start, count)..<min(start + length, count)
        var new = selection
        if range == 0..<count {
            new = .only([])
        } else {
            for position in range { new.remove(list.identity(at: position)) }
        }
        replace(with: new, touching: range)
        return true
    }

    func selectAll() -> Bool {
        guard mode == .multiple else { return false }
        replace(with: .allExcept([]), touching: 0..<count)
        return true
    }

    func unselectAll() -> Bool {
        replace(with: .only([]), touching: 0..<0)
        return true
    }

    /// For the positions in `mask`: selected if in `selected`, unselected otherwise.
    func setSelection(_ selected: OpaquePointer, mask: OpaquePointer) -> Bool {
        // GtkSingleSelection does not take bitsets either; GTK uses them for rubberbands.
        guard mode == .multiple else { return false }
        guard count > 0 else { return true }
        let last = guint(count - 1)
        var new = selection
        if gtk_bitset_get_size_in_range(mask, 0, last) == UInt64(count) {
            if gtk_bitset_get_size_in_range(selected, 0, last) == UInt64(count) {
                new = .allExcept([])
            } else {
                new = .only([])
                Self.forEach(in: selected, below: count) { new.insert(list.identity(at: $0)) }
            }
            replace(with: new, touching: 0..<count)
            return true
        }
        var touched: Range<Int>?
        Self.forEach(in: mask, below: count) { position in
            let identity = list.identity(at: position)
            if gtk_bitset_contains(selected, guint(position)) != 0 { new.insert(identity) } else { new.remove(identity) }
            touched = touched.map { $0.lowerBound..<position + 1 } ?? position..<position + 1
        }
        replace(with: new, touching: touched ?? 0..<0)
        return true
    }

    private static func forEach(in bitset: OpaquePointer, below limit: Int, _ body: (Int) -> Void) {
        var iterator = GtkBitsetIter()
        var value: guint = 0
        var more = gtk_bitset_iter_init_first(&iterator, bitset, &value) != 0
        while more, Int(value) < limit {
            body(Int(value))
            more = gtk_bitset_iter_next(&iterator, &value) != 0
        }
    }

    // MARK: Changing the selection

    /// Selects `identity` (alone, or with the others), if it is in the list.
    func select(_ identity: Identity, unselectRest: Bool) -> Bool {
        guard let index = list.source.index(of: identity), index < count else { return false }
        return select(index, unselectRest: unselectRest)
    }

    /// Makes `new` the selection and tells GTK which positions may have changed: `touched`
    /// and the positions of the rows whose state changed elsewhere.
    func replace(with new: ListSelection<Identity>, touching touched: Range<Int>) {
        let old = selection
        guard new != old else { return }
        selection = new
        if let model {
            let range = changedRange(from: old, to: new, touching: touched)
            if !range.isEmpty {
                gtk_selection_model_selection_changed(model, guint(range.lowerBound), guint(range.count))
            }
        }
        changed?()
    }

    private func changedRange(
        from old: ListSelection<Identity>, to new: ListSelection<Identity>, touching touched: Range<Int>
    ) -> Range<Int> {
        let whole = 0..<count
        let changed: Set<Identity>
        switch (old, new) {
        case (.only(let before), .only(let after)), (.allExcept(let before), .allExcept(let after)):
            guard before.count + after.count <= Self.preciseChangeLimit, !list.isPublishing else { return whole }
            changed = before.symmetricDifference(after)
        default:
            return whole
        }
        var lower = touched.isEmpty ? count : touched.lowerBound
        var upper = touched.isEmpty ? 0 : touched.upperBound
        for identity in changed {
            guard let index = list.source.index(of: identity), index < count else { continue }
            lower = min(lower, index)
            upper = max(upper, index + 1)
        }
        return lower < upper ? lower..<upper : 0..<0
    }
}

/// What a `GtkShimSelectionModel` asks Swift; its C callbacks reach the generic
/// ``PresentedSelection`` through it.
@MainActor
protocol SelectionAnswering: AnyObject {
    func isSelected(_ position: Int) -> Bool
    func selectedPositions(from start: Int, length: Int) -> OpaquePointer
    func select(_ position: Int, unselectRest: Bool) -> Bool
    func unselect(_ position: Int) -> Bool
    func select(from start: Int, length: Int, unselectRest: Bool) -> Bool
    func unselect(from start: Int, length: Int) -> Bool
    func selectAll() -> Bool
    func unselectAll() -> Bool
    func setSelection(_ selected: OpaquePointer, mask: OpaquePointer) -> Bool
}

extension SelectionAnswering {
    /// A new `GtkShimSelectionModel` over `listModel`, answered by `self`, which it keeps
    /// alive until it is finalized.
    func makeSelectionModel(over listModel: OpaquePointer) -> OpaquePointer {
        // Pointers cross into the main actor as integers: raw pointers are not Sendable.
        var callbacks = GtkShimSelectionModelCallbacks(
            is_selected: { data, position in
                let address = UInt(bitPattern: data)
                return MainActor.assumeIsolated { selecting(address).isSelected(Int(position)) } ? 1 : 0
            },
            get_selection_in_range: { data, position, length in
                let address = UInt(bitPattern: data)
                let bitset = MainActor.assumeIsolated {
                    UInt(bitPattern: selecting(address).selectedPositions(from: Int(position), length: Int(length)))
                }
                return OpaquePointer(bitPattern: bitset)
            },
            select_item: { data, position, unselectRest in
                let address = UInt(bitPattern: data)
                return MainActor.assumeIsolated {
                    selecting(address).select(Int(position), unselectRest: unselectRest != 0)
                } ? 1 : 0
            },
            unselect_item: { data, position in
                let address = UInt(bitPattern: data)
                return MainActor.assumeIsolated { selecting(address).unselect(Int(position)) } ? 1 : 0
            },
            select_range: { data, position, length, unselectRest in
                let address = UInt(bitPattern: data)
                return MainActor.assumeIsolated {
                    selecting(address).select(from: Int(position), length: Int(length), unselectRest: unselectRest != 0)
                } ? 1 : 0
            },
            unselect_range: { data, position, length in
                let address = UInt(bitPattern: data)
                return MainActor.assumeIsolated {
                    selecting(address).unselect(from: Int(position), length: Int(length))
                } ? 1 : 0
            },
            select_all: { data in
                let address = UInt(bitPattern: data)
                return MainActor.assumeIsolated { selecting(address).selectAll() } ? 1 : 0
            },
            unselect_all: { data in
                let address = UInt(bitPattern: data)
                return MainActor.assumeIsolated { selecting(address).unselectAll() } ? 1 : 0
            },
            set_selection: { data, selected, mask in
                let address = UInt(bitPattern: data)
                let selectedAddress = UInt(bitPattern: selected)
                let maskAddress = UInt(bitPattern: mask)
                return MainActor.assumeIsolated {
                    selecting(address).setSelection(
                        OpaquePointer(bitPattern: selectedAddress)!, mask: OpaquePointer(bitPattern: maskAddress)!)
                } ? 1 : 0
            })
        let data = Unmanaged.passRetained(self as AnyObject).toOpaque()
        guard
            let model = gtkshim_selection_model_new(
                listModel, &callbacks, data, { Unmanaged<AnyObject>.fromOpaque($0!).release() })
        else { preconditionFailure("gtkshim_selection_model_new failed") }
        return model
    }
}

@MainActor
private func selecting(_ address: UInt) -> any SelectionAnswering {
    Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeUnretainedValue()
        as! any SelectionAnswering
}
