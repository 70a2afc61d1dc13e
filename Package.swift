// swift-tools-version:6.0
import PackageDescription

/// Quire's targets follow the layers of DESIGN.md: each target depends only on targets above it.
let package = Package(
    name: "Quire",
    products: [
        .executable(name: "quire", targets: ["quire"]),
        .executable(name: "quire-bench", targets: ["quire-bench"]),
        .executable(name: "quire-server", targets: ["quire-server"]),
    ],
    targets: [
        // MARK: C libraries from Debian, through pkg-config

        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        // libadwaita-1's pkg-config file requires gtk4 and GLib; GtkSourceView has its own.
        .systemLibrary(
            name: "CGtk", pkgConfig: "libadwaita-1",
            providers: [.apt(["libgtk-4-dev", "libadwaita-1-dev"])]),
        .systemLibrary(
            name: "CGtkSource", pkgConfig: "gtksourceview-5",
            providers: [.apt(["libgtksourceview-5-dev"])]),
        .systemLibrary(
            name: "CMark", pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(
            name: "CPostgres", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]),
        .systemLibrary(
            name: "CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),
        // libsecret's Secret Service client, with a few inline helpers (its variadic calls and
        // schema do not import into Swift).
        .systemLibrary(
            name: "CSecret", pkgConfig: "libsecret-1",
            providers: [.apt(["libsecret-1-dev"])]),
        .systemLibrary(
            name: "CPangoCairo", pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev", "libcairo2-dev", "libfontconfig-dev"])]),
        // WebKitGTK 6.0 (GTK 4), for the article preview; only GtkWebKit imports it.
        .systemLibrary(
            name: "CWebKit", pkgConfig: "webkitgtk-6.0",
            providers: [.apt(["libwebkitgtk-6.0-dev"])]),

        // MARK: Persistence

        // The object-graph framework: schema, store, contexts, fetching. Knows nothing of articles.
        .target(name: "ObjectGraph", dependencies: ["CSQLite", "CCrypto"], exclude: ["README.md"]),

        // C, for tests only: a SQLite VFS that makes writes fail as on a full disk (fault injection).
        .target(name: "CStoreFaults", dependencies: ["CSQLite"]),

        // MARK: Sync protocol

        // Codable wire types shared by the sync client and the server; Foundation only.
        .target(name: "SyncProtocol"),

        // MARK: Domain

        // The domain: the library schema on ObjectGraph, the writer's operations (each edit and its
        // outbox operation in one save), search, draft recovery, conflicts, merge, export, import.
        .target(
            name: "Library", dependencies: ["ObjectGraph", "SyncProtocol", "CMark", "CPangoCairo"], exclude: ["README.md"]),

        // MARK: Server

        // HTTP on libmicrohttpd, storage on SQLite or PostgreSQL with its own SQL.
        .target(
            name: "SyncServer",
            dependencies: ["SyncProtocol", "CMicroHTTPD", "CSQLite", "CPostgres", "CCrypto"],
            exclude: ["README.md"]),

        // MARK: Sync client

        // The sync worker: outbox entries and their coalescing, the per-operation state machine,
        // the retry policy, the HTTP transport on URLSession, and the worker that ties them to the
        // library store (push, pull, conflicts, lease, status), with the account settings.
        .target(name: "SyncClient", dependencies: ["SyncProtocol", "Library", "ObjectGraph", "CSecret"], exclude: ["README.md"]),

        // MARK: GTK binding and the app

        // C: what Swift cannot import from GLib and GTK (fundamental types, instance macros).
        .target(name: "GtkShim", dependencies: ["CGtk"]),
        .target(name: "GtkKit", dependencies: ["CGtk", "GtkShim", "ObjectGraph"], exclude: ["README.md"]),
        // Typed Swift over WebKitGTK, beside GtkKit rather than inside it: WebKit, JavaScriptCore,
        // libsoup and GStreamer (some 80 MB of libraries) load only into programs that show a web
        // view (the app), not into every GtkKit user (GtkKit's tests, tools).
        .target(name: "GtkWebKit", dependencies: ["GtkKit", "CGtk", "CWebKit"], exclude: ["README.md"]),
        // The .ui files and icons are compiled into a GResource bundle and embedded in the code.
        // QuireUI reaches GTK through GtkKit (and WebKit through GtkWebKit) only; CGtkSource is for
        // GtkSourceView in Editor/.
        .target(
            name: "QuireUI", dependencies: ["GtkKit", "GtkWebKit", "Library", "ObjectGraph", "SyncClient", "CGtkSource"],
            exclude: ["README.md"], plugins: ["CompileGResources"]),

        // MARK: Executables

        .executableTarget(name: "quire", dependencies: ["QuireUI", "GtkKit", "Library", "ObjectGraph", "SyncClient"]),
        .executableTarget(name: "quire-server", dependencies: ["SyncServer"]),
        .executableTarget(
            name: "quire-bench", dependencies: ["ObjectGraph", "SyncProtocol", "SyncServer", "SyncClient", "Library", "CSQLite", "CPostgres"]),

        // MARK: Build tools

        .executableTarget(name: "gresource-embed"),
        .plugin(
            name: "CompileGResources", capability: .buildTool(),
            dependencies: ["gresource-embed"], path: "Sources/CompileGResources"),

        // MARK: Tests

        .testTarget(name: "ObjectGraphTests", dependencies: ["ObjectGraph", "CSQLite", "CStoreFaults"]),
        .testTarget(name: "SyncProtocolTests", dependencies: ["SyncProtocol"]),
        // Depends on quire-server so that the executable the process tests spawn is built with them.
        .testTarget(name: "SyncServerTests", dependencies: ["SyncProtocol", "SyncServer", "quire-server"]),
        // Runs the transport and the worker against an in-process quire-server, directly and through
        // a fault proxy; depends on quire so that the `quire sync` processes the tests kill exist.
        .testTarget(
            name: "SyncClientTests", dependencies: ["SyncClient", "SyncProtocol", "SyncServer", "Library", "ObjectGraph", "quire"]),
        // Depends on quire so that the executable the verb tests run is built with them.
        .testTarget(
            name: "LibraryTests",
            dependencies: ["Library", "ObjectGraph", "SyncProtocol", "quire", "CSQLite", "CStoreFaults"],
            exclude: ["Fixtures"]),
        .testTarget(name: "GtkKitTests", dependencies: ["GtkKit", "GtkShim", "CGtk", "ObjectGraph"]),
        .testTarget(name: "GtkWebKitTests", dependencies: ["GtkWebKit", "GtkKit", "CGtk"]),
        .testTarget(
            name: "QuireUITests",
            dependencies: ["QuireUI", "GtkKit", "GtkWebKit", "CGtk", "CGtkSource", "Library", "ObjectGraph", "SyncClient", "SyncServer", "quire", "CStoreFaults"]),
    ],
    swiftLanguageModes: [.v6]
)
