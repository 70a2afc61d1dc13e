import CommandLineArguments
import Testing

/// The one command-line reader of `quire` and `quire-server`.
struct VerbArgumentsTests {
    @Test func readsOptionsFlagsAndPositionals() throws {
        var arguments = VerbArguments(["draft", "--library", "/tmp/lib", "--json", "--format=md", "extra", "--", "-x"])
        #expect(try arguments.option("--library") == "/tmp/lib")
        #expect(try arguments.option("--format") == "md")
        #expect(try arguments.option("--since") == nil)
        let json = arguments.flag("--json"), quiet = arguments.flag("--quiet")
        #expect(json && !quiet)
        #expect(try arguments.positional("ARTICLE") == "draft")
        let rest = [arguments.positional(), arguments.positional(), arguments.positional()]
        #expect(rest == ["extra", "-x", nil], "after -- an argument may start with a dash")
        try arguments.checkAllRead()
        #expect(throws: CommandLineError.missingArgument("ARTICLE")) {
            var read = arguments
            _ = try read.positional("ARTICLE")
        }
    }

    @Test func reportsWhatItCannotUseNamingTheArgument() {
        func option(_ name: String, in words: [String]) throws(CommandLineError) {
            var arguments = VerbArguments(words)
            _ = try arguments.option(name)
        }
        #expect(throws: CommandLineError.missingValue(option: "--library")) { try option("--library", in: ["--library"]) }
        #expect(throws: CommandLineError.missingValue(option: "--library")) { try option("--library", in: ["--library", "--json"]) }
        #expect(throws: CommandLineError.repeatedOption("--library")) { try option("--library", in: ["--library", "a", "--library=b"]) }
        #expect(throws: CommandLineError.unknownOption("--verbose")) { try VerbArguments(["--verbose"]).checkAllRead() }
        #expect(throws: CommandLineError.unexpectedArgument("stray")) { try VerbArguments(["stray"]).checkAllRead() }
        #expect(throws: CommandLineError.unexpectedArgument("stray")) { try VerbArguments(["--", "stray"]).checkAllRead() }
        #expect(CommandLineError.unknownOption("--verbose").description == "unknown option '--verbose'")
        #expect(CommandLineError.invalidValue(option: "--rate-limit", value: "lots", expected: "a number").description
                == "--rate-limit 'lots' is not a number")
    }

    @Test func helpIsAskedForBeforeTheTerminatorOnly() {
        #expect(VerbArguments.asksForHelp(["alice", "--help"]))
        #expect(VerbArguments.asksForHelp(["-h"]))
        #expect(!VerbArguments.asksForHelp(["--", "--help"]))
        #expect(!VerbArguments.asksForHelp(["--helpful"]))
    }
}
