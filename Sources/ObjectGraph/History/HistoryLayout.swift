/// The tables of persistent history and of its consumers.
///
/// A transaction row per save or batch operation (the token is an AUTOINCREMENT key, so it only
/// grows and is never reused); a change row per object, except that inserts of consecutive keys
/// share one row (`first_key ... last_key`), so that a batch insert of 100,000 rows records one
/// change; tombstone values as typed SQLite values, one row per preserved attribute; and the
/// last processed token of each named consumer.
enum HistoryLayout {
    static let transactionTable = "og_history_transaction"

    static let statements = [
        """
        CREATE TABLE IF NOT EXISTS og_history_transaction (token INTEGER PRIMARY KEY AUTOINCREMENT, \
        timestamp REAL NOT NULL, author TEXT, context_name TEXT, origin TEXT NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS og_history_change (id INTEGER PRIMARY KEY, token INTEGER NOT NULL, \
        entity TEXT NOT NULL, kind INTEGER NOT NULL, first_key INTEGER NOT NULL, last_key INTEGER NOT NULL, properties TEXT)
        """,
        "CREATE INDEX IF NOT EXISTS og_history_change_token ON og_history_change (token)",
        """
        CREATE TABLE IF NOT EXISTS og_history_tombstone (change INTEGER NOT NULL, name TEXT NOT NULL, value, \
        PRIMARY KEY (change, name)) WITHOUT ROWID
        """,
        "CREATE TABLE IF NOT EXISTS og_history_consumer (name TEXT PRIMARY KEY NOT NULL, token INTEGER NOT NULL)",
    ]

    /// Change kinds as stored.
    enum Kind: Int64 {
        case insert = 1
        case update = 2
        case delete = 3
    }

    /// Creates the tables in their own transaction.
    static func create(_ connection: SQLiteConnection) throws {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            for statement in statements { try connection.execute(statement) }
            try connection.execute("COMMIT")
        } catch {
            // The error being thrown is what matters; ROLLBACK only fails without a transaction.
            if connection.isInTransaction { try? connection.execute("ROLLBACK") }
            throw error
        }
    }
}
