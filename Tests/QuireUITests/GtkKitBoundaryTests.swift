import Foundation
import XCTest

/// QuireUI talks to GTK through GtkKit's typed widgets (DESIGN.md, "Layers"): no QuireUI file
/// imports `CGtk` or `GtkShim`, and C calls in QuireUI are GtkSourceView's alone (`gtk_source_`,
/// through `CGtkSource`, in the editor's folder), which GtkKit does not wrap. A source scan: it
/// needs no display.
///
/// When it fails, add what the file needs to GtkKit (a typed wrapper in GtkKit's style) and call
/// that instead.
final class GtkKitBoundaryTests: XCTestCase {
    private static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Sources/QuireUI")

    /// Every Swift file of QuireUI, with its path inside the package and its lines.
    private static func quireUIFiles() throws -> [(path: String, lines: [Substring])] {
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return try files.sorted { $0.path < $1.path }.map { file in
            let text = try String(contentsOf: file, encoding: .utf8)
            let path = "Sources/QuireUI" + file.path.dropFirst(sources.path.count)
            return (path, text.split(separator: "\n", omittingEmptySubsequences: false))
        }
    }

    func testQuireUIImportsNoCModuleButGtkSourceView() throws {
        let files = try Self.quireUIFiles()
        XCTAssertGreaterThan(files.count, 20, "the scan found QuireUI's sources")
        let allowed: Set = ["Foundation", "Dispatch", "Glibc", "Synchronization", "Platform", "GtkKit", "GtkWebKit", "Library", "ObjectGraph",
                            "SyncClient", "SyncProtocol", "Spelling", "Transfer", "CGtkSource"]
        for (path, lines) in files {
            for (index, line) in lines.enumerated() {
                let words = line.split(separator: " ")
                guard words.first == "import", words.count == 2 else { continue }
                let module = String(words[1])
                XCTAssertTrue(
                    allowed.contains(module),
                    "\(path):\(index + 1) imports \(module); QuireUI goes through GtkKit's typed widgets (see Sources/GtkKit/README.md)")
                XCTAssertTrue(
                    module != "CGtkSource" || path.hasPrefix("Sources/QuireUI/Editor/"),
                    "\(path):\(index + 1) imports CGtkSource; GtkSourceView is called from Editor/ only (SourceBuffer, EditorSearch)")
            }
        }
    }

    func testQuireUICallsNoGtkFunctionButGtkSourceViewsOwn() throws {
        // CGtkSource's headers bring GTK's along, so a file importing it could call any GTK function.
        let call = try Regex(#"\b(gtk|adw|g|gdk|gsk|pango|cairo)_[a-z0-9_]+\s*\("#)
        for (path, lines) in try Self.quireUIFiles() {
            for (index, line) in lines.enumerated() where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                for match in line.matches(of: call) where !line[match.range].hasPrefix("gtk_source_") {
                    XCTFail("\(path):\(index + 1) calls \(line[match.range].dropLast()) directly; give GtkKit a typed wrapper for it")
                }
            }
        }
    }
}
