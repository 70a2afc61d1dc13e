import CommandLineArguments
import Foundation
import Glibc
import SyncServer

/// `quire-server serve`: runs until SIGTERM or SIGINT, then shuts down gracefully.
enum ServeCommand {
    static func run(_ arguments: inout VerbArguments) throws -> Never {
        // The signals are blocked in every thread (those started from now on inherit the mask)
        // and taken by `sigwait` below: one that arrives while the server starts is kept pending
        // rather than ignored or lost, whatever the moment.
        var handled = sigset_t()
        sigemptyset(&handled)
        for number in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&handled, number) }
        pthread_sigmask(SIG_BLOCK, &handled, nil)
        signal(SIGPIPE, SIG_IGN)

        let commandLine = arguments
        var settings = try arguments.settings(ServerOption.serve)
        try arguments.checkAllRead()
        var configuration = settings.configuration
        configuration.listenSocket = try ServiceManager.passedSocket()

        let output = try LogOutput(path: settings.logFile)
        let log = ServerLog.writing(to: output, format: settings.logFormat, level: settings.logLevel)
        let storage = try settings.storage.open(serving: true, connections: configuration.threads)
        let server: QuireServer
        do {
            server = try QuireServer(configuration: configuration, storage: storage, log: log)
        } catch {
            storage.close()
            throw error
        }
        log.write("serving \(settings.storage) with \(configuration.threads) threads")
        if configuration.listenSocket != nil { log.write("on the socket systemd passed (\(server.address)); listen is not used") }
        if let metrics = server.metricsAddress { log.write("metrics on http://\(metrics)/metrics") }
        // The one line on standard output, for scripts and tests that asked for port 0.
        let scheme = server.servesTLS ? "https" : "http"
        FileHandle.standardOutput.write(Data("quire-server listening on \(scheme)://\(server.address)\n".utf8))
        ServiceManager.ready("serving \(scheme)://\(server.address)")

        let reload = ConfigurationReload(commandLine: commandLine, server: server, log: log, output: output)
        while true {
            var number: Int32 = 0
            guard sigwait(&handled, &number) == 0 else { continue }
            if number == SIGHUP {
                ServiceManager.reloading()
                settings = reload.run(running: settings)
                ServiceManager.ready("serving \(scheme)://\(server.address)")
                continue
            }
            ServiceManager.stopping()
            log.write("shutting down (signal \(number))")
            server.shutdown()
            log.write("stopped")
            exit(0)
        }
    }
}
