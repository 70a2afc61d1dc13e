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
        // libyaml reads the YAML front matter of imported Markdown files.
        .systemLibrary(
            name: "CYAML", pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]),
        // enchant-2 with Debian's hunspell dictionaries, for spell checking (Spelling imports it).
        .systemLibrary(
            name: "CEnchant", pkgConfig: "enchant-2",
            providers: [.apt(["libenchant-2-dev"])]),
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(
            name: "CPostgres", pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]),
        // GLib alone (no GTK), for what the platform layer takes from it: durable file writes, the
        // user's data folder.
        .systemLibrary(
            name: "CGLib", pkgConfig: "glib-2.0",
            providers: [.apt(["libglib2.0-dev"])]),
        .systemLibrary(
            name: "CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),
        // libsecret's Secret Service client, with a few inline helpers (its variadic calls and
        // schema do not import into Swift).
        .systemLibrary(
            name: "CSecret", pkgConfig: "libsecret-1",
            providers: [.apt(["libsecret-1-dev"])]),
        // libcurl, for the one request path URLSession cannot take on Linux: a server certified
        // by a CA file of the writer's (FoundationNetworking has no way to be given one).
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        // sd_notify, for quire-server as a systemd Type=notify service.
        .systemLibrary(
            name: "CSystemd", pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]),
        .systemLibrary(
            name: "CPangoCairo", pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev", "libcairo2-dev", "libfontconfig-dev"])]),
        // librsvg and gdk-pixbuf, for the images a PDF export draws; only Transfer imports it.
        .systemLibrary(
            name: "CRsvg", pkgConfig: "librsvg-2.0",
            providers: [.apt(["librsvg2-dev", "libgdk-pixbuf-2.0-dev"])]),
        // WebKitGTK 6.0 (GTK 4), for the article preview; only GtkWebKit imports it.
        .systemLibrary(
            name: "CWebKit", pkgConfig: "webkitgtk-6.0",
            providers: [.apt(["libwebkitgtk-6.0-dev"])]),

        // MARK: Platform

        // Beneath every Swift target: durable file writes, the user's data folder, SHA-256, a
        // seeded generator. Knows nothing of stores, articles, GTK or the network.
        .target(name: "Platform", dependencies: ["CGLib", "CCrypto"], exclude: ["README.md"]),
        // The command-line reader of quire and quire-server (the standard library alone).
        .target(name: "CommandLineArguments", dependencies: ["Platform"], exclude: ["README.md"]),

        // MARK: Persistence

        // The object-graph framework: schema, store, contexts, fetching. Knows nothing of articles.
        .target(name: "ObjectGraph", dependencies: ["Platform", "CSQLite"], exclude: ["README.md"]),

        // C, for tests only: a SQLite VFS that makes writes fail as on a full disk (fault injection).
        .target(name: "CStoreFaults", dependencies: ["CSQLite"]),

        // MARK: Sync protocol

        // Codable wire types shared by the sync client and the server; Foundation only.
        .target(name: "SyncProtocol"),

        // MARK: Domain

        // The domain: the library schema on ObjectGraph, the writer's operations (each edit and its
        // outbox operation in one save), search, draft recovery, conflicts, merge, the Markdown
        // document model (cmark-gfm, YAML front matter), the store side of export and import.
        .target(
            name: "Library", dependencies: ["Platform", "ObjectGraph", "SyncProtocol", "CMark", "CYAML"], exclude: ["README.md"]),
        // Export and import files: Markdown, HTML (and the preview's page), PDF typeset with Pango
        // and Cairo, the JSON archive; above Library, so that only what exports or imports links
        // Pango, Cairo and fontconfig.
        .target(name: "Transfer", dependencies: ["Library", "CPangoCairo", "CRsvg"], exclude: ["README.md"]),

        // MARK: Server

        // HTTP on libmicrohttpd, storage on SQLite or PostgreSQL with its own SQL.
        .target(
            name: "SyncServer",
            dependencies: ["Platform", "SyncProtocol", "CMicroHTTPD", "CSQLite", "CPostgres"],
            exclude: ["README.md"]),

        // MARK: Sync client

        // The sync worker: outbox entries and their coalescing, the per-operation state machine,
        // the retry policy, the HTTP transport on URLSession, and the worker that ties them to the
        // library store (push, pull, conflicts, lease, status), with the account settings.
        .target(name: "SyncClient", dependencies: ["Platform", "SyncProtocol", "Library", "ObjectGraph", "CSecret", "CCurl"], exclude: ["README.md"]),

        // MARK: Spelling

        // Spell checking on enchant-2: installed dictionaries, words checked and suggested, and
        // which parts of a Markdown text are prose to check. Knows nothing of GTK or the library.
        .target(name: "Spelling", dependencies: ["CEnchant"], exclude: ["README.md"]),

        // MARK: GTK binding and the app

        // C: what Swift cannot import from GLib and GTK (fundamental types, instance macros).
        .target(name: "GtkShim", dependencies: ["CGtk"]),
        .target(name: "GtkKit", dependencies: ["CGtk", "GtkShim", "Platform", "ObjectGraph"], exclude: ["README.md"]),
        // Typed Swift over WebKitGTK, beside GtkKit rather than inside it: WebKit, JavaScriptCore,
        // libsoup and GStreamer (some 80 MB of libraries) load only into programs that show a web
        // view (the app), not into every GtkKit user (GtkKit's tests, tools).
        .target(name: "GtkWebKit", dependencies: ["GtkKit", "CGtk", "CWebKit"], exclude: ["README.md"]),
        // The .ui files and icons are compiled into a GResource bundle and embedded in the code.
        // QuireUI reaches GTK through GtkKit (and WebKit through GtkWebKit) only; CGtkSource is for
        // GtkSourceView in Editor/.
        .target(
            name: "QuireUI", dependencies: ["Platform", "GtkKit", "GtkWebKit", "Library", "Transfer", "ObjectGraph", "SyncClient", "SyncProtocol", "Spelling", "CGtkSource"],
            exclude: ["README.md"], plugins: ["CompileGResources"]),

        // MARK: Executables

        .executableTarget(name: "quire", dependencies: ["CommandLineArguments", "Platform", "QuireUI", "GtkKit", "Library", "Transfer", "ObjectGraph", "SyncClient"]),
        .executableTarget(name: "quire-server", dependencies: ["CommandLineArguments", "Platform", "SyncServer", "CSystemd"]),
        .executableTarget(
            name: "quire-bench", dependencies: ["Platform", "ObjectGraph", "SyncProtocol", "SyncServer", "SyncClient", "Library", "Transfer", "Spelling", "CEnchant", "CSQLite", "CPostgres", "CRsvg"],
            exclude: ["README.md"]),

        // MARK: Build tools

        .executableTarget(name: "gresource-embed"),
        .plugin(
            name: "CompileGResources", capability: .buildTool(),
            dependencies: ["gresource-embed"], path: "Sources/CompileGResources"),

        // MARK: Tests

        // What test targets share: temporary folders, programs run to their end and the test
        // binary run again as a child process, blocking work kept off the tasks' threads, polling,
        // scratch mounts, loopback sockets, the built executables, the sync API document, query
        // plans. Foundation and SQLite's C API only, so that no test links more than it tests.
        .target(name: "QuireTestSupport", dependencies: ["CSQLite"], path: "Tests/QuireTestSupport", exclude: ["README.md"]),
        // An in-process quire-server on loopback for the tests of its clients (SyncClientTests,
        // QuireUITests), apart from QuireTestSupport so that tests of ObjectGraph link no server.
        .target(
            name: "SyncTestSupport", dependencies: ["SyncServer", "SyncClient"], path: "Tests/SyncTestSupport",
            exclude: ["README.md"]),
        .testTarget(name: "PlatformTests", dependencies: ["Platform", "QuireTestSupport"]),
        .testTarget(name: "ObjectGraphTests", dependencies: ["Platform", "ObjectGraph", "CSQLite", "CStoreFaults", "QuireTestSupport"]),
        .testTarget(name: "SyncProtocolTests", dependencies: ["SyncProtocol"]),
        .testTarget(name: "CommandLineArgumentsTests", dependencies: ["CommandLineArguments"]),
        .testTarget(name: "SpellingTests", dependencies: ["Spelling"]),
        // Depends on quire-server so that the executable the process tests spawn is built with them,
        // and on quire for the clients of the scale-out reference test.
        .testTarget(name: "SyncServerTests", dependencies: ["Platform", "SyncProtocol", "SyncServer", "quire-server", "quire", "QuireTestSupport"]),
        // Runs the transport and the worker against an in-process quire-server, directly and through
        // a fault proxy; depends on quire so that the `quire sync` processes the tests kill exist.
        .testTarget(
            name: "SyncClientTests", dependencies: ["Platform", "SyncClient", "SyncProtocol", "SyncServer", "Library", "ObjectGraph", "quire", "QuireTestSupport", "SyncTestSupport"]),
        // Depends on quire so that the executable the verb tests run is built with them.
        .testTarget(
            name: "LibraryTests",
            dependencies: ["Platform", "Library", "Transfer", "ObjectGraph", "SyncProtocol", "quire", "CSQLite", "CStoreFaults", "QuireTestSupport", "CRsvg"],
            exclude: ["Fixtures"]),
        // The GTK test base (GtkTestCase: GTK under Xvfb, the main loop, temporary folders,
        // screenshots), apart from QuireTestSupport so that no test of the server or ObjectGraph
        // links GTK.
        .target(name: "GtkTestSupport", dependencies: ["GtkKit", "CGtk"], path: "Tests/GtkTestSupport", exclude: ["README.md"]),
        .testTarget(name: "GtkKitTests", dependencies: ["Platform", "GtkKit", "GtkShim", "CGtk", "ObjectGraph", "GtkTestSupport"]),
        .testTarget(name: "GtkWebKitTests", dependencies: ["GtkWebKit", "GtkKit", "GtkTestSupport"]),
        .testTarget(
            name: "QuireUITests",
            dependencies: ["QuireUI", "GtkKit", "GtkWebKit", "CGtk", "CGtkSource", "Library", "Transfer", "ObjectGraph", "SyncClient", "SyncServer", "quire", "CommandLineArguments", "CStoreFaults", "QuireTestSupport", "GtkTestSupport", "SyncTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
