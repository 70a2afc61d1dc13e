import CPostgres
import CSQLite
import Foundation
import Glibc
import SyncProtocol
import SyncServer

/// `quire-bench server`: PUTs and change-feed pages per second through `quire-server` on loopback
/// with 1, 8 and 32 concurrent connections, on SQLite and on PostgreSQL, each against the same
/// durable commits or page reads done raw through the C library in the same run.
///
/// The server runs in this process with its default configuration (8 threads) but no rate limit;
/// the client is a keep-alive HTTP/1.1 connection per worker thread. PostgreSQL needs
/// `QUIRE_BENCH_POSTGRES_URL` or `QUIRE_TEST_POSTGRES_URL` (`meson-helpers/start-postgres.sh`);
/// without it the PostgreSQL figures are left out with a warning.
struct ServerSuite: BenchmarkSuite {
    static let name = "server"
    static let summary = "quire-server on loopback: PUT/s and change pages/s, SQLite and PostgreSQL"
    /// PUTs per repetition, shared among the connections.
    static let defaultRows = 2000

    static let concurrencies = [1, 8, 32]
    static let pageReaders = 8
    static let pageSize = 100
    /// About a kilobyte of Markdown, an ordinary autosaved draft.
    static let content = ArticlePayload(
        title: "Benchmark draft", body: String(repeating: "A sentence of an ordinary draft, autosaved.\n", count: 24),
        folder: "Drafts", tags: ["bench"], status: .draft, favorite: false)

    static func run(_ options: BenchmarkOptions) async throws -> [BenchmarkResult] {
        let folder = options.workDirectory.appendingPathComponent("sqlite")
        var results = try measureServer(.sqlite(directory: folder), engine: "sqlite",
                                        raw: try RawSQLite(path: options.workDirectory.appendingPathComponent("raw.sqlite3").path), options)
        let environment = ProcessInfo.processInfo.environment
        guard let url = environment["QUIRE_BENCH_POSTGRES_URL"] ?? environment["QUIRE_TEST_POSTGRES_URL"] else {
            FileHandle.standardError.write(Data("""
                quire-bench server: WARNING: no PostgreSQL (set QUIRE_BENCH_POSTGRES_URL or QUIRE_TEST_POSTGRES_URL, \
                e.g. from meson-helpers/start-postgres.sh); the _postgres figures are left out.

                """.utf8))
            return results
        }
        let schema = "bench_\(getpid())"
        let admin = try RawPostgres.connect(url)
        defer { PQfinish(admin) }
        try RawPostgres.execute(admin, "CREATE SCHEMA \(schema)")
        defer { _ = try? RawPostgres.execute(admin, "DROP SCHEMA \(schema) CASCADE") }
        let scopedURL = url + (url.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
        results += try measureServer(.postgres(url: scopedURL), engine: "postgres", raw: try RawPostgres(url: scopedURL), options)
        return results
    }

    private static func measureServer(_ location: StorageLocation, engine: String, raw: any RawBaseline,
                                      _ options: BenchmarkOptions) throws -> [BenchmarkResult] {
        var configuration = ServerConfiguration()
        configuration.listen = ListenAddress(host: "127.0.0.1", port: 0)
        configuration.rateLimit = nil
        configuration.purgeInterval = 0
        let storage = try location.open(serving: true, connections: configuration.threads)
        let token = AccountToken.generate()
        _ = try storage.addAccount(name: "bench", tokenHash: token.hash, at: Date())
        let server = try QuireServer(configuration: configuration, storage: storage, log: .discarding)
        defer { server.shutdown() }
        let port = server.address.port
        let body = Array(try SyncJSON.encoder().encode(content))
        let rows = options.rows
        var results: [BenchmarkResult] = []

        for concurrency in concurrencies {
            var round = 0
            let milliseconds = try measureMilliseconds(repetitions: options.repetitions) {
                round += 1
                let prefix = "r\(round)-c\(concurrency)"
                try runConcurrently(concurrency) { worker in
                    let connection = try BenchConnection(port: port, token: token.text)
                    var base: Int64?
                    let id = "\(prefix)-w\(worker)"
                    for write in 0..<rows / concurrency {
                        let precondition = base.map { (SyncHeader.ifMatch, RevisionTag.format($0)) } ?? (SyncHeader.ifNoneMatch, "*")
                        let response = try connection.send("PUT", SyncPath.article(id), headers: [
                            precondition, (SyncHeader.idempotencyKey, "\(id)-\(write)"), (SyncHeader.contentType, SyncMediaType.json),
                        ], body: body)
                        guard response.status == 200 || response.status == 201, let revision = RevisionTag.parse(response.eTag) else {
                            throw BenchError("PUT answered \(response.status)")
                        }
                        base = revision
                    }
                }
            }
            let writes = Double(rows / concurrency * concurrency)
            let rawMilliseconds = try raw.commits(rows / concurrency * concurrency, concurrency: concurrency, body: body,
                                                  repetitions: options.repetitions)
            results.append(BenchmarkResult(
                name: "put_per_s_c\(concurrency)_\(engine)", unit: "per_s", value: writes / milliseconds * 1000,
                baseline: "raw_\(engine)_commit", baselineValue: writes / rawMilliseconds * 1000))
        }

        // Every repetition above added `rows` changes four times over, so any cursor below this
        // has a full page after it.
        let feedLength = Int64(rows * options.repetitions)
        let pagesPerReader = max(1, rows / 40)
        let milliseconds = try measureMilliseconds(repetitions: options.repetitions) {
            try runConcurrently(pageReaders) { reader in
                let connection = try BenchConnection(port: port, token: token.text)
                var generator = SystemRandomNumberGenerator()
                for _ in 0..<pagesPerReader {
                    let since = Int64.random(in: 0..<feedLength, using: &generator)
                    let response = try connection.send("GET", SyncPath.changes + "?since=\(since)&limit=\(pageSize)", body: nil)
                    guard response.status == 200, response.body.count > pageSize * 500 else {
                        throw BenchError("changes answered \(response.status) with \(response.body.count) bytes")
                    }
                }
            }
        }
        let pages = Double(pagesPerReader * pageReaders)
        let rawMilliseconds = try raw.pages(pagesPerReader * pageReaders, readers: pageReaders, pageSize: pageSize,
                                            repetitions: options.repetitions)
        results.append(BenchmarkResult(
            name: "changes_pages_per_s_c\(pageReaders)_\(engine)", unit: "per_s", value: pages / milliseconds * 1000,
            baseline: "raw_\(engine)_page", baselineValue: pages / rawMilliseconds * 1000))
        return results
    }
}

/// Runs `body(worker)` on `count` threads at once and rethrows the first error.
private func runConcurrently(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) throws {
    let group = DispatchGroup()
    let firstError = LockedError()
    for worker in 0..<count {
        group.enter()
        Thread {
            defer { group.leave() }
            do { try body(worker) } catch { firstError.record(error) }
        }.start()
    }
    group.wait()
    if let error = firstError.error { throw error }
}

/// The first error of several threads. `@unchecked Sendable`: `stored` is only touched under `lock`.
private final class LockedError: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Error)?

    var error: (any Error)? {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func record(_ error: any Error) {
        lock.lock()
        if stored == nil { stored = error }
        lock.unlock()
    }
}

private struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The same durable work without the server, through the C library, measured in the same run.
private protocol RawBaseline {
    /// Milliseconds (median) for `count` single-row commits of `body` on `concurrency` connections.
    func commits(_ count: Int, concurrency: Int, body: [UInt8], repetitions: Int) throws -> Double
    /// Milliseconds (median) for `count` reads of `pageSize` rows from random positions.
    func pages(_ count: Int, readers: Int, pageSize: Int, repetitions: Int) throws -> Double
}

/// SQLite with the server's settings (WAL, `synchronous = FULL`). It has one writer, so the
/// commits run on one connection whatever the concurrency.
private struct RawSQLite: RawBaseline {
    let path: String

    init(path: String) throws {
        self.path = path
        let database = try open()
        defer { sqlite3_close_v2(database) }
        try exec(database, "CREATE TABLE IF NOT EXISTS bench (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
    }

    func commits(_ count: Int, concurrency: Int, body: [UInt8], repetitions: Int) throws -> Double {
        let database = try open()
        defer { sqlite3_close_v2(database) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, "INSERT INTO bench (body) VALUES (?)", -1, &statement, nil) == SQLITE_OK else {
            throw BenchError(String(cString: sqlite3_errmsg(database)))
        }
        defer { sqlite3_finalize(statement) }
        let text = String(decoding: body, as: UTF8.self)
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        return try measureMilliseconds(repetitions: repetitions) {
            for _ in 0..<count {
                try exec(database, "BEGIN IMMEDIATE")
                sqlite3_bind_text(statement, 1, text, -1, transient)
                guard sqlite3_step(statement) == SQLITE_DONE else { throw BenchError(String(cString: sqlite3_errmsg(database))) }
                sqlite3_reset(statement)
                try exec(database, "COMMIT")
            }
        }
    }

    func pages(_ count: Int, readers: Int, pageSize: Int, repetitions: Int) throws -> Double {
        let connections = try (0..<readers).map { _ in try open() }
        defer { connections.forEach { sqlite3_close_v2($0) } }
        let rows = try countRows(connections[0])
        let handles = connections.map { SendableHandle(pointer: $0) }
        return try measureMilliseconds(repetitions: repetitions) {
            try runConcurrently(readers) { reader in
                let database = handles[reader].pointer
                var statement: OpaquePointer?
                guard sqlite3_prepare_v2(database, "SELECT id, body FROM bench WHERE id > ? ORDER BY id LIMIT ?", -1, &statement, nil) == SQLITE_OK else {
                    throw BenchError(String(cString: sqlite3_errmsg(database)))
                }
                defer { sqlite3_finalize(statement) }
                var generator = SystemRandomNumberGenerator()
                for _ in 0..<count / readers {
                    sqlite3_bind_int64(statement, 1, Int64.random(in: 0..<max(1, rows - Int64(pageSize)), using: &generator))
                    sqlite3_bind_int64(statement, 2, Int64(pageSize))
                    var read = 0
                    while sqlite3_step(statement) == SQLITE_ROW {
                        read += Int(sqlite3_column_bytes(statement, 1)) + Int(sqlite3_column_int64(statement, 0) & 1)
                    }
                    sqlite3_reset(statement)
                    guard read > 0 else { throw BenchError("empty raw page") }
                }
            }
        }
    }

    private func open() throws -> OpaquePointer {
        var database: OpaquePointer?
        guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK,
              let database
        else { throw BenchError("cannot open \(path)") }
        try exec(database, "PRAGMA journal_mode = WAL")
        try exec(database, "PRAGMA synchronous = FULL")
        try exec(database, "PRAGMA busy_timeout = 10000")
        return database
    }

    private func exec(_ database: OpaquePointer, _ sql: String) throws {
        guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchError("\(sql): \(String(cString: sqlite3_errmsg(database)))")
        }
    }

    private func countRows(_ database: OpaquePointer) throws -> Int64 {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, "SELECT MAX(id) FROM bench", -1, &statement, nil) == SQLITE_OK,
              sqlite3_step(statement) == SQLITE_ROW
        else { throw BenchError(String(cString: sqlite3_errmsg(database))) }
        defer { sqlite3_finalize(statement) }
        return sqlite3_column_int64(statement, 0)
    }
}

/// PostgreSQL through libpq: each commit is one autocommitted INSERT, on as many connections as
/// the server had clients.
private struct RawPostgres: RawBaseline {
    let url: String

    init(url: String) throws {
        self.url = url
        let connection = try Self.connect(url)
        defer { PQfinish(connection) }
        try Self.execute(connection, "CREATE TABLE IF NOT EXISTS bench_raw (id BIGSERIAL PRIMARY KEY, body TEXT NOT NULL)")
    }

    static func connect(_ url: String) throws -> OpaquePointer {
        guard let connection = PQconnectdb(url), PQstatus(connection) == CONNECTION_OK else {
            throw BenchError("cannot connect to PostgreSQL")
        }
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        return connection
    }

    static func execute(_ connection: OpaquePointer, _ sql: String, _ parameters: [String] = []) throws {
        let result = try query(connection, sql, parameters)
        PQclear(result)
    }

    static func query(_ connection: OpaquePointer, _ sql: String, _ parameters: [String]) throws -> OpaquePointer {
        let copies = parameters.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        let pointers = copies.map { UnsafePointer($0) }
        guard let result = PQexecParams(connection, sql, Int32(pointers.count), nil, pointers, nil, nil, 0) else {
            throw BenchError(String(cString: PQerrorMessage(connection)))
        }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let message = String(cString: PQresultErrorMessage(result))
            PQclear(result)
            throw BenchError("\(sql): \(message)")
        }
        return result
    }

    func commits(_ count: Int, concurrency: Int, body: [UInt8], repetitions: Int) throws -> Double {
        let connections = try (0..<concurrency).map { _ in SendableHandle(pointer: try Self.connect(url)) }
        defer { connections.forEach { PQfinish($0.pointer) } }
        let text = String(decoding: body, as: UTF8.self)
        return try measureMilliseconds(repetitions: repetitions) {
            try runConcurrently(concurrency) { worker in
                for _ in 0..<count / concurrency {
                    try Self.execute(connections[worker].pointer, "INSERT INTO bench_raw (body) VALUES ($1)", [text])
                }
            }
        }
    }

    func pages(_ count: Int, readers: Int, pageSize: Int, repetitions: Int) throws -> Double {
        let connections = try (0..<readers).map { _ in SendableHandle(pointer: try Self.connect(url)) }
        defer { connections.forEach { PQfinish($0.pointer) } }
        let maximum = try Self.query(connections[0].pointer, "SELECT COALESCE(MAX(id), 0) FROM bench_raw", [])
        let rows = Int64(String(cString: PQgetvalue(maximum, 0, 0))) ?? 0
        PQclear(maximum)
        return try measureMilliseconds(repetitions: repetitions) {
            try runConcurrently(readers) { reader in
                var generator = SystemRandomNumberGenerator()
                for _ in 0..<count / readers {
                    let after = Int64.random(in: 0..<max(1, rows - Int64(pageSize)), using: &generator)
                    let result = try Self.query(connections[reader].pointer,
                                                "SELECT id, body FROM bench_raw WHERE id > $1 ORDER BY id LIMIT $2",
                                                [String(after), String(pageSize)])
                    let read = PQntuples(result)
                    PQclear(result)
                    guard read > 0 else { throw BenchError("empty raw page") }
                }
            }
        }
    }
}

/// A C handle lent to one benchmark thread at a time.
private struct SendableHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// One keep-alive HTTP/1.1 connection over a raw socket: the least a client can cost.
private final class BenchConnection {
    struct Response {
        var status: Int
        var eTag: String?
        var body: [UInt8]
    }

    private let socket: Int32
    private let prefix: String
    private var buffer: [UInt8] = []

    init(port: UInt16, token: String) throws {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var noDelay: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard descriptor >= 0, connected == 0 else {
            close(descriptor)
            throw BenchError("cannot connect to port \(port)")
        }
        socket = descriptor
        prefix = "Host: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\n"
    }

    deinit { close(socket) }

    func send(_ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]?) throws -> Response {
        var lines = "\(method) \(path) HTTP/1.1\r\n\(prefix)"
        for (name, value) in headers { lines += "\(name): \(value)\r\n" }
        if let body { lines += "Content-Length: \(body.count)\r\n" }
        let request = Array((lines + "\r\n").utf8) + (body ?? [])
        var offset = 0
        while offset < request.count {
            let sent = request[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw BenchError("send failed") }
            offset += sent
        }
        var headerEnd = findHeaderEnd()
        while headerEnd == nil {
            try fill()
            headerEnd = findHeaderEnd()
        }
        let head = String(decoding: buffer[0..<headerEnd!], as: UTF8.self)
        var status = 0
        var length = 0
        var eTag: String?
        for (index, line) in head.split(separator: "\r\n").enumerated() {
            if index == 0 {
                status = Int(line.split(separator: " ")[1]) ?? 0
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if name == "content-length" { length = Int(value) ?? 0 }
                if name == "etag" { eTag = value }
            }
        }
        let start = headerEnd! + 4
        while buffer.count < start + length { try fill() }
        let responseBody = Array(buffer[start..<start + length])
        buffer.removeFirst(start + length)
        return Response(status: status, eTag: eTag, body: responseBody)
    }

    private func findHeaderEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw BenchError("connection closed") }
        buffer += chunk[0..<count]
    }
}
