/// What one write transaction records besides its rows: its persistent-history transaction, the
/// history consumer tokens it advances, and work to run once it has committed.
///
/// `PersistentStore.write` makes one per transaction and writes the history and tokens just
/// before COMMIT, so they can never disagree with the rows.
final class StoreTransaction {
    /// The history being recorded; nil when the store keeps no history.
    var history: HistoryEntry?
    /// Consumer tokens to store, by consumer name.
    var consumerTokens: [String: HistoryToken] = [:]
    /// The token of the recorded history transaction, once written.
    private(set) var token: HistoryToken?
    /// Which of the store's commits this was, once committed (``PersistentStore/holdsLatest(_:)``).
    var commit = 0
    private var afterCommit: [() -> Void] = []
    /// Binary values the save replaced by references to their files, put back if it fails
    /// (`ManagedObjectContext+ExternalBinaries`).
    var externalizedValues: [(object: ManagedObject, slot: Int, value: PrimitiveValue)] = []

    init(author: String? = nil, contextName: String? = nil) {
        history = HistoryEntry(author: author, contextName: contextName)
    }

    /// Runs `body` after the commit, still inside the store's lock, so that work for several
    /// transactions is started in commit order.
    func onCommit(_ body: @escaping () -> Void) {
        afterCommit.append(body)
    }

    func finish(_ connection: SQLiteConnection, store: PersistentStore) throws {
        if let history, !history.isEmpty, store.recordsHistory {
            token = try history.write(connection, origin: store.origin)
        }
        for (name, token) in consumerTokens.sorted(by: { $0.key < $1.key }) {
            try HistoryConsumer.store(token, for: name, connection)
        }
    }

    func runAfterCommit() {
        for body in afterCommit { body() }
    }
}
