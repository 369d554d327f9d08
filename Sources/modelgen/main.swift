import Foundation
import ModelgenCLI

exit(Modelgen.main(arguments: Array(CommandLine.arguments.dropFirst())))
