import Foundation

/// Watches the input being run from another thread: one that runs past the time budget is
/// saved and reported while it is still running; one that runs past the hard limit ends the
/// process (a hang cannot be interrupted in-process), after it has been saved.
final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var current: (reader: String, bytes: [UInt8], start: Date, reported: Bool)?
    private let budget: TimeInterval
    private let hardLimit: TimeInterval
    private let findings: Findings

    init(budget: TimeInterval, hardLimit: TimeInterval, findings: Findings) {
        self.budget = budget
        self.hardLimit = hardLimit
        self.findings = findings
    }

    func start() {
        let thread = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: 0.05)
                check()
            }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    func begin(reader: String, bytes: [UInt8]) {
        lock.withLock { current = (reader, bytes, Date(), false) }
    }

    /// Ends the current input; true when the watchdog had reported it as slow.
    @discardableResult
    func end() -> Bool {
        lock.withLock {
            defer { current = nil }
            return current?.reported ?? false
        }
    }

    private func check() {
        let snapshot: (reader: String, bytes: [UInt8], elapsed: TimeInterval)? = lock.withLock {
            guard var running = current else { return nil }
            let elapsed = Date().timeIntervalSince(running.start)
            guard elapsed > budget else { return nil }
            if running.reported, elapsed < hardLimit { return nil }
            let first = !running.reported
            running.reported = true
            current = running
            return first || elapsed >= hardLimit ? (running.reader, running.bytes, elapsed) : nil
        }
        guard let snapshot else { return }
        if snapshot.elapsed >= hardLimit {
            let path = findings.save(snapshot.bytes, kind: "hang", reader: snapshot.reader)
            say("HANG: \(snapshot.reader) input ran for more than \(Int(hardLimit)) s; saved as \(path); stopping")
            exit(3)
        }
        let path = findings.save(snapshot.bytes, kind: "slow", reader: snapshot.reader)
        say("SLOW: \(snapshot.reader) input has run for more than \(budget) s; saved as \(path)")
    }
}

/// The findings folder: saved slow, hanging and crashing inputs, and the inputs in progress
/// (`in-progress/<reader>/…`), which stay behind when an input kills the process.
final class Findings: @unchecked Sendable {
    let folder: URL
    private let lock = NSLock()
    private var counter = 0

    init(folder: URL) throws {
        self.folder = folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func inProgressFolder(for reader: String) -> URL {
        folder.appendingPathComponent("in-progress/\(reader)")
    }

    /// Inputs a previous run left in progress killed it: they are renamed to crash findings.
    func collectCrashes() -> [String] {
        let root = folder.appendingPathComponent("in-progress")
        var found: [String] = []
        for reader in (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [] {
            let readerFolder = root.appendingPathComponent(reader)
            for file in Targets.files(under: readerFolder, where: { _ in true }) {
                guard let data = try? Data(contentsOf: file) else { continue }
                found.append(save([UInt8](data), kind: "crash", reader: reader))
            }
            try? FileManager.default.removeItem(at: readerFolder)
        }
        return found
    }

    @discardableResult
    func save(_ bytes: [UInt8], kind: String, reader: String) -> String {
        let name = lock.withLock {
            counter += 1
            let stamp = Int(Date().timeIntervalSince1970)
            return "\(kind)-\(reader)-\(stamp)-\(counter).bin"
        }
        let url = folder.appendingPathComponent(name)
        try? Data(bytes).write(to: url)
        return url.path
    }
}
