import CommandLineArguments
import Foundation
import Platform
import SyncServer

/// Everything `serve` and the storage verbs read from options and the configuration file.
struct ServerSettings {
    var configuration = ServerConfiguration()
    var storage = ServerSettings.defaultStorage
    var logFormat = ServerLog.Format.plain
    var logLevel = ServerLog.Level.info
    /// `log-file`: the file the log is appended to, nil for standard error.
    var logFile: String?
    /// `tls-cert` and `tls-key`, which only together make `configuration.tlsFiles`.
    var tlsCertificate: URL?
    var tlsKey: URL?
    var metricsTokenFile: URL?

    /// The settings that need more than one option, or a file, checked and put in place.
    mutating func complete() throws {
        switch (tlsCertificate, tlsKey) {
        case let (certificate?, key?): configuration.tlsFiles = (certificate, key)
        case (nil, nil): configuration.tlsFiles = nil
        default: throw CommandLineError.invalidSetting("tls-cert and tls-key go together")
        }
        if let file = metricsTokenFile {
            let token: String
            do {
                token = try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            } catch {
                throw CommandLineError.invalidSetting("metrics-token-file: cannot read \(file.path)")
            }
            guard token.count >= 16 else { throw CommandLineError.invalidSetting("metrics-token-file: \(file.path) holds fewer than 16 characters") }
            configuration.metricsToken = token
        }
    }

    /// SQLite in `$XDG_DATA_HOME/quire-server` (or `~/.local/share/quire-server`; see `DataFolder`).
    static var defaultStorage: StorageLocation {
        .sqlite(directory: DataFolder.user.appendingPathComponent("quire-server"))
    }
}

/// One setting, spelt `--name VALUE` on the command line and `name = VALUE` in the configuration
/// file. The table below is the one list of settings: the usage text, the man page and
/// `check-config` are made from it.
struct ServerOption: Sendable {
    let name: String
    /// What the value looks like in the usage text (`N`, `HOST:PORT`).
    let placeholder: String
    /// The default, as a value the option takes; nil when there is none to write down.
    let defaultValue: String?
    let summary: String
    /// Sets the value, or throws a reason such as "must be a whole number from 1 to 256".
    let apply: @Sendable (inout ServerSettings, String) throws -> Void
    /// The current value, for `check-config`; nil when unset.
    let show: @Sendable (ServerSettings) -> String?

    /// The options that choose the storage, which every storage verb reads.
    static let storage: [ServerOption] = [
        ServerOption(name: "data", placeholder: "DIR", defaultValue: nil,
                     summary: "keep the data in SQLite, DIR/quire-server.sqlite3 (folder created 0700); "
                        + "without data or postgres, $XDG_DATA_HOME/quire-server",
                     apply: { $0.storage = .sqlite(directory: URL(fileURLWithPath: $1)) },
                     show: { if case let .sqlite(directory) = $0.storage { return directory.path } else { return nil } }),
        ServerOption(name: "postgres", placeholder: "URL", defaultValue: nil,
                     summary: "keep the data in PostgreSQL (a libpq URI; the password may come from PGPASSWORD or ~/.pgpass)",
                     apply: { $0.storage = .postgres(url: $1) },
                     show: { if case let .postgres(url) = $0.storage { return redacted(url) } else { return nil } }),
    ]

    /// Every option of `serve`, storage first.
    static let serve: [ServerOption] = storage + [
        ServerOption(name: "listen", placeholder: "HOST:PORT", defaultValue: "127.0.0.1:\(ListenAddress.defaultPort)",
                     summary: "the address to serve; [::1]:PORT for IPv6, port 0 for any free port; not used when systemd "
                        + "passes a socket (quire-server.socket)",
                     apply: { settings, text in settings.configuration.listen = try ListenAddress(parsing: text) },
                     show: { $0.configuration.listen.description }),
        integer("threads", \.threads, 1...256, default: "8",
                "libmicrohttpd's thread pool, and the most database connections used at once"),
        integer("max-body-bytes", \.maximumBodyBytes, 1024...(1 << 30), default: "4194304",
                "larger request bodies get 413 (4 MiB by default)"),
        integer("max-blob-bytes", \.maximumBlobBytes, 1024...(1 << 30), default: "26214400",
                "the largest attachment (PUT /v1/blobs/SHA256) an account may store; larger ones get 413 (25 MiB by default)"),
        ServerOption(name: "blob-quota", placeholder: "BYTES|off", defaultValue: "10737418240",
                     summary: "the bytes of attachments one account may keep; an upload past it gets 507 (10 GiB by default)",
                     apply: { settings, text in
                         guard text != "off" else { return settings.configuration.blobQuotaBytes = nil }
                         guard let bytes = Int64(text), bytes >= 0 else { throw OptionError("must be a number of bytes, or off") }
                         settings.configuration.blobQuotaBytes = bytes
                     },
                     show: { $0.configuration.blobQuotaBytes.map(String.init) ?? "off" }),
        integer("max-header-bytes", \.maximumHeaderBytes, 1024...(1 << 20), default: "16384",
                "larger request header sections get 431"),
        integer("max-connections-per-address", \.maximumConnectionsPerAddress, 1...100_000, default: "64",
                "open connections one client address may hold; more are closed at once"),
        integer("client-timeout", \.clientTimeoutSeconds, 1...3600, default: "30",
                "seconds a client has to send a whole request or read a whole answer, and an idle connection stays open"),
        ServerOption(name: "page-size", placeholder: "N", defaultValue: "1000",
                     summary: "the largest page of /v1/changes and /v1/articles, in rows",
                     apply: { settings, text in
                         let size = try number(text, in: 1...100_000)
                         settings.configuration.maximumPageSize = size
                         settings.configuration.defaultPageSize = min(ServerConfiguration().defaultPageSize, size)
                     },
                     show: { String($0.configuration.maximumPageSize) }),
        integer("page-bytes", \.maximumPageBytes, 1024...(1 << 30), default: "8388608",
                "a page ends early once its titles and bodies reach this many bytes (8 MiB by default)"),
        ServerOption(name: "rate-limit", placeholder: "PER_SECOND|off", defaultValue: "200",
                     summary: "requests per second per account, bursts of twice as many; 429 with Retry-After; SIGHUP applies a change",
                     apply: { settings, text in
                         guard text == "off" || (Double(text).map { $0 > 0 && $0 <= 1_000_000 } ?? false) else {
                             throw OptionError("must be requests per second per account (at most 1000000), or off")
                         }
                         settings.configuration.rateLimit = Double(text)
                     },
                     show: { $0.configuration.rateLimit.map { String(format: "%g", $0) } ?? "off" }),
        ServerOption(name: "auth-failure-limit", placeholder: "PER_MINUTE|off", defaultValue: "20",
                     summary: "failed authentications a minute per client address (IPv6: per /64) before its requests get 429 "
                        + "for a while; per address, so that nobody can lock a writer out; SIGHUP applies a change",
                     apply: { settings, text in
                         settings.configuration.authenticationFailuresPerMinute = text == "off" ? nil : try number(text, in: 1...100_000)
                     },
                     show: { $0.configuration.authenticationFailuresPerMinute.map(String.init) ?? "off" }),
        ServerOption(name: "trusted-proxies", placeholder: "ADDRESS[/PREFIX],...|none", defaultValue: "none",
                     summary: "reverse proxies whose X-Forwarded-For names the client (for limits and logs), and whose "
                        + "connections are not limited per address; 127.0.0.1,::1 for a proxy on this machine; SIGHUP applies a change",
                     apply: { settings, text in
                         settings.configuration.trustedProxies = text == "none" ? [] : try text.split(separator: ",").map {
                             try AddressRange(parsing: $0.trimmingCharacters(in: .whitespaces))
                         }
                     },
                     show: { $0.configuration.trustedProxies.isEmpty ? "none" : $0.configuration.trustedProxies.map(\.description).joined(separator: ",") }),
        ServerOption(name: "tls-cert", placeholder: "FILE", defaultValue: nil,
                     summary: "serve HTTPS (TLS 1.2 and 1.3) with this PEM certificate chain; read again on SIGHUP (other files too, but HTTP "
                        + "and HTTPS do not change places without a restart)",
                     apply: { $0.tlsCertificate = URL(fileURLWithPath: $1) }, show: { $0.tlsCertificate?.path }),
        ServerOption(name: "tls-key", placeholder: "FILE", defaultValue: nil,
                     summary: "the PEM private key of tls-cert; read again on SIGHUP",
                     apply: { $0.tlsKey = URL(fileURLWithPath: $1) }, show: { $0.tlsKey?.path }),
        ServerOption(name: "metrics-listen", placeholder: "HOST:PORT", defaultValue: nil,
                     summary: "also serve /metrics (Prometheus text), and nothing else, on this address, to anyone who reaches it",
                     apply: { settings, text in settings.configuration.metricsListen = try ListenAddress(parsing: text) },
                     show: { $0.configuration.metricsListen?.description }),
        ServerOption(name: "metrics-token-file", placeholder: "FILE", defaultValue: nil,
                     summary: "serve /metrics on the sync address too, to requests with Authorization: Bearer and this file's token",
                     apply: { $0.metricsTokenFile = URL(fileURLWithPath: $1) }, show: { $0.metricsTokenFile?.path }),
        ServerOption(name: "log-format", placeholder: "plain|json", defaultValue: "plain",
                     summary: "log lines as text, or one JSON object a line for log collectors; SIGHUP applies a change",
                     apply: { settings, text in
                         guard let format = ServerLog.Format(rawValue: text) else { throw OptionError("must be plain or json") }
                         settings.logFormat = format
                     },
                     show: { $0.logFormat.rawValue }),
        ServerOption(name: "log-level", placeholder: "error|warning|info", defaultValue: "info",
                     summary: "what is logged: failures only, also what an operator should look at, or also every request; "
                        + "SIGHUP applies a change",
                     apply: { settings, text in
                         guard let level = ServerLog.Level.allCases.first(where: { $0.description == text }) else {
                             throw OptionError("must be error, warning or info")
                         }
                         settings.logLevel = level
                     },
                     show: { $0.logLevel.description }),
        ServerOption(name: "log-file", placeholder: "FILE", defaultValue: nil,
                     summary: "append the log to FILE (created 0640) instead of standard error; SIGHUP opens it again by name, "
                        + "as logrotate's postrotate wants",
                     apply: { $0.logFile = $1 }, show: { $0.logFile }),
        duration("operation-lease", \.operationLease, default: "30s",
                 "how long a running idempotency key blocks retries (409) if its server died"),
        duration("retention", \.retention, default: "30d",
                 "how long tombstones, superseded revisions and answers of idempotency keys are kept"),
        duration("purge-interval", \.purgeInterval, default: "1h", "how often what is past retention is removed (0: never)"),
        duration("blob-grace", \.blobGrace, default: "1d",
                 "how long the purge keeps an attachment no article refers to after it was last uploaded or asked for"),
    ]

    // MARK: Kinds of values

    private static func integer(_ name: String, _ field: WritableKeyPath<ServerConfiguration, Int> & Sendable,
                                _ range: ClosedRange<Int>, default defaultValue: String?, _ summary: String) -> ServerOption {
        ServerOption(name: name, placeholder: "N", defaultValue: defaultValue, summary: summary,
                     apply: { settings, text in settings.configuration[keyPath: field] = try number(text, in: range) },
                     show: { String($0.configuration[keyPath: field]) })
    }

    private static func duration(_ name: String, _ field: WritableKeyPath<ServerConfiguration, TimeInterval> & Sendable,
                                 default defaultValue: String?, _ summary: String) -> ServerOption {
        ServerOption(name: name, placeholder: "DURATION", defaultValue: defaultValue, summary: summary,
                     apply: { settings, text in settings.configuration[keyPath: field] = try duration(text) },
                     show: { format(duration: $0.configuration[keyPath: field]) })
    }

    static func number(_ text: String, in range: ClosedRange<Int>) throws -> Int {
        guard let number = Int(text), range.contains(number) else {
            throw OptionError("must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// A duration such as `30d`, `12h`, `15m`, `10s` or plain seconds.
    static func duration(_ text: String) throws -> TimeInterval {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        let unit = text.last.flatMap { units[$0] }
        guard let number = Double(unit == nil ? Substring(text) : text.dropLast()), number >= 0 else {
            throw OptionError("must be a duration such as 30d, 12h, 15m or 10s")
        }
        return number * (unit ?? 1)
    }

    /// The largest whole unit: `30d`, `1h`, `90s`.
    static func format(duration seconds: TimeInterval) -> String {
        for (unit, size) in [("d", 86400.0), ("h", 3600), ("m", 60)] where seconds >= size && seconds.truncatingRemainder(dividingBy: size) == 0 {
            return "\(Int(seconds / size))\(unit)"
        }
        return String(format: "%gs", seconds)
    }

    /// A libpq URI with its password replaced, for output.
    static func redacted(_ url: String) -> String {
        guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@") else { return url }
        let credentials = url[scheme.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return url }
        return url.replacingCharacters(in: colon..<at, with: ":(password)")
    }
}

/// Why a value cannot be used; the caller adds which option or line gave it.
struct OptionError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension VerbArguments {
    /// The settings from `--config FILE` (if given) and then the command line, which overrides
    /// it, for the options in `options`. The file may hold any option of `serve`: a verb that
    /// reads only the storage options skips the rest, but a name no option has is an error.
    mutating func settings(_ options: [ServerOption]) throws -> ServerSettings {
        var settings = ServerSettings()
        if let path = try option("--config") {
            let file = try ConfigFile(path: path)
            try Self.apply(file.entries.map { ($0.name, $0.value, $0.origin) }, options, to: &settings)
        }
        var given: [(String, String, String)] = []
        for option in options {
            if let text = try self.option("--\(option.name)") { given.append((option.name, text, "--\(option.name)")) }
        }
        try Self.apply(given, options, to: &settings)
        try settings.complete()
        return settings
    }

    private static func apply(_ entries: [(name: String, value: String, origin: String)], _ options: [ServerOption],
                              to settings: inout ServerSettings) throws {
        let names = Set(entries.map(\.name))
        if names.contains("data"), names.contains("postgres") {
            let origin = entries.first { $0.name == "postgres" }!.origin
            throw CommandLineError.invalidSetting("\(origin): give data or postgres, not both")
        }
        for entry in entries {
            guard let option = ServerOption.serve.first(where: { $0.name == entry.name }) else {
                throw CommandLineError.invalidSetting("\(entry.origin): unknown setting '\(entry.name)'")
            }
            guard options.contains(where: { $0.name == entry.name }) else { continue }
            do {
                try option.apply(&settings, entry.value)
            } catch {
                throw CommandLineError.invalidSetting("\(entry.origin): \(option.name) \(error)")
            }
        }
    }
}
