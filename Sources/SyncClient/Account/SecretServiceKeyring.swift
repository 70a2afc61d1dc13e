import CSecret
import Foundation
import Synchronization

/// The Secret Service (the desktop keyring) through libsecret, when one runs on the session bus.
///
/// Every call runs on a thread of its own and is given up after a timeout, so that a keyring
/// that waits for an unlock prompt nobody answers, or a bus that does not answer, never hangs the
/// app or `quire`.
public final class SecretServiceKeyring: Sendable {
    /// How long a call may take.
    let timeout: TimeInterval

    private init(timeout: TimeInterval) {
        self.timeout = timeout
    }

    /// The keyring, or nil when no Secret Service can answer: no session bus
    /// (`DBUS_SESSION_BUS_ADDRESS` unset; no bus is ever launched for the question), no service
    /// that owns or can be activated as `org.freedesktop.secrets`, or no answer within `timeout`.
    public static func detect(timeout: TimeInterval = 3) -> SecretServiceKeyring? {
        let state = try? blocking("look for a Secret Service", timeout: timeout) {
            var error: UnsafeMutablePointer<GError>?
            let state = quire_secret_service_state(Int32(timeout * 1000), &error)
            if let error { g_error_free(error) }
            return state
        }
        return state == 1 ? SecretServiceKeyring(timeout: timeout) : nil
    }

    /// Stores the token for the library and server (replacing an earlier one).
    func store(_ token: String, library: String, server: String) throws {
        try Self.blocking("store the token", timeout: timeout) {
            var error: UnsafeMutablePointer<GError>?
            let stored = quire_secret_store(library, server, "Quire sync token for \(server)", token, &error)
            if let error { throw Self.failure("store the token", error) }
            if stored == 0 { throw AccountError.keyring(operation: "store the token", message: "it refused without a reason") }
        }
    }

    /// The token for the library and server, if one is stored.
    func lookup(library: String, server: String) throws -> String? {
        try Self.blocking("look the token up", timeout: timeout) {
            var error: UnsafeMutablePointer<GError>?
            let token = quire_secret_lookup(library, server, &error)
            if let error { throw Self.failure("look the token up", error) }
            guard let token else { return nil }
            defer { secret_password_free(token) }
            return String(cString: token)
        }
    }

    /// Removes the token for the library and server.
    func clear(library: String, server: String) throws {
        try Self.blocking("remove the token", timeout: timeout) {
            var error: UnsafeMutablePointer<GError>?
            _ = quire_secret_clear(library, server, &error)
            if let error { throw Self.failure("remove the token", error) }
        }
    }

    private static func failure(_ operation: String, _ error: UnsafeMutablePointer<GError>) -> AccountError {
        defer { g_error_free(error) }
        return .keyring(operation: operation, message: error.pointee.message.map { String(cString: $0) } ?? "no message")
    }

    /// Runs `body` on a thread of its own and waits at most `timeout` for it. A call that does not
    /// finish is left to finish (or hang) on its thread; its result is dropped.
    private static func blocking<T: Sendable>(
        _ operation: String, timeout: TimeInterval, _ body: @escaping @Sendable () throws -> T
    ) throws -> T {
        let result = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            let outcome = Result { try body() }
            result.withLock { $0 = outcome }
            done.signal()
        }.start()
        guard done.wait(timeout: .now() + timeout) == .success, let outcome = result.withLock({ $0 }) else {
            throw AccountError.keyringTimedOut(operation: operation, seconds: timeout)
        }
        return try outcome.get()
    }
}
