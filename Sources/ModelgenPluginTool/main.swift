import Foundation
import ModelgenCLI

// The modelgen the package's plugins run: every command, without the runtime that only
// `migrate-store` needs for mapping models, so a package using the plugins never builds the
// runtime for its build machine.
exit(Modelgen.main(arguments: Array(CommandLine.arguments.dropFirst())))
