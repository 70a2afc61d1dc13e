import Foundation
import QuireTestSupport
@testable import SyncServer
import SyncProtocol
import Testing

/// `--config FILE` and `check-config`, through the real executable.
@Suite struct ConfigFileTests {
    func withFolder(_ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    func write(_ text: String, in folder: URL) throws -> String {
        let file = folder.appendingPathComponent("config")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    @Test func checkConfigPrintsEverySettingAndTheCommandLineOverridesTheFile() throws {
        try withFolder { folder in
            let data = folder.appendingPathComponent("data").path
            let config = try write("""
                # A comment, then settings with and without spaces around '='.
                data = \(data)
                listen = 127.0.0.1:0
                threads=3

                retention = 7d
                rate-limit = off
                """, in: folder)
            let checked = try ServerProcess.run(["check-config", "--config", config, "--threads", "5"])
            #expect(checked.status == 0, "\(checked.error)")
            let lines = Set(checked.output.split(separator: "\n").map(String.init))
            #expect(lines.isSuperset(of: ["data = \(data)", "listen = 127.0.0.1:0", "threads = 5", "retention = 7d",
                                          "rate-limit = off", "purge-interval = 1h", "page-bytes = 8388608"]))
            // Checking opened the storage as serve would.
            #expect(FileManager.default.fileExists(atPath: data + "/quire-server.sqlite3"))

            // The account verbs read the storage from the same file and skip the rest.
            let added = try ServerProcess.run(["account", "add", "alice", "--config", config])
            #expect(added.status == 0, "\(added.error)")
            let server = try ServerProcess(serve: ["--config", config], logFile: folder.appendingPathComponent("log"))
            defer { _ = server.terminate() }
            let token = added.output.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(try LoopbackClient(port: server.port, token: token).send("GET", SyncPath.changes).status == 200)
        }
    }

    @Test func mistakesNameTheLineAndStopBeforeServing() throws {
        try withFolder { folder in
            func check(_ text: String, _ extra: [String] = []) throws -> (status: Int32, error: String) {
                let result = try ServerProcess.run(["check-config", "--config", try write(text, in: folder)] + extra)
                return (result.status, result.error)
            }
            let config = folder.appendingPathComponent("config").path
            let unknown = try check("data = \(folder.path)\n# fine\nthreds = 4\n")
            #expect(unknown.status == 2 && unknown.error.contains("\(config) line 3: unknown setting 'threds'"))
            let value = try check("threads = many\n")
            #expect(value.status == 2 && value.error.contains("\(config) line 1: threads must be a whole number from 1 to 256"))
            let shape = try check("listen\n")
            #expect(shape.status == 2 && shape.error.contains("line 1: expected name = value"))
            let both = try check("data = /tmp/x\npostgres = postgresql://h/db\n")
            #expect(both.status == 2 && both.error.contains("give data or postgres, not both"))
            let flag = try check("data = \(folder.path)\n", ["--threads", "0"])
            #expect(flag.status == 2 && flag.error.contains("--threads: threads must be"))
            let missing = try ServerProcess.run(["check-config", "--config", folder.appendingPathComponent("none").path])
            #expect(missing.status == 2 && missing.error.contains("cannot read the configuration file"))
            let unreachable = try check("postgres = postgresql://quire:secret@127.0.0.1:1/none\n")
            #expect(unreachable.status == 1 && !unreachable.error.contains("secret"))
        }
    }

    @Test func theCommentedConfigurationHoldsEverySettingWithAValidDefault() throws {
        try withFolder { folder in
            let template = try ServerProcess.run(["help", "--config"]).output
            // The options the usage lists with a default ("  --threads N  [8]").
            let usage = try ServerProcess.run(["--help"]).output.split(separator: "\n").filter { $0.hasPrefix("  --") }
            let defaulted = Set(usage.filter { $0.hasSuffix("]") }.map { String($0.dropFirst(4).prefix { $0 != " " }) })
            #expect(defaulted.count >= 15 && !defaulted.contains("data") && !defaulted.contains("tls-cert"))
            // Uncommented, every default line is a valid setting.
            var lines = template.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("#"), !line.hasPrefix("# "), let name = line.dropFirst().split(separator: " ").first,
                      defaulted.contains(String(name)) else { return nil }
                return String(line.dropFirst())
            }
            #expect(lines.count == defaulted.count)
            lines.append("data = \(folder.appendingPathComponent("data").path)")
            let checked = try ServerProcess.run(["check-config", "--config", try write(lines.joined(separator: "\n"), in: folder)])
            #expect(checked.status == 0, "\(checked.error)")
            #expect(Set(checked.output.split(separator: "\n").map(String.init)).isSuperset(of: lines))
        }
    }

    @Test func theManualPageIsMadeFromTheSameTableAsTheUsage() throws {
        let usage = try ServerProcess.run(["--help"])
        let manual = try ServerProcess.run(["help", "--man"])
        #expect(usage.status == 0 && manual.status == 0)
        for option in ["--page-bytes", "--max-connections-per-address", "--config"] {
            #expect(usage.output.contains(option) && manual.output.contains(option.replacingOccurrences(of: "-", with: "\\-")))
        }
        // groff reads it without a warning.
        let groff = try ProgramRun(URL(fileURLWithPath: "/usr/bin/groff"), ["-man", "-Tutf8", "-ww", "-z"], input: Data(manual.output.utf8))
        #expect(groff.status == 0 && groff.error.isEmpty, "\(groff.error)")
    }
}
