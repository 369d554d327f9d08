import Foundation
import ModelgenCLI
import ModelgenMigrationEngine

var console = Console.system
console.mappedStoreMigrator = RuntimeStoreMigrator()
exit(Modelgen.main(arguments: Array(CommandLine.arguments.dropFirst()), console: console))
