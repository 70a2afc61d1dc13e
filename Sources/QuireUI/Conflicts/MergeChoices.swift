import Library

/// The conflict dialog's model: the changes the writer must decide, one choice per change, and the
/// merged content those choices give. Pure; the dialog shows it.
///
/// The changes are, in the order the dialog lists them: each conflicting place of the title, the
/// folder and the status when the sides set them differently, and each conflicting place of the
/// body. The body's choices start at ``Side/both``, so that saving the merge untouched loses
/// nothing either side wrote; the title's, folder's and status's start at ``Side/mine``.
struct MergeChoices {
    /// One thing the writer decides.
    enum Change: Hashable {
        /// A conflicting place in the title.
        case title(ConflictHunk)
        /// The folder, which the sides changed differently.
        case folder
        /// The status, which the sides changed differently.
        case status
        /// A conflicting place in the body.
        case body(ConflictHunk)
    }

    /// A choice for one change.
    enum Side: Hashable, CaseIterable {
        /// This device's version.
        case mine
        /// The server's version.
        case theirs
        /// This device's lines, then the server's (for the body only).
        case both

        /// The merge's choice for a text hunk.
        var conflictChoice: ConflictChoice {
            switch self {
            case .mine: .mine
            case .theirs: .theirs
            case .both: .mineThenTheirs
            }
        }

        /// The choice for a field, which cannot hold both values.
        var fieldChoice: FieldChoice { self == .theirs ? .theirs : .mine }
    }

    let merge: ArticleMerge
    /// Every change, in the order the dialog lists them.
    let changes: [Change]
    private var choices: [Change: Side]

    init(merge: ArticleMerge) {
        self.merge = merge
        let conflicts = merge.conflicts
        changes = conflicts.title.map(Change.title) + (conflicts.folder ? [.folder] : [])
            + (conflicts.status ? [.status] : []) + conflicts.body.map(Change.body)
        choices = Dictionary(uniqueKeysWithValues: changes.map { ($0, Self.sides(for: $0).last == .both ? .both : .mine) })
    }

    /// The choices a change offers: both sides, and for the body also both together. A title is
    /// one line, so it cannot sensibly hold both.
    static func sides(for change: Change) -> [Side] {
        if case .body = change { return [.mine, .theirs, .both] }
        return [.mine, .theirs]
    }

    /// The current choice for `change`.
    func side(for change: Change) -> Side { choices[change] ?? .mine }

    /// Chooses `side` for `change`; a side the change does not offer is ignored.
    mutating func choose(_ side: Side, for change: Change) {
        guard Self.sides(for: change).contains(side), choices[change] != nil else { return }
        choices[change] = side
    }

    /// The merged title from the title's choices.
    var title: String {
        merge.title.resolved { choice(for: .title($0)) }
    }

    /// The merged body from the body's choices, with where each conflicting place landed in it
    /// (character offsets, by hunk id), so the dialog can replace one place when its choice
    /// changes without undoing the writer's own edits elsewhere.
    var body: (text: String, places: [Int: Range<Int>]) {
        var text = ""
        var offset = 0
        var places: [Int: Range<Int>] = [:]
        for region in merge.body.regions {
            let part: String
            switch region {
            case .unchanged(let unchanged), .changed(let unchanged, _):
                part = unchanged
            case .conflict(let hunk):
                part = hunk.text(for: choice(for: .body(hunk)))
                places[hunk.id] = offset..<(offset + part.unicodeScalars.count)
            }
            text += part
            offset += part.unicodeScalars.count
        }
        return (text, places)
    }

    /// The text a body change gets for `side`.
    static func text(of hunk: ConflictHunk, for side: Side) -> String {
        hunk.text(for: side.conflictChoice)
    }

    /// The merged content: `title` and `body` as the writer finally edited them, the folder and
    /// status from their choices, tags and favorite as the merge settled them.
    func content(title: String, body: String) -> ArticleContent {
        ArticleContent(
            title: title, body: body, folder: merge.folder.resolved(choosing: side(for: .folder).fieldChoice),
            tags: merge.tags, status: merge.status.resolved(choosing: side(for: .status).fieldChoice),
            isFavorite: merge.isFavorite)
    }

    private func choice(for change: Change) -> ConflictChoice {
        side(for: change).conflictChoice
    }
}
