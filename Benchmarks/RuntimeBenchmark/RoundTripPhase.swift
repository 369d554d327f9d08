#if !canImport(CoreData)
import Foundation
import ModelRuntime

/// Phase 6 alone (`--updates-only`): fetch–update–save round trips on a store of `rows` rows,
/// the floor's first, then the runtime's in a new context, so a profiler (callgrind, perf) sees
/// the round trips without the other phases.
func roundTripPhase(rows: Int, updates: Int) throws -> Report.Row {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelruntime-round-trips-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // Separate stores, as in the full run: each side's rows come from its own insert.
    let model = RuntimeWork.model()
    let runtimeURL = folder.appendingPathComponent("Runtime.sqlite")
    let floorURL = folder.appendingPathComponent("Floor.sqlite")
    _ = try RuntimeWork.context(model: model, url: floorURL)
    let floor = try SQLiteFloor(url: floorURL)
    _ = try floor.insert(rows)
    let insertContext = try RuntimeWork.context(model: model, url: runtimeURL)
    _ = try RuntimeWork.insert(rows, context: insertContext)
    insertContext.performAndWait { insertContext.reset() }
    let context = try RuntimeWork.context(model: model, url: runtimeURL)
    let measuredFloor = try Figure.measure { try floor.updates(updates, of: rows) }
    let measuredRuntime = try Figure.measure { try RuntimeWork.updates(updates, of: rows, context: context) }
    return Report.Row(phase: "6 fetch-update-save round trips", runtime: measuredRuntime, floor: measuredFloor, target: .rate(10_000))
}
#endif
