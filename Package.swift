// swift-tools-version:6.0
import PackageDescription

/// Quire's targets follow the layers of DESIGN.md: each target depends only on targets above it.
let package = Package(
    name: "Quire",
    products: [
        .executable(name: "quire-bench", targets: ["quire-bench"]),
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
            name: "CPangoCairo", pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev", "libcairo2-dev", "libfontconfig-dev"])]),

        // MARK: Libraries

        .target(name: "ObjectGraph", dependencies: ["CSQLite"], exclude: ["README.md"]),

        // MARK: Executables

        .executableTarget(name: "quire-bench", dependencies: ["ObjectGraph", "CSQLite"]),

        // MARK: Tests

        .testTarget(name: "ObjectGraphTests", dependencies: ["ObjectGraph", "CSQLite"]),
    ],
    swiftLanguageModes: [.v6]
)
