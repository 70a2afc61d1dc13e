/// The tables both engines share, and their version.
///
/// The change feed is the `revisions` table: one row per committed change, keyed by the account's
/// cursor. `accounts.head` is the last cursor assigned; the write transaction locks the account,
/// increments it and inserts the revision, so cursors commit in order and a reader never sees a
/// later cursor before an earlier one. An article's revision is the cursor of the change that made
/// it, which keeps revisions unique per article forever, even across delete and re-create.
///
/// Tokens: an account has any number of named tokens (one per device), each stored as its
/// SHA-256. `accounts.token_hash` is the hash of the token `account add` made; it stays only
/// because version 1 required it, and authentication reads `tokens`.
enum StorageSchema {
    /// Bumped by every change to the tables below; a server refuses a newer database.
    /// 1: accounts, revisions, articles, operations. 2: tokens, rate_buckets. 3: `revisions.language`.
    /// 4: blobs. 5: `blobs.wanted_at`, for collecting blobs no article refers to any more.
    static let version = 5

    static func statements(_ dialect: SQLDialect) -> [String] {
        let id = "TEXT\(dialect.bytewiseCollation) NOT NULL"
        return [
            """
            CREATE TABLE IF NOT EXISTS accounts (
                \(dialect.identityColumn),
                name TEXT NOT NULL UNIQUE,
                token_hash TEXT NOT NULL UNIQUE,
                created_at BIGINT NOT NULL,
                revoked_at BIGINT,
                head BIGINT NOT NULL DEFAULT 0,
                horizon BIGINT NOT NULL DEFAULT 0)
            """,
            """
            CREATE TABLE IF NOT EXISTS revisions (
                account_id BIGINT NOT NULL REFERENCES accounts (id),
                cursor BIGINT NOT NULL,
                article_id \(id),
                deleted SMALLINT NOT NULL,
                changed_at BIGINT NOT NULL,
                title TEXT,
                body TEXT,
                folder TEXT,
                tags TEXT,
                status TEXT,
                favorite SMALLINT,
                language TEXT,
                PRIMARY KEY (account_id, cursor))
            """,
            "CREATE INDEX IF NOT EXISTS revisions_by_article ON revisions (account_id, article_id)",
            """
            CREATE TABLE IF NOT EXISTS articles (
                account_id BIGINT NOT NULL REFERENCES accounts (id),
                article_id \(id),
                revision BIGINT NOT NULL,
                deleted SMALLINT NOT NULL,
                changed_at BIGINT NOT NULL,
                PRIMARY KEY (account_id, article_id))
            """,
            "CREATE INDEX IF NOT EXISTS articles_tombstones ON articles (changed_at) WHERE deleted = 1",
            """
            CREATE TABLE IF NOT EXISTS operations (
                account_id BIGINT NOT NULL REFERENCES accounts (id),
                key TEXT NOT NULL,
                fingerprint TEXT NOT NULL,
                method TEXT NOT NULL,
                article_id TEXT NOT NULL,
                claim_id TEXT,
                lease_until BIGINT,
                status INTEGER,
                etag TEXT,
                response TEXT,
                created_at BIGINT NOT NULL,
                completed_at BIGINT,
                PRIMARY KEY (account_id, key))
            """,
            "CREATE TABLE IF NOT EXISTS schema_info (version INTEGER NOT NULL)",
            """
            CREATE TABLE IF NOT EXISTS tokens (
                \(dialect.identityColumn),
                account_id BIGINT NOT NULL REFERENCES accounts (id),
                name TEXT NOT NULL,
                token_hash TEXT NOT NULL UNIQUE,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT,
                revoked_at BIGINT)
            """,
            "CREATE UNIQUE INDEX IF NOT EXISTS tokens_active_name ON tokens (account_id, name) WHERE revoked_at IS NULL",
            """
            CREATE TABLE IF NOT EXISTS rate_buckets (
                account_id BIGINT PRIMARY KEY REFERENCES accounts (id),
                available_micro BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                admitted SMALLINT NOT NULL)
            """,
            // Blobs, per account: the same bytes uploaded by two accounts are two rows, so that
            // nothing one account does can tell whether another holds them. Attachments are
            // mostly compressed images: PostgreSQL stores them out of line without trying to
            // compress them again (`STORAGE EXTERNAL`). `wanted_at` is the last time the account
            // uploaded it, asked for it with `HEAD` or sent an article referring to it: the purge
            // collects blobs no revision refers to only a grace period after that.
            """
            CREATE TABLE IF NOT EXISTS blobs (
                account_id BIGINT NOT NULL REFERENCES accounts (id),
                sha256 TEXT NOT NULL,
                size BIGINT NOT NULL,
                bytes \(dialect.bytesType) NOT NULL,
                created_at BIGINT NOT NULL,
                wanted_at BIGINT,
                PRIMARY KEY (account_id, sha256))
            """,
        ] + (dialect == .postgres ? ["ALTER TABLE blobs ALTER COLUMN bytes SET STORAGE EXTERNAL"] : [])
    }

    /// Steps from an older version to the next, run after the tables above exist.
    private static func upgrade(from found: Int64, _ connection: any SQLConnection) throws {
        if found < 2 {
            // Each account's one token becomes its first named token, revoked with the account.
            try connection.execute("""
                INSERT INTO tokens (account_id, name, token_hash, created_at, revoked_at)
                SELECT id, 'default', token_hash, created_at, revoked_at FROM accounts
                """)
        }
        if found < 3 {
            try addColumnIfMissing("language TEXT", named: "language", to: "revisions", connection)
        }
        if found < 5 {
            try addColumnIfMissing("wanted_at BIGINT", named: "wanted_at", to: "blobs", connection)
            try connection.execute("UPDATE blobs SET wanted_at = created_at WHERE wanted_at IS NULL")
        }
        try connection.execute("UPDATE schema_info SET version = $1", [.integer(Int64(version))])
    }

    /// Adds a column that a newer version's `CREATE TABLE` already has (a database set back to an
    /// older version may hold it).
    private static func addColumnIfMissing(_ definition: String, named name: String, to table: String, _ connection: any SQLConnection) throws {
        switch connection.dialect {
        case .postgres:
            try connection.execute("ALTER TABLE \(table) ADD COLUMN IF NOT EXISTS \(definition)")
        case .sqlite:
            let found = try connection.first("SELECT count(*) FROM pragma_table_info('\(table)') WHERE name = $1", [.text(name)]) { try $0.integer(0) }
            if found == 0 { try connection.execute("ALTER TABLE \(table) ADD COLUMN \(definition)") }
        }
    }

    /// Creates the tables when they are missing and checks the version of existing ones.
    static func migrate(_ connection: any SQLConnection) throws {
        try connection.transaction(.write) {
            if let lock = connection.dialect.migrationLock { try connection.execute(lock) }
            for statement in statements(connection.dialect) { try connection.execute(statement) }
            let found = try connection.first("SELECT version FROM schema_info", []) { try $0.integer(0) }
            switch found {
            case nil:
                try connection.execute("INSERT INTO schema_info (version) VALUES ($1)", [.integer(Int64(version))])
            case let found? where found > version:
                throw StorageError.incompatibleSchema(found: Int(found), supported: version)
            case let found? where found < version:
                try upgrade(from: found, connection)
            default:
                break
            }
        }
    }
}
