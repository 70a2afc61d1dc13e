import CommandLineArguments
import Foundation
import SyncServer

/// SIGHUP: the configuration file and the command line are read again as at the start, and what
/// can change while serving is put in force: log format, level and file (opened again by name,
/// for logrotate), trusted proxies, rate limits, and the TLS certificate (read again even when
/// its files are the same, for renewals). A setting that cannot change without a restart keeps
/// its value and is logged as needing one; a configuration that cannot be read or has a mistake
/// is refused as a whole, logged, and the running one stays.
struct ConfigurationReload {
    /// The words after `serve`, read again on each reload (`--config FILE` among them).
    let commandLine: VerbArguments
    let server: QuireServer
    let log: ServerLog
    let output: LogOutput

    /// Reads and applies the configuration; answers the settings now in force.
    func run(running: ServerSettings) -> ServerSettings {
        var words = commandLine
        let new: ServerSettings
        do {
            new = try words.settings(ServerOption.serve)
            try words.checkAllRead()
        } catch {
            log.write("SIGHUP: the configuration is refused and the running one stays: \(error)", level: .error)
            return running
        }
        var applied = running
        // Settings whose failure is logged already, not to be reported as needing a restart.
        var failed: Set<String> = []
        // The log's place first, so that the lines below are written where the operator now looks.
        if new.logFile != nil || running.logFile != nil {
            do {
                try output.reopen(path: new.logFile)
                applied.logFile = new.logFile
            } catch {
                log.write("SIGHUP: \(error); the log stays in \(running.logFile ?? "standard error")", level: .error)
                failed.insert("log-file")
            }
        }
        log.reconfigure(format: new.logFormat, level: new.logLevel)
        applied.logFormat = new.logFormat
        applied.logLevel = new.logLevel
        applied.configuration.rateLimit = new.configuration.rateLimit
        applied.configuration.authenticationFailuresPerMinute = new.configuration.authenticationFailuresPerMinute
        applied.configuration.trustedProxies = new.configuration.trustedProxies
        // Other certificate files, but not HTTP for HTTPS or back: clients know the server by its scheme.
        if (new.configuration.tlsFiles == nil) == (running.configuration.tlsFiles == nil) {
            applied.tlsCertificate = new.tlsCertificate
            applied.tlsKey = new.tlsKey
            applied.configuration.tlsFiles = new.configuration.tlsFiles
        }
        do {
            try server.reload(applied.configuration)
        } catch {
            log.write("SIGHUP: the certificate in use stays: \(error)", level: .error)
        }
        for option in ServerOption.serve where !failed.contains(option.name) {
            let wanted = option.show(new), kept = option.show(applied)
            if wanted != kept {
                log.write("SIGHUP: \(option.name) = \(wanted ?? "(unset)") needs a restart; \(kept ?? "(unset)") stays",
                          level: .warning)
            } else if wanted != option.show(running) {
                log.write("SIGHUP: \(option.name) is now \(wanted ?? "unset")")
            }
        }
        log.write("SIGHUP: configuration reloaded")
        return applied
    }
}
