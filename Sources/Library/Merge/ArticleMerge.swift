import SyncProtocol

/// The three-way merge of an article's content: title and body line by line (``TextMerge``), folder
/// and status as whole values (``FieldMerge``), tags as a set (``TagSetMerge``), and favorite as a
/// whole value that cannot conflict (two sides that both changed a Bool agree).
///
/// A clean merge gives ``mergedContent`` to save and push. Otherwise ``conflicts`` lists what the
/// writer must decide, and ``resolved(title:body:folder:status:)`` builds the content from those
/// decisions, keeping everything that did merge.
///
/// ```swift
/// let merge = ArticleMerge(base: stored.content, mine: local.content, theirs: remote.content)
/// if let content = merge.mergedContent {
///     // apply `content`, note "merged automatically"
/// } else {
///     // record a conflict; the dialog shows merge.body.conflicts side by side
/// }
/// ```
public struct ArticleMerge: Sendable, Hashable {
    /// The title's line merge (a title is one line, so any two different edits conflict).
    public let title: TextMerge
    /// The body's line merge.
    public let body: TextMerge
    /// The folder's merge.
    public let folder: FieldMerge<String?>
    /// The status's merge.
    public let status: FieldMerge<ArticleStatus>
    /// The merged favorite flag.
    public let isFavorite: Bool
    /// The merged tags.
    public let tags: [String]
    /// The merged language: like the favorite flag it never conflicts (two different changes keep mine).
    public let language: String?

    /// Merges `mine` and `theirs`, both derived from `base`. `costLimit` bounds each line diff.
    public init(
        base: ArticleContent, mine: ArticleContent, theirs: ArticleContent,
        costLimit: Int = LineDiff.defaultCostLimit
    ) {
        title = TextMerge.merge(base: base.title, mine: mine.title, theirs: theirs.title, costLimit: costLimit)
        body = TextMerge.merge(base: base.body, mine: mine.body, theirs: theirs.body, costLimit: costLimit)
        folder = FieldMerge(base: base.folder, mine: mine.folder, theirs: theirs.folder)
        status = FieldMerge(base: base.status, mine: mine.status, theirs: theirs.status)
        isFavorite = FieldMerge(base: base.isFavorite, mine: mine.isFavorite, theirs: theirs.isFavorite)
            .resolved(choosing: .mine)
        tags = TagSetMerge.merge(base: base.tags, mine: mine.tags, theirs: theirs.tags)
        language = FieldMerge(base: base.language, mine: mine.language, theirs: theirs.language).resolved(choosing: .mine)
    }

    /// What the writer has to decide, field by field.
    public struct Conflicts: Sendable, Hashable {
        /// Conflicting places in the title.
        public var title: [ConflictHunk]
        /// Conflicting places in the body.
        public var body: [ConflictHunk]
        /// Whether the sides moved the article to different folders.
        public var folder: Bool
        /// Whether the sides set different statuses.
        public var status: Bool

        /// Whether there is nothing to decide.
        public var isEmpty: Bool { title.isEmpty && body.isEmpty && !folder && !status }
    }

    /// What the writer has to decide.
    public var conflicts: Conflicts {
        Conflicts(title: title.conflicts, body: body.conflicts, folder: folder.value == nil, status: status.value == nil)
    }

    /// Whether the merge needs no decision.
    public var isClean: Bool { conflicts.isEmpty }

    /// The merged content when the merge is clean; `nil` when the writer must decide something.
    public var mergedContent: ArticleContent? {
        isClean ? resolved(title: { _ in .mine }, body: { _ in .mine }, folder: .mine, status: .mine) : nil
    }

    /// The content built from the writer's choices for each conflict, with every clean part merged.
    public func resolved(
        title titleChoice: (ConflictHunk) -> ConflictChoice, body bodyChoice: (ConflictHunk) -> ConflictChoice,
        folder folderChoice: FieldChoice, status statusChoice: FieldChoice
    ) -> ArticleContent {
        ArticleContent(
            title: title.resolved(titleChoice), body: body.resolved(bodyChoice),
            folder: folder.resolved(choosing: folderChoice), tags: tags,
            status: status.resolved(choosing: statusChoice), isFavorite: isFavorite, language: language)
    }
}
