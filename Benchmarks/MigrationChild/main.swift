// Migrates one store until killed: the child process of the store migration's crash, lock and
// memory tests.
//
//     modelstore-migration-child <store.sqlite> <first.mom> <next.mom>...
//     modelstore-migration-child --coordinator <store.sqlite> <Model.momd> <entity> [--policy-name <name>]
//
// The first form decodes the versions from the `.mom` files, prints `ready`, migrates the store
// through them (all or nothing, as `StoreMigrator` does) and prints `migrated`. The second adds
// the store to an `NSPersistentStoreCoordinator` with the `.momd`'s current version and the
// options of migration on load (the versions come from the `.momd`), prints `ready` first and
// `opened <n>` after, `n` the number of `<entity>` objects it then fetches. Both print
// `maxrss <KB>`, the process's peak resident memory, last. With `--policy-name`, the mapping
// models the migration finds may name `<name>` as their entity migration policy, which is then
// `NSEntityMigrationPolicy` itself (the app's own policy is not in this process). The tests kill it at random moments
// and check that the store is either exactly as it was or completely migrated.
import Foundation
import ModelRuntime
import ModelSchema
import ModelStore

#if canImport(Glibc)
import Glibc
#endif

func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

/// Peak resident memory in KB: `VmHWM` of `/proc/self/status`, which starts over at `exec` (the
/// `ru_maxrss` of `getrusage` keeps the forking parent's peak on Linux), else `ru_maxrss`.
func peakMemory() -> Int {
    if let line = procStatus().split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kilobytes = Int(line.dropFirst("VmHWM:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
    {
        return kilobytes
    }
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Int(usage.ru_maxrss)
}

/// `/proc/self/status`, read to its end (its size is reported as 0, so it is read in chunks).
func procStatus() -> String {
    let descriptor = open("/proc/self/status", O_RDONLY)
    guard descriptor >= 0 else { return "" }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        bytes += chunk[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

let arguments = CommandLine.arguments
do {
    if arguments.count == 5 || (arguments.count == 7 && arguments[5] == "--policy-name"), arguments[1] == "--coordinator" {
        #if canImport(CoreData)
        FileHandle.standardError.write(Data("--coordinator runs over ModelRuntime on platforms without Core Data\n".utf8))
        exit(2)
        #else
        guard let model = NSManagedObjectModel(contentsOf: URL(fileURLWithPath: arguments[3])) else {
            FileHandle.standardError.write(Data("cannot load the model \(arguments[3])\n".utf8))
            exit(1)
        }
        if arguments.count == 7 { NSEntityMigrationPolicy.register(NSEntityMigrationPolicy.self, as: arguments[6]) }
        say("ready")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: URL(fileURLWithPath: arguments[2]),
            options: [NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let count = try context.performAndWait { try context.count(for: NSFetchRequest<NSManagedObject>(entityName: arguments[4])) }
        say("opened \(count)")
        #endif
    } else if arguments.count >= 4, arguments[1] != "--coordinator" {
        let versions = try arguments[2...].map { path in
            let url = URL(fileURLWithPath: path)
            return try CompiledModel.decodeMom([UInt8](Data(contentsOf: url)), versionName: url.deletingPathExtension().lastPathComponent)
                .version
        }
        say("ready")
        try StoreMigrator.migrate(storeAt: arguments[1], through: versions)
        say("migrated")
    } else {
        FileHandle.standardError.write(
            Data(
                ("usage: modelstore-migration-child <store.sqlite> <first.mom> <next.mom>...\n"
                    + "       modelstore-migration-child --coordinator <store.sqlite> <Model.momd> <entity> [--policy-name <name>]\n")
                    .utf8))
        exit(2)
    }
    say("maxrss \(peakMemory())")
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
