import CommandLineArguments
import Foundation
import SyncServer

let words = Array(CommandLine.arguments.dropFirst())
guard let verb = words.first else {
    FileHandle.standardError.write(Data((Usage.text + "\n").utf8))
    exit(2)
}
if verb == "--help" || verb == "-h" {
    print(Usage.text)
    exit(0)
}
var arguments = VerbArguments(Array(words.dropFirst()))
do {
    guard let help = Usage.help(of: verb) else { throw CommandLineError.unknownVerb(verb) }
    if VerbArguments.asksForHelp(Array(words.dropFirst())) {
        print(help)
        exit(0)
    }
    switch verb {
    case "serve": try ServeCommand.run(&arguments)
    case "check-config": exit(try CheckConfigCommand.run(&arguments))
    case "account": exit(try AccountCommand.run(&arguments))
    case "token": exit(try AccountCommand.runToken(&arguments))
    case "backup": exit(try BackupCommand.backup(&arguments))
    case "restore": exit(try BackupCommand.restore(&arguments))
    default:
        // The manual page and the commented configuration come from the same table as the usage.
        let text = arguments.flag("--man") ? Usage.manualPage : arguments.flag("--config") ? Usage.configurationFile : nil
        let topic = arguments.positional()
        try arguments.checkAllRead()
        if let topic {
            guard let help = Usage.help(of: topic) else { throw CommandLineError.unknownVerb(topic) }
            print(help)
        } else {
            print(text ?? Usage.text)
        }
        exit(0)
    }
} catch let error as CommandLineError {
    let usage = Usage.help(of: verb).map { _ in Usage.synopses(of: verb) + "\nRun 'quire-server \(verb) --help' for more." }
    FileHandle.standardError.write(Data("quire-server\(usage == nil ? "" : " " + verb): \(error)\n\(usage ?? "Run 'quire-server --help' for the usage.")\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("quire-server: \(error)\n".utf8))
    exit(1)
}
