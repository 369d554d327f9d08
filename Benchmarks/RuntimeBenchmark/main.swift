// The runtime against plain SQLite, in one process: each phase of Core Data work through
// ModelRuntime next to the same work with SQLite C calls on a store of the same layout.
// Run: swift run -c release modelruntime-benchmark [--rows N] [--batched-rows N] [--updates N]

#if canImport(CoreData)
print("The runtime benchmark measures the Linux implementation; on Apple platforms Core Data provides it.")
#else
import Foundation
import ModelRuntime

func option(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name) else { return value }
    guard index + 1 < arguments.count, let number = Int(arguments[index + 1]), number > 0 else {
        FileHandle.standardError.write(Data("\(name) needs a positive number\n".utf8))
        exit(2)
    }
    return number
}

func stringOption(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

/// Runs this executable again with `arguments` and reads the figure it prints, so the phase's
/// peak memory is its own.
func childFigure(_ arguments: [String]) throws -> Figure {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0, let line = output.split(separator: "\n").last, let figure = Figure(line: line) else {
        throw BenchmarkError("child \(arguments.joined(separator: " ")) failed (status \(process.terminationStatus)): \(output)")
    }
    return figure
}

var checksum = 0

/// Phase 7: `count` rows through a batch insert (Core Data's dictionary handler, then the
/// positional form of typed helpers), each into a new store, against the floor's prepared
/// `INSERT`s into a new store.
func batchInsertPhases(_ count: Int) throws -> [Report.Row] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelruntime-batch-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let model = RuntimeWork.model()
    var rows: [Report.Row] = []
    // The last form again into a store with persistent history tracking (one history change
    // per row, recorded in the same transaction), against the same floor.
    let forms: [(String, (Int, NSManagedObjectContext) throws -> Int, [AnyHashable: Any]?)] = [
        ("dictionary handler", BatchWork.insertWithDictionaryHandler, nil), ("by position", BatchWork.insertByPosition, nil),
        ("by position, history on", BatchWork.insertByPosition, [NSPersistentHistoryTrackingKey: true]),
    ]
    for (name, work, options) in forms {
        let floorURL = folder.appendingPathComponent("Floor-\(rows.count).sqlite")
        let runtimeURL = folder.appendingPathComponent("Batch-\(rows.count).sqlite")
        _ = try RuntimeWork.context(model: model, url: floorURL)
        let floor = try SQLiteFloor(url: floorURL)
        let context = try RuntimeWork.context(model: model, url: runtimeURL, options: options)
        let measuredFloor = try Figure.measure { try floor.insert(count) }
        let measuredRuntime = try Figure.measure { try work(count, context) }
        rows.append(
            Report.Row(phase: "7 batch insert \(count), \(name)", runtime: measuredRuntime, floor: measuredFloor, target: .ratio(0.60)))
    }
    return rows
}

/// Phase 5 alone (`--dictionary-only`), on a store the floor fills, so a profiler that does not
/// follow the batched phase's child processes can measure it.
func dictionaryPhase(_ count: Int, checksum: inout Int) throws -> Report.Row {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelruntime-dictionary-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("Dictionary.sqlite")
    let context = try RuntimeWork.context(model: RuntimeWork.model(), url: url)
    let floor = try SQLiteFloor(url: url)
    _ = try floor.insert(count)
    let measuredFloor = try Figure.measure { try floor.dictionaries(checksum: &checksum) }
    let measuredRuntime = try Figure.measure { try RuntimeWork.dictionaries(context: context, checksum: &checksum) }
    return Report.Row(phase: "5 dictionary fetch of all rows", runtime: measuredRuntime, floor: measuredFloor, target: .ratio(0.85))
}

/// Phases 1 and 2 alone (`--objects-only`), `passes` times each on a new store, so a sampling
/// profiler sees the object work without the other phases.
func objectPhases(_ count: Int, passes: Int, checksum: inout Int) throws -> [Report.Row] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelruntime-objects-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let model = RuntimeWork.model()
    var rows: [Report.Row] = []
    for pass in 0..<passes {
        let runtimeURL = folder.appendingPathComponent("Runtime-\(pass).sqlite")
        let floorURL = folder.appendingPathComponent("Floor-\(pass).sqlite")
        _ = try RuntimeWork.context(model: model, url: floorURL)
        let floor = try SQLiteFloor(url: floorURL)
        let insertContext = try RuntimeWork.context(model: model, url: runtimeURL)
        let insertFloor = try Figure.measure { try floor.insert(count) }
        let insertRuntime = try Figure.measure { try RuntimeWork.insert(count, context: insertContext) }
        rows.append(Report.Row(phase: "1 insert \(count) + save", runtime: insertRuntime, floor: insertFloor, target: .ratio(0.50)))
        let fetchContext = try RuntimeWork.context(model: model, url: runtimeURL)
        let fetchFloor = try Figure.measure { try floor.fetchAll(checksum: &checksum) }
        let fetchRuntime = try Figure.measure { try RuntimeWork.fetchAll(context: fetchContext, checksum: &checksum) }
        rows.append(Report.Row(phase: "2 fetch all, read every attribute", runtime: fetchRuntime, floor: fetchFloor, target: .ratio(0.40)))
    }
    return rows
}

do {
    if let child = stringOption("--child"), let path = stringOption("--store") {
        let url = URL(fileURLWithPath: path)
        let figure: Figure
        switch child {
        case "runtime-batched":
            let context = try RuntimeWork.context(model: RuntimeWork.model(), url: url)
            Measure.resetPeak()
            figure = try Figure.measure { try RuntimeWork.batched(context: context, batchSize: 500, checksum: &checksum) }
        case "sqlite-batched":
            let floor = try SQLiteFloor(url: url)
            figure = try Figure.measure { try floor.fetchAll(checksum: &checksum) }
        default:
            throw BenchmarkError("unknown child phase \(child)")
        }
        print("checksum \(checksum)")
        print(figure.line)
        exit(0)
    }

    if let path = stringOption("--make-batched-store") {
        // The batched phase's store, left in place so its runtime child can be run (and
        // profiled) alone: `--child runtime-batched --store PATH`.
        let url = URL(fileURLWithPath: path)
        _ = try RuntimeWork.context(model: RuntimeWork.model(), url: url)
        _ = try SQLiteFloor(url: url).insert(option("--batched-rows", default: 1_000_000))
        exit(0)
    }
    if CommandLine.arguments.contains("--slot-reads-only") {
        print(try SlotReads.report(rows: option("--rows", default: 100_000), passes: option("--passes", default: 20)))
        exit(0)
    }
    if CommandLine.arguments.contains("--objects-only") {
        let rows = try objectPhases(option("--rows", default: 100_000), passes: option("--passes", default: 1), checksum: &checksum)
        print(Report.table(rows, date: Date()))
        exit(0)
    }
    if CommandLine.arguments.contains("--dictionary-only") {
        print(Report.table([try dictionaryPhase(option("--rows", default: 100_000), checksum: &checksum)], date: Date()))
        exit(0)
    }
    if CommandLine.arguments.contains("--shared-store") {
        try sharedStorePhase(rows: option("--rows", default: 20_000), updates: option("--updates", default: 20_000))
        exit(0)
    }
    if CommandLine.arguments.contains("--updates-only") {
        let row = try roundTripPhase(rows: option("--rows", default: 100_000), updates: option("--updates", default: 10_000))
        print(Report.table([row], date: Date()))
        exit(0)
    }
    let batchInsertRows = option("--batch-insert-rows", default: 1_000_000)
    if CommandLine.arguments.contains("--batch-insert-only") {
        print(Report.table(try batchInsertPhases(batchInsertRows), date: Date()))
        exit(0)
    }
    let rows = option("--rows", default: 100_000)
    let batchedRows = option("--batched-rows", default: 1_000_000)
    let updates = option("--updates", default: 10_000)
    let filteredLimit = max(1, rows / 100)
    let filteredRepeats = 20

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("modelruntime-benchmark-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let runtimeStore = folder.appendingPathComponent("Runtime.sqlite")
    let floorStore = folder.appendingPathComponent("Floor.sqlite")
    let batchedStore = folder.appendingPathComponent("Batched.sqlite")

    // Every store is created by the runtime, so the floor works on the same schema.
    let model = RuntimeWork.model()
    for url in [floorStore, batchedStore] { _ = try RuntimeWork.context(model: model, url: url) }
    let floor = try SQLiteFloor(url: floorStore)

    var results: [Report.Row] = []
    func phase(_ name: String, _ target: Report.Target, runtime: () throws -> Int, floor: () throws -> Int) rethrows {
        let measuredFloor = try Figure.measure(floor)
        let measuredRuntime = try Figure.measure(runtime)
        results.append(Report.Row(phase: name, runtime: measuredRuntime, floor: measuredFloor, target: target))
    }

    let insertContext = try RuntimeWork.context(model: model, url: runtimeStore)
    try phase("1 insert \(rows) + save", .ratio(0.50)) {
        try RuntimeWork.insert(rows, context: insertContext)
    } floor: {
        try floor.insert(rows)
    }
    insertContext.performAndWait { insertContext.reset() }

    // Contexts (and their coordinators, which open the store) are made before the timing.
    let fetchContext = try RuntimeWork.context(model: model, url: runtimeStore)
    try phase("2 fetch all, read every attribute", .ratio(0.40)) {
        try RuntimeWork.fetchAll(context: fetchContext, checksum: &checksum)
    } floor: {
        try floor.fetchAll(checksum: &checksum)
    }

    try phase("3 indexed fetch of 1% (×\(filteredRepeats))", .none) {
        try RuntimeWork.filtered(
            coordinator: fetchContext.persistentStoreCoordinator!, limit: filteredLimit, repeats: filteredRepeats, checksum: &checksum)
    } floor: {
        try floor.filtered(limit: filteredLimit, repeats: filteredRepeats, checksum: &checksum)
    }

    // The batched store is filled with SQLite (its content is not what is measured).
    _ = try SQLiteFloor(url: batchedStore).insert(batchedRows)
    let batchedFloor = try childFigure(["--child", "sqlite-batched", "--store", batchedStore.path])
    let batchedRuntime = try childFigure(["--child", "runtime-batched", "--store", batchedStore.path])
    results.append(
        Report.Row(
            phase: "4 fetch \(batchedRows), fetchBatchSize 500", runtime: batchedRuntime, floor: batchedFloor,
            target: .peakBelow(100 * 1024 * 1024)))

    fetchContext.performAndWait { fetchContext.reset() }
    let dictionaryContext = try RuntimeWork.context(model: model, url: runtimeStore)
    try phase("5 dictionary fetch of all rows", .ratio(0.85)) {
        try RuntimeWork.dictionaries(context: dictionaryContext, checksum: &checksum)
    } floor: {
        try floor.dictionaries(checksum: &checksum)
    }

    let updateContext = try RuntimeWork.context(model: model, url: runtimeStore)
    try phase("6 fetch-update-save round trips", .rate(10_000)) {
        try RuntimeWork.updates(updates, of: rows, context: updateContext)
    } floor: {
        try floor.updates(updates, of: rows)
    }

    results += try batchInsertPhases(batchInsertRows)
    print(Report.table(results, date: Date()))
    print("(checksum \(checksum))")
} catch {
    FileHandle.standardError.write(Data("modelruntime-benchmark: \(error)\n".utf8))
    exit(1)
}
#endif
