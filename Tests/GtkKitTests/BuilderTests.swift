import CGtk
import GtkTestSupport
import XCTest

@testable import GtkKit

final class BuilderTests: GtkTestCase, @unchecked Sendable {
    private static let definitions = """
        <interface>
          <menu id="menu">
            <section>
              <item><attribute name="label">_Open</attribute><attribute name="action">win.open</attribute></item>
            </section>
            <submenu>
              <attribute name="label">_Export</attribute>
              <item><attribute name="label">_PDF</attribute><attribute name="action">win.export-pdf</attribute></item>
            </submenu>
          </menu>
          <object class="GtkWindow" id="window">
            <property name="title">Drafts</property>
            <child><object class="GtkLabel" id="label"><property name="label">Hello</property></object></child>
          </object>
        </interface>
        """

    func testObjectsAreHandedOutAsTypedWrappers() throws {
        try MainActor.assumeIsolated {
            let builder = try Builder(string: Self.definitions)
            let window = try builder.object("window", as: Window.self)
            XCTAssertEqual(window.title, "Drafts")
            let label = try builder.object("label", as: Widget.self)
            XCTAssertEqual(label.property("label", as: String.self), "Hello")
            let menu = try builder.object("menu", as: MenuModel.self)
            XCTAssertEqual(menu.items, [
                MenuModel.Item(label: "_Open", action: "win.open"),
                MenuModel.Item(label: "_Export", action: nil),
                MenuModel.Item(label: "_PDF", action: "win.export-pdf"),
            ])
            window.destroy()
        }
    }

    func testMissingAndMistypedObjectsThrowWithTheirContext() throws {
        try MainActor.assumeIsolated {
            let builder = try Builder(string: Self.definitions)
            XCTAssertThrowsError(try builder.object("nothing", as: Widget.self)) { error in
                XCTAssertEqual(error as? BuilderError, .missingObject(id: "nothing", source: "a UI string"))
            }
            XCTAssertThrowsError(try builder.object("label", as: Window.self)) { error in
                XCTAssertEqual(
                    error as? BuilderError,
                    .wrongType(id: "label", expected: "GtkWindow", actual: "GtkLabel", source: "a UI string"))
            }
            try builder.object("window", as: Window.self).destroy()
        }
    }

    func testBrokenDefinitionsAndMissingResourcesThrowGLibErrors() throws {
        try MainActor.assumeIsolated {
            XCTAssertThrowsError(try Builder(string: "<interface><object class=\"NoSuchClass\"/></interface>")) { error in
                let error = error as? GLibError
                XCTAssertEqual(error?.domain, "gtk-builder-error-quark")
                XCTAssertEqual(error?.operation, "loading a UI string")
            }
            XCTAssertThrowsError(try Builder(resource: "/org/quire/GtkKitTests/missing.ui")) { error in
                let error = error as? GLibError
                XCTAssertEqual(error?.domain, "g-resource-error-quark")
                XCTAssertEqual(error?.operation, "loading /org/quire/GtkKitTests/missing.ui")
            }
        }
    }

    func testResourceBundleRegistersFilesForTheBuilder() throws {
        let folder = try makeTemporaryFolder()
        try Self.definitions.write(to: folder.appending(path: "window.ui"), atomically: true, encoding: .utf8)
        try """
            <gresources><gresource prefix="/org/quire/GtkKitTests">
              <file alias="ui/window.ui">window.ui</file>
            </gresource></gresources>
            """.write(to: folder.appending(path: "test.gresource.xml"), atomically: true, encoding: .utf8)
        let bundlePath = folder.appending(path: "test.gresource").path
        try runTool([
            "glib-compile-resources", "--sourcedir=\(folder.path)", "--target=\(bundlePath)",
            folder.appending(path: "test.gresource.xml").path,
        ])
        let encoded = try Data(contentsOf: URL(filePath: bundlePath)).base64EncodedString()

        try MainActor.assumeIsolated {
            let fromFile = try ResourceBundle(contentsOfFile: bundlePath)
            XCTAssertEqual(fromFile.files(under: "/org/quire/GtkKitTests/"), ["/org/quire/GtkKitTests/ui/window.ui"])

            let bundle = try ResourceBundle(base64: encoded)
            XCTAssertTrue(bundle.contains("/org/quire/GtkKitTests/ui/window.ui"))
            XCTAssertFalse(bundle.contains("/org/quire/GtkKitTests/ui/other.ui"))
            XCTAssertThrowsError(try Builder(resource: "/org/quire/GtkKitTests/ui/window.ui"), "not registered yet")
            bundle.register()
            let window = try Builder(resource: "/org/quire/GtkKitTests/ui/window.ui").object("window", as: Window.self)
            XCTAssertEqual(window.title, "Drafts")
            window.destroy()

            XCTAssertThrowsError(try ResourceBundle(base64: "bm90IGEgYnVuZGxl")) { error in
                XCTAssertEqual((error as? GLibError)?.operation, "reading an embedded GResource bundle")
            }
        }
    }

    func testABundleRegisteredFromManyThreadsAtOnceIsRegisteredOnce() throws {
        let folder = try makeTemporaryFolder()
        try "<interface><object class=\"GtkLabel\" id=\"label\"/></interface>"
            .write(to: folder.appending(path: "label.ui"), atomically: true, encoding: .utf8)
        try """
            <gresources><gresource prefix="/org/quire/GtkKitTests/concurrent">
              <file>label.ui</file>
            </gresource></gresources>
            """.write(to: folder.appending(path: "test.gresource.xml"), atomically: true, encoding: .utf8)
        let bundlePath = folder.appending(path: "test.gresource").path
        try runTool([
            "glib-compile-resources", "--sourcedir=\(folder.path)", "--target=\(bundlePath)",
            folder.appending(path: "test.gresource.xml").path,
        ])
        let path = "/org/quire/GtkKitTests/concurrent/label.ui"
        try MainActor.assumeIsolated {
            do {
                let bundle = try ResourceBundle(contentsOfFile: bundlePath)
                DispatchQueue.concurrentPerform(iterations: 16) { _ in bundle.register() }
                XCTAssertTrue(bundle.isVisible)
                XCTAssertNoThrow(try Builder(resource: path))
            }
            // Registered twice, one registration would outlive the bundle's single unregister.
            XCTAssertThrowsError(try Builder(resource: path), "released, the bundle's files are gone")
        }
    }
}
