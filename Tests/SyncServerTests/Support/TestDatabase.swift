import Foundation
@testable import SyncServer

/// The storage engines the shared suite runs on.
enum StorageKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case sqlite
    case postgres

    var description: String { rawValue }
}

/// A fresh, empty database for one test: a temporary folder for SQLite, a schema of its own in
/// the test PostgreSQL for PostgreSQL. `remove()` deletes it.
struct TestDatabase: Sendable {
    let kind: StorageKind
    let location: StorageLocation
    /// The folder that holds the SQLite database, logs and anything else of the test.
    let folder: URL
    private let schema: String?

    /// The variable `meson-helpers/test.sh` sets from `start-postgres.sh`.
    static let postgresVariable = "QUIRE_TEST_POSTGRES_URL"

    init(_ kind: StorageKind) throws {
        self.kind = kind
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-server-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        switch kind {
        case .sqlite:
            location = .sqlite(directory: folder.appendingPathComponent("data"))
            schema = nil
        case .postgres:
            let base = try Self.postgresURL()
            let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            try PostgresConnection(url: base).execute("CREATE SCHEMA \(name)")
            let separator = base.contains("?") ? "&" : "?"
            location = .postgres(url: "\(base)\(separator)options=-csearch_path%3D\(name)")
            schema = name
        }
    }

    /// The test PostgreSQL's URL, or an error that says how to get one: a missing PostgreSQL
    /// must fail these tests loudly, never let them pass.
    static func postgresURL() throws -> String {
        guard let url = ProcessInfo.processInfo.environment[postgresVariable], !url.isEmpty else {
            throw MissingPostgres()
        }
        return url
    }

    func open(serving: Bool = false) throws -> any SyncStorage {
        try location.open(serving: serving, connections: 4)
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
        if let schema, let base = try? Self.postgresURL() {
            _ = try? PostgresConnection(url: base).execute("DROP SCHEMA \(schema) CASCADE")
        }
    }
}

struct MissingPostgres: Error, CustomStringConvertible {
    var description: String {
        "\(TestDatabase.postgresVariable) is not set: the PostgreSQL tests cannot run. Start a test database with "
            + "`./meson-helpers/start-postgres.sh` and export its URL, or run `./meson-helpers/test.sh`."
    }
}
