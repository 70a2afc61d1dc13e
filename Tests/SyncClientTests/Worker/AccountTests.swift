import Foundation
import Glibc
import Library
import SyncTestSupport
import Testing
import QuireTestSupport
@testable import SyncClient

/// The account settings: the token in a 0600 file when no Secret Service runs (detected without
/// hanging, whatever the bus), and in the Secret Service keyring (gnome-keyring on a private
/// session bus) when one does, with `quire account` and `quire sync` using it.
@Suite struct AccountTests {
    @Test func withoutASecretServiceTheTokenIsKeptInAFileOnlyTheWriterCanRead() throws {
        let device = try ClientLibrary("account-file")
        defer { device.remove() }
        let settings = AccountSettings(libraryURL: device.library.url, keyring: nil)
        #expect(try settings.load() == nil)
        let account = SyncAccount(server: URL(string: "https://sync.example.org/")!, token: "secret-token_1")
        #expect(try settings.save(account) == .file(settings.fileURL))
        var info = stat()
        #expect(stat(settings.fileURL.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        let loaded = try #require(try settings.load())
        #expect(loaded.account == SyncAccount(server: URL(string: "https://sync.example.org")!, token: "secret-token_1"))
        #expect(loaded.storage == .file(settings.fileURL))

        // A file someone made readable by others is made private again before the token is used.
        #expect(chmod(settings.fileURL.path, 0o644) == 0)
        _ = try settings.load()
        #expect(stat(settings.fileURL.path, &info) == 0 && info.st_mode & 0o777 == 0o600)

        #expect(throws: AccountError.self) { try settings.save(SyncAccount(server: URL(string: "ftp://x")!, token: "t")) }
        try settings.signOut()
        #expect(try settings.load() == nil)
        #expect(!FileManager.default.fileExists(atPath: settings.fileURL.path))
        try settings.signOut()
    }

    @Test func noSessionBusOrABusWithoutTheServiceMeansTheFile() async throws {
        let device = try ClientLibrary("account-detect")
        defer { device.remove() }
        let show = ["account", "show", "--library", device.library.url.path]
        let noBus = try await runQuire(show, environment: ["DBUS_SESSION_BUS_ADDRESS": nil])
        #expect(noBus.status == 0 && noBus.output.contains("would be kept in the file"))
        let deadBus = try await runQuire(show, environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/quire-test-bus"])
        #expect(deadBus.status == 0 && deadBus.output.contains("would be kept in the file"))
        let bus = try SessionBus(activatableServices: false)
        defer { bus.stop() }
        let empty = try await runQuire(show, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        #expect(empty.status == 0 && empty.output.contains("would be kept in the file"))
    }

    @Test func jsonNamesTheServerAndWhereTheTokenIsKeptButNeverTheToken() async throws {
        let device = try ClientLibrary("account-json")
        defer { device.remove() }
        let library = ["--library", device.library.url.path]
        let noBus: [String: String?] = ["DBUS_SESSION_BUS_ADDRESS": nil]
        func object(_ output: String) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(output.utf8), options: [.fragmentsAllowed]) as? [String: Any])
        }
        let settingsFile = AccountSettings(libraryURL: device.library.url, keyring: nil).fileURL.path
        let none = try await runQuire(["account", "show", "--json"] + library, environment: noBus)
        #expect(none.status == 0)
        let empty = try object(none.output)
        #expect(empty["server"] is NSNull && empty["tokenStorage"] as? String == "file" && empty["tokenFile"] as? String == settingsFile)

        let set = try await runQuire(["account", "--json", "set", "--server", "http://192.0.2.7:7740", "--token", "qtk_secret",
                                "--allow-insecure"] + library, environment: noBus)
        #expect(set.status == 0 && !set.output.contains("qtk_secret"))
        let shown = try await runQuire(["account", "show", "--json"] + library, environment: noBus)
        #expect(!shown.output.contains("qtk_secret"))
        let account = try object(shown.output)
        #expect(account["server"] as? String == "http://192.0.2.7:7740")
        #expect(account["certificateAuthority"] is NSNull && account["allowsInsecureHTTP"] as? Bool == true)
        #expect(try object(set.output)["server"] as? String == "http://192.0.2.7:7740")

        let signOut = try await runQuire(["account", "sign-out", "--json"] + library, environment: noBus)
        let signedOut = try object(signOut.output)
        #expect(signOut.status == 0 && signedOut["server"] is NSNull)
    }

    static let keyringDaemon = "/usr/bin/gnome-keyring-daemon"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: keyringDaemon), "gnome-keyring is not installed (TEST_PACKAGES has it)"))
    func aRunningSecretServiceKeepsTheToken() async throws {
        let server = try TestServer()
        defer { server.stop() }
        let token = try server.addAccount()
        let device = try ClientLibrary("account-keyring")
        defer { device.remove() }
        try await device.library.createArticle(ArticleContent(title: "Synced with a keyring token", body: "x\n"))
        let bus = try SessionBus(activatableServices: true)
        defer { bus.stop() }
        let home = device.folder.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let environment: [String: String?] = [
            "DBUS_SESSION_BUS_ADDRESS": bus.address, "HOME": home.path, "XDG_DATA_HOME": home.path + "/data",
            "XDG_RUNTIME_DIR": home.path, "DISPLAY": nil, "WAYLAND_DISPLAY": nil,
        ]
        // A login keyring, unlocked with a password on standard input, answers on the private bus
        // once the launcher exits; it goes away with the bus.
        var keyringEnvironment = ProcessInfo.processInfo.environment
        for (name, value) in environment { keyringEnvironment[name] = value }
        let launched = try await BlockingWork.run { [keyringEnvironment] in
            try runDaemonizing(
                Self.keyringDaemon, ["--unlock", "--components=secrets", "--daemonize"],
                environment: keyringEnvironment, input: "quire-test-password")
        }
        #expect(launched == 0, "gnome-keyring-daemon exited with \(launched)")
        // The daemon may still be claiming its name when the launcher exits (a run under load
        // found none within quire's three-second probe): quire meets a keyring that is there.
        try await BlockingWork.run { try bus.waitUntilOwned("org.freedesktop.secrets") }

        let library = ["--library", device.library.url.path]
        let set = try await runQuire(["account", "set", "--server", "http://127.0.0.1:\(server.port)", "--token-file", "-"] + library,
                               environment: environment, input: token + "\n")
        #expect(set.status == 0 && set.output.contains("Secret Service"), "\(set.output)")
        let settingsFile = AccountSettings(libraryURL: device.library.url, keyring: nil).fileURL
        let stored = try String(contentsOf: settingsFile, encoding: .utf8)
        #expect(!stored.contains(token), "the token stays out of the settings file")
        let show = try await runQuire(["account", "show"] + library, environment: environment)
        #expect(show.output.contains("Secret Service"))
        let sync = try await runQuire(["sync"] + library, environment: environment)
        #expect(sync.status == 0 && sync.output.contains("pushed 1 change"), "\(sync.output)")
        #expect(try await server.articles(token: token).count == 1)

        let signOut = try await runQuire(["account", "sign-out"] + library, environment: environment)
        #expect(signOut.status == 0)
        #expect(try await runQuire(["account", "show"] + library, environment: environment).output.contains("no sync account"))
        #expect(try await device.articles().count == 1, "signing out keeps the library")
    }
}
