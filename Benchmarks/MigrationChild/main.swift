// Migrates one store until killed: the child process of the store migration's crash test.
//
//     modelstore-migration-child <store.sqlite> <first.mom> <next.mom>...
//
// Decodes the versions from the `.mom` files, prints `ready`, migrates the store through them
// (all or nothing, as `StoreMigrator` does) and prints `migrated`. The test kills it at random
// moments and checks that the store is either exactly as it was or completely migrated.
import Foundation
import ModelSchema
import ModelStore

let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
    FileHandle.standardError.write(Data("usage: modelstore-migration-child <store.sqlite> <first.mom> <next.mom>...\n".utf8))
    exit(2)
}
do {
    let versions = try arguments[2...].map { path in
        let url = URL(fileURLWithPath: path)
        return try CompiledModel.decodeMom([UInt8](Data(contentsOf: url)), versionName: url.deletingPathExtension().lastPathComponent)
            .version
    }
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    try StoreMigrator.migrate(storeAt: arguments[1], through: versions)
    FileHandle.standardOutput.write(Data("migrated\n".utf8))
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
