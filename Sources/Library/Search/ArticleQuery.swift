import Foundation
import SyncProtocol
import ObjectGraph

/// Which articles a list shows and in what order: the sidebar's choice, the search field's text
/// and the sort menu's order. The app's list and `quire list` both read through it.
///
///     var query = ArticleQuery(filter: .folder("Essays"), order: .title)
///     query.searchText = "gtk lis"               // full-text, as you type
///     query.searchText = "tag:swift status:ready gtk"   // a tag, a status and a word (``SearchTerms``)
///     query.status = .ready                     // the sidebar's status filter
///     let request = query.fetchRequest          // for a fetched-results controller
///     let rows = try await library.articles(matching: query)
///
/// Every filter but ``Filter/trash`` leaves trashed articles out. The store has an index for each
/// order within each filter, so a list of 100,000 articles pages without sorting them all (the
/// trash, small, is sorted by trash date through an index, and by the other orders when read).
public struct ArticleQuery: Sendable, Hashable {
    /// Which articles.
    public enum Filter: Sendable, Hashable {
        /// Every article outside the trash.
        case all
        /// Starred articles.
        case favorites
        /// The articles of the folder with this name.
        case folder(String)
        /// Articles with no folder.
        case unfiled
        /// The articles that carry the tag with this name.
        case tag(String)
        /// The articles in the trash.
        case trash
    }

    /// In what order.
    public enum Order: Sendable, Hashable {
        /// Most recently changed first; in the trash, most recently trashed first.
        case updated
        /// Newest first.
        case created
        /// By title, ignoring case and accents.
        case title
        /// Best match first while searching (then most recently changed); by ``updated`` otherwise.
        case relevance
    }

    /// Which articles.
    public var filter: Filter
    /// Words to find in titles and bodies (each as a prefix), with `tag:NAME` and `status:NAME`
    /// words that narrow the list (``SearchTerms``); blank for no search.
    public var searchText: String
    /// Only articles of this status (the sidebar's status filter), on top of ``filter``; nil for any.
    public var status: ArticleStatus?
    /// The order.
    public var order: Order
    /// At most this many (0: all).
    public var limit: Int

    /// A query; by default every article outside the trash, most recently changed first.
    public init(filter: Filter = .all, searchText: String = "", status: ArticleStatus? = nil, order: Order = .updated, limit: Int = 0) {
        self.filter = filter
        self.searchText = searchText
        self.status = status
        self.order = order
        self.limit = limit
    }

    /// Whether the query searches (its text holds a word, a tag or a status).
    public var isSearching: Bool { searchesText || SearchTerms(searchText).hasFilters }

    /// Whether the query's text holds a word for the full-text search.
    var searchesText: Bool { !FullTextQuery(SearchTerms(searchText).text).isEmpty }

    /// The condition.
    public var predicate: FetchPredicate<StoredArticle> {
        var predicate: FetchPredicate<StoredArticle>
        switch filter {
        case .all: predicate = .isNil(\.trashed)
        case .favorites: predicate = \.isFavorite == true && .isNil(\.trashed)
        case .folder(let name): predicate = \.folder?.name == name && .isNil(\.trashed)
        case .unfiled: predicate = .isNil(\.folder) && .isNil(\.trashed)
        case .tag(let name): predicate = .any(\.tags, \.name == name) && .isNil(\.trashed)
        case .trash: predicate = .isNotNil(\.trashed)
        }
        if let status { predicate = \.status == status && predicate }
        let terms = SearchTerms(searchText)
        if terms.hasUnknownStatus { return .none }
        if !terms.statuses.isEmpty { predicate = .in(\.status, terms.statuses) && predicate }
        for tag in terms.tags { predicate = .any(\.tags, \.name == tag) && predicate }
        // Blank text searches nothing: the list shows the filter's articles.
        if !terms.text.allSatisfy(\.isWhitespace) {
            predicate = .matches(FullTextQuery(terms.text)) && predicate
        }
        return predicate
    }

    /// The order, as sort descriptors.
    public var sortDescriptors: [FetchSortDescriptor<StoredArticle>] {
        switch order {
        case .updated where filter == .trash: return [.descending(\.trashed), .descending(\.updated)]
        case .updated: return [.descending(\.updated)]
        case .created: return [.descending(\.created)]
        case .title: return [.ascending(\.sortTitle), .descending(\.created)]
        case .relevance: return searchesText ? [.relevance, .descending(\.updated)] : [.descending(\.updated)]
        }
    }

    /// The fetch request for the query; the app's list sets a batch size on it.
    public var fetchRequest: FetchRequest<StoredArticle> {
        FetchRequest(predicate: predicate, sortDescriptors: sortDescriptors, fetchLimit: limit)
    }
}
