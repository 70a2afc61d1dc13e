import Foundation
import GtkKit
import Platform
import SyncClient

/// Preferences for sync: the server's URL and the account's token, where the token is kept (the
/// Secret Service keyring when one runs, otherwise a file only the writer can read), and sign in
/// and sign out. Signing out stops the worker and keeps the library as it is.
///
/// ```swift
/// let preferences = try SyncPreferencesWindow(session: session, over: mainWindow)
/// preferences.window.present()
/// ```
///
/// Actions `account.sign-in` and `account.sign-out` are its buttons.
@MainActor
public final class SyncPreferencesWindow {
    /// The `AdwPreferencesWindow` (other pages, such as the editor's, are added to it).
    public let window: PreferencesWindow
    /// The `account` actions: `sign-in`, `sign-out`.
    public let actions: ActionGroup
    /// What the last sign-in or sign-out said, as the window shows it.
    public var message: String { messageLabel.text }

    let serverRow: EntryRow
    let tokenRow: PasswordEntryRow
    let authorityRow: EntryRow
    let insecureSwitch: Switch
    let storageRow: ActionRow
    let accountRow: ActionRow
    private let messageLabel: Label
    private let session: SyncSession
    private var pending: Task<Void, Never>?

    /// Builds the window for `session`, modal to `parent`. Call `window.present()` to show it.
    public init(session: SyncSession, over parent: Window?) throws {
        QuireResources.register()
        let builder = try Builder(resource: Quire.resourcePath + "sync/sync-preferences-window.ui")
        window = try builder.object("preferences_window")
        serverRow = try builder.object("server_row")
        tokenRow = try builder.object("token_row")
        authorityRow = try builder.object("authority_row")
        insecureSwitch = try builder.object("insecure_switch")
        storageRow = try builder.object("storage_row")
        accountRow = try builder.object("account_row")
        messageLabel = try builder.object("message_label")
        self.session = session
        window.transientFor = parent
        // Two pages of a few rows each: nothing to search.
        window.isSearchEnabled = false
        actions = ActionGroup(prefix: "account", on: window)
        window.keepAlive(self)
        actions.addAction("sign-in") { [weak self] in self?.signIn() }
        actions.addAction("sign-out") { [weak self] in self?.signOut() }
        let storage = session.settings.storage.description
        storageRow.subtitle = storage.prefix(1).uppercased() + storage.dropFirst()
        if let account = session.account {
            serverText = account.server.absoluteString
            authorityText = account.certificateAuthority?.path ?? ""
            allowsInsecureHTTP = account.allowsInsecureHTTP
        }
        showAccount()
    }

    /// The server URL as typed.
    public var serverText: String {
        get { serverRow.text }
        set { serverRow.text = newValue }
    }

    /// The token as typed (never filled in from the keyring).
    public var tokenText: String {
        get { tokenRow.text }
        set { tokenRow.text = newValue }
    }

    /// The certificate authority file as typed; empty for the system's authorities.
    public var authorityText: String {
        get { authorityRow.text }
        set { authorityRow.text = newValue }
    }

    /// Whether Allow Unencrypted HTTP is on.
    public var allowsInsecureHTTP: Bool {
        get { insecureSwitch.isActive }
        set { insecureSwitch.isActive = newValue }
    }

    /// Waits until the running sign-in or sign-out has finished.
    public func settled() async {
        await pending?.value
    }

    private func signIn() {
        let server = serverText.trimmingCharacters(in: .whitespaces)
        let token = tokenText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let url = URL(string: server), !server.isEmpty else { return say(gettext("Type the server’s URL, such as https://sync.example.org.")) }
        guard !token.isEmpty else { return say(gettext("Type the account’s token (quire-server account add prints it).")) }
        let authority = authorityText.trimmingCharacters(in: .whitespaces)
        let account = SyncAccount(server: url, token: token, allowsInsecureHTTP: allowsInsecureHTTP,
                                  certificateAuthority: authority.isEmpty ? nil : URL(fileURLWithPath: authority))
        run {
            let storage = try await self.session.signIn(account)
            self.tokenText = ""
            self.say(String(cFormat: gettext("Signed in. The token is kept in %s."), storage))
        }
    }

    private func signOut() {
        run {
            try await self.session.signOut()
            self.say(gettext("Signed out. This library keeps all its articles; changes not sent yet wait for the next sign-in."))
        }
    }

    private func run(_ body: @escaping @MainActor () async throws -> Void) {
        guard pending == nil else { return }
        pending = Task {
            do {
                try await body()
            } catch {
                let explanation = ErrorExplanation(error, libraryPath: session.library.url.path)
                say(explanation.sentence, details: explanation.details)
            }
            showAccount()
            pending = nil
        }
    }

    private func showAccount() {
        let account = session.account
        accountRow.subtitle = account.map { String(cFormat: gettext("Signed in to %s"), $0.server.absoluteString) } ?? gettext("Not signed in")
        actions.action(named: "sign-out")?.isEnabled = account != nil
    }

    /// Shows `text` under the form; an error's technical `details` go in its tooltip.
    private func say(_ text: String, details: String? = nil) {
        messageLabel.text = text
        messageLabel.tooltipText = details
        messageLabel.isVisible = !text.isEmpty
    }
}
