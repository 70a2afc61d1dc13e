import CommandLineArguments
import GtkKit
import QuireTestSupport
import XCTest

@testable import QuireUI
@testable import quire

/// `quire`'s command line: parsing, and the real binary run without a display.
final class CommandLineTests: QuireTestCase, @unchecked Sendable {
    // MARK: Invocation

    func testWhatTheCommandLineAsksFor() throws {
        func invocation(_ arguments: String...) throws -> Invocation { try Invocation(arguments: ["quire"] + arguments) }

        guard case .application(let arguments, let noLibrary) = try invocation() else { return XCTFail("no arguments open the window") }
        XCTAssertEqual(arguments, ["quire"])
        XCTAssertNil(noLibrary, "the default library")
        guard case .application(let options, _) = try invocation("--gapplication-service") else {
            return XCTFail("GApplication options open the window")
        }
        XCTAssertEqual(options, ["quire", "--gapplication-service"])
        guard case .application(let withoutLibrary, let library) = try invocation("--library", "/tmp/a.quire", "--gapplication-service") else {
            return XCTFail("--library opens the window")
        }
        XCTAssertEqual(withoutLibrary, ["quire", "--gapplication-service"], "GApplication does not see --library")
        XCTAssertEqual(library?.path, "/tmp/a.quire")
        guard case .application(_, let joined) = try invocation("--library=/tmp/b.quire") else { return XCTFail("--library=PATH") }
        XCTAssertEqual(joined?.path, "/tmp/b.quire")
        XCTAssertThrowsError(try invocation("--library")) { error in
            XCTAssertEqual(error as? CommandLineError, .missingValue(option: "--library"))
        }
        guard case .version = try invocation("--version") else { return XCTFail("--version") }
        guard case .help = try invocation("--help") else { return XCTFail("--help") }
        guard case .help = try invocation("-h") else { return XCTFail("-h") }
        guard case .verb(let verb, let verbArguments) = try invocation("help", "help") else { return XCTFail("a verb") }
        XCTAssertTrue(verb == HelpVerb.self)
        XCTAssertEqual(verbArguments, ["help"])
        guard case .verbHelp(let asked) = try invocation("help", "--help") else { return XCTFail("VERB --help") }
        XCTAssertTrue(asked == HelpVerb.self)
        guard case .verb(_, let afterTerminator) = try invocation("help", "--", "--help") else {
            return XCTFail("--help after -- is an argument")
        }
        XCTAssertEqual(afterTerminator, ["--", "--help"])
        XCTAssertThrowsError(try invocation("publish")) { error in
            XCTAssertEqual(error as? CommandLineError, .unknownVerb("publish"))
        }
    }

    func testHelpListsEveryVerbOnce() {
        let names = Verbs.all.map { $0.name }
        XCTAssertEqual(Set(names).count, names.count, "verb names are unique")
        let overview = HelpText.overview()
        for verb in Verbs.all {
            XCTAssertTrue(overview.contains(verb.name), verb.name)
            XCTAssertTrue(overview.contains(verb.summary), verb.summary)
        }
        XCTAssertEqual(HelpText.usage(of: HelpVerb.self), "Usage: quire help [VERB]\n\n\(HelpVerb.summary).")
    }

    // MARK: The binary, without a display

    /// No display at all: if anything initialized GTK here, the program would abort.
    private static let noDisplay: [String: String?] = ["DISPLAY": nil, "WAYLAND_DISPLAY": nil]

    func testVersionAndHelpRunWithoutADisplay() throws {
        let version = try ProgramRun(Self.quireExecutable, ["--version"], environment: Self.noDisplay)
        XCTAssertEqual(version.status, 0, version.error)
        XCTAssertEqual(version.output, "quire \(Quire.version)\n")

        let help = try ProgramRun(Self.quireExecutable, ["--help"], environment: Self.noDisplay)
        XCTAssertEqual(help.status, 0, help.error)
        XCTAssertEqual(help.output, HelpText.overview() + "\n")

        let verbHelp = try ProgramRun(Self.quireExecutable, ["help", "help"], environment: Self.noDisplay)
        XCTAssertEqual(verbHelp.status, 0, verbHelp.error)
        XCTAssertEqual(verbHelp.output, HelpText.usage(of: HelpVerb.self) + "\n")

        let viaOption = try ProgramRun(Self.quireExecutable, ["help", "--help"], environment: Self.noDisplay)
        XCTAssertEqual(viaOption.output, verbHelp.output)
    }

    func testUsageErrorsExitWith2AndSayWhy() throws {
        let unknownVerb = try ProgramRun(Self.quireExecutable, ["publish"], environment: Self.noDisplay)
        XCTAssertEqual(unknownVerb.status, 2)
        XCTAssertEqual(unknownVerb.output, "")
        XCTAssertTrue(unknownVerb.error.contains("'publish' is not a quire verb"), unknownVerb.error)

        let unknownOption = try ProgramRun(Self.quireExecutable, ["help", "--verbose"], environment: Self.noDisplay)
        XCTAssertEqual(unknownOption.status, 2)
        XCTAssertTrue(unknownOption.error.contains("quire help: unknown option '--verbose'"), unknownOption.error)

        let unknownTopic = try ProgramRun(Self.quireExecutable, ["help", "publish"], environment: Self.noDisplay)
        XCTAssertEqual(unknownTopic.status, 2)
        XCTAssertTrue(unknownTopic.error.contains("'publish' is not a quire verb"), unknownTopic.error)
    }

    // MARK: The binary, with the display of the tests

    func testScreenshotEnvironmentVariableWritesThePNGAndExitsZero() throws {
        let folder = try makeTemporaryFolder()
        let path = folder.appending(path: "quire.png").path
        let result = try ProgramRun(
            Self.quireExecutable, ["--library", folder.appending(path: "library.quire").path],
            environment: [
                "QUIRE_SCREENSHOT": path, "GSETTINGS_SCHEMA_DIR": try Self.schemaFolder.get().path,
                "GSETTINGS_BACKEND": "memory",
            ])
        XCTAssertEqual(result.status, 0, result.error)
        XCTAssertFalse(result.error.contains("not installed"), "the schema was found: \(result.error)")
        XCTAssertTrue(try PNGCheck.hasSignature(path))
        try MainActor.assumeIsolated {
            let image = try Texture(contentsOfFile: path)
            XCTAssertGreaterThan(image.width, 300)
            XCTAssertGreaterThan(image.height, 200)
            XCTAssertGreaterThan(Set(image.pixels()).count, 16)
        }
    }

    func testASecondQuireHandsOverToTheFirstAndQuitIsAnAction() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("needs a session bus: run under dbus-run-session (meson-helpers/test.sh does)")
        }
        let folder = try makeTemporaryFolder()
        let environment: [String: String?] = [
            "GSETTINGS_SCHEMA_DIR": try Self.schemaFolder.get().path, "GSETTINGS_BACKEND": "memory",
        ]
        let library = folder.appending(path: "library.quire").path
        let first = Process()
        first.executableURL = Self.quireExecutable
        first.arguments = ["--library", library]
        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment { variables[name] = value }
        first.environment = variables
        first.standardError = FileHandle.nullDevice
        try first.run()
        defer { if first.isRunning { first.terminate() } }

        // The first instance owns the application id on the session bus once it is up.
        try waitUntil("the first quire owns \(Quire.applicationID)") {
            let reply = try ProgramRun(URL(filePath: "/usr/bin/env"), [
                "gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                "--method", "org.freedesktop.DBus.NameHasOwner", Quire.applicationID,
            ])
            return reply.output.contains("true")
        }

        // A second quire activates the first and exits at once, without opening a window of its own.
        let screenshot = folder.appending(path: "second.png").path
        let second = try ProgramRun(
            Self.quireExecutable, ["--library", library], environment: environment.merging(["QUIRE_SCREENSHOT": screenshot]) { $1 })
        XCTAssertEqual(second.status, 0, second.error)
        XCTAssertFalse(FileManager.default.fileExists(atPath: screenshot), "the second instance drew nothing")
        XCTAssertTrue(first.isRunning)

        // app.quit, reached over D-Bus like any GAction, closes the window and ends the first.
        let quit = try ProgramRun(URL(filePath: "/usr/bin/env"), [
            "gdbus", "call", "--session", "--dest", Quire.applicationID,
            "--object-path", "/" + Quire.applicationID.replacingOccurrences(of: ".", with: "/"),
            "--method", "org.gtk.Actions.Activate", "quit", "[]", "{}",
        ])
        XCTAssertEqual(quit.status, 0, quit.error)
        try waitUntil("the first quire exits") { !first.isRunning }
        XCTAssertEqual(first.terminationStatus, 0)
    }
}
