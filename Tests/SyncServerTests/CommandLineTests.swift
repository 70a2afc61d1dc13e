import Foundation
import Testing

/// `quire-server`'s command line, read by the parser it shares with `quire`: usage errors exit 2
/// and name the argument, each verb has its help, `--name=VALUE` works as `--name VALUE`.
struct CommandLineTests {
    @Test func usageErrorsExit2AndNameTheArgument() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.path
        let cases: [([String], String)] = [
            (["acount"], "'acount' is not a quire-server verb"),
            (["account", "add", "--data", data], "quire-server account: the account name is missing"),
            (["account", "frob", "--data", data], "account 'frob' is not add, list, revoke or delete"),
            (["account", "list", "--data", data, "--verbose"], "quire-server account: unknown option '--verbose'"),
            (["account", "list", "--data", data, "stray"], "unexpected argument 'stray'"),
            (["token", "add", "alice", "--data", data], "quire-server token: --name NAME is missing"),
            (["backup", "--data", data], "quire-server backup: --out FILE is missing"),
            (["check-config", "--data", data, "--threads", "2", "--threads=3"], "--threads is given more than once"),
            (["check-config", "--data", data, "--threads"], "--threads needs a value"),
            (["check-config", "--data", data, "--threads=0"], "--threads: threads must be a whole number from 1 to 256"),
        ]
        for (arguments, message) in cases {
            let result = try ServerProcess.run(arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.error.contains(message), "\(arguments): \(result.error)")
            #expect(result.output.isEmpty, "\(arguments)")
        }
        // The usage of the verb follows its error.
        #expect(try ServerProcess.run(["backup", "--data", data]).error.contains("usage: quire-server backup --out FILE"))
    }

    @Test func everyVerbHasItsHelpAndOptionsTakeAnEqualsSign() throws {
        let account = try ServerProcess.run(["account", "--help"])
        #expect(account.status == 0)
        #expect(account.output.contains("usage: quire-server account add NAME") && account.output.contains("account delete NAME --confirm"))
        #expect(!account.output.contains("token add"))
        #expect(try ServerProcess.run(["help", "account"]).output == account.output)
        let serve = try ServerProcess.run(["serve", "--data", "/nonexistent", "-h"])
        #expect(serve.status == 0 && serve.output.contains("--rate-limit PER_SECOND|off"))
        #expect(try ServerProcess.run(["help", "publish"]).status == 2)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let added = try ServerProcess.run(["account", "add", "alice", "--token-name=laptop", "--data=\(folder.path)"])
        #expect(added.status == 0 && added.error.contains("its token 'laptop'"))
        let listed = try ServerProcess.run(["token", "list", "alice", "--data=\(folder.path)"])
        #expect(listed.status == 0 && listed.output.hasPrefix("laptop\tactive"))
    }
}
