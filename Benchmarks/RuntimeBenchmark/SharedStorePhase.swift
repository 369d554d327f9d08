#if !canImport(CoreData)
import Foundation
import ModelRuntime

/// `--shared-store`: the runtime's fetch–update–save round trips on a store another connection
/// (the floor's plain SQLite) wrote first, in one process. The floor inserts the rows (or, with
/// `--inserter runtime`, a runtime context does), makes its own round trips and then adds 1000
/// to every score, so the runtime's round trips write new values (with `--same-values` they write
/// the values the floor's round trips wrote: saves with nothing to write). `--close-floor` closes
/// the floor's connection before the runtime runs, `--fresh-coordinator` opens the runtime's
/// coordinator after the floor's writes, `--floor-reading` leaves the floor in a read
/// transaction meanwhile. Prints the rates and the `-wal` file's size before and after.
func sharedStorePhase(rows: Int, updates: Int) throws {
    let arguments = CommandLine.arguments
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelruntime-shared-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let model = RuntimeWork.model()
    let url = folder.appendingPathComponent("Shared.sqlite")
    var context = try RuntimeWork.context(model: model, url: url)
    var floor: SQLiteFloor? = try SQLiteFloor(url: url)
    if stringOption("--inserter") == "runtime" {
        _ = try RuntimeWork.insert(rows, context: try RuntimeWork.context(model: model, url: url))
    } else {
        _ = try floor?.insert(rows)
    }
    let floorFigure = try Figure.measure { try floor?.updates(rows, of: rows) ?? 0 }
    print("floor round trips: \(Int(floorFigure.rowsPerSecond))/s")
    if !arguments.contains("--same-values") { try floor?.execute("UPDATE ZITEM SET ZSCORE = ZSCORE + 1000") }
    if arguments.contains("--close-floor") { floor = nil }
    if arguments.contains("--floor-reading") {
        try floor?.execute("BEGIN")
        try floor?.execute("SELECT COUNT(*) FROM ZITEM")
    }
    if arguments.contains("--fresh-coordinator") { context = try RuntimeWork.context(model: model, url: url) }
    func walBytes() -> Int { (try? FileManager.default.attributesOfItem(atPath: url.path + "-wal")[.size] as? Int) ?? 0 }
    let walBefore = walBytes()
    let figure = try Figure.measure { try RuntimeWork.updates(updates, of: rows, context: context) }
    print("runtime round trips: \(Int(figure.rowsPerSecond))/s (by CPU time \(Int(figure.rowsPerCPUSecond))/s)")
    print("-wal bytes before: \(walBefore), after: \(walBytes())")
    if arguments.contains("--floor-reading") { try floor?.execute("COMMIT") }
}
#endif
