import Foundation
import SyncServer

var words = Array(CommandLine.arguments.dropFirst())
if words.isEmpty || words.contains("--help") || words.contains("-h") {
    print(Usage.text)
    exit(words.isEmpty ? 2 : 0)
}
let verb = words.removeFirst()
var arguments = Arguments(words)
do {
    switch verb {
    case "serve": try ServeCommand.run(&arguments)
    case "check-config": exit(try CheckConfigCommand.run(&arguments))
    case "account": exit(try AccountCommand.run(&arguments))
    case "token": exit(try AccountCommand.runToken(&arguments))
    case "backup": exit(try BackupCommand.backup(&arguments))
    case "restore": exit(try BackupCommand.restore(&arguments))
    case "help":
        // The manual page and the commented configuration come from the same table as the usage.
        let text = arguments.flag("man") ? Usage.manualPage : arguments.flag("config") ? Usage.configurationFile : Usage.text
        try arguments.finish()
        print(text)
        exit(0)
    default: throw UsageError("unknown verb '\(verb)'")
    }
} catch let error as UsageError {
    FileHandle.standardError.write(Data("quire-server: \(error)\n\nRun quire-server --help for the usage.\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("quire-server: \(error)\n".utf8))
    exit(1)
}
