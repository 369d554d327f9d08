import Foundation

/// Keeps a folder of generated sources in step with the generator: what to write, what is
/// already current, and which earlier generated files (recognised by their header) to remove.
/// Files without the header are never touched.
public enum GeneratedFolder {
    public struct Plan: Sendable {
        public var missing: [String] = []
        public var changed: [String] = []
        public var stale: [String] = []
        public var isUpToDate: Bool { missing.isEmpty && changed.isEmpty && stale.isEmpty }
    }

    public static func plan(_ files: [SwiftGenerator.File], in folder: String) -> Plan {
        let fileManager = FileManager.default
        var plan = Plan()
        let names = Set(files.map(\.name))
        for file in files {
            let path = (folder as NSString).appendingPathComponent(file.name)
            guard let existing = fileManager.contents(atPath: path) else {
                plan.missing.append(file.name)
                continue
            }
            if [UInt8](existing) != Array(file.contents.utf8) { plan.changed.append(file.name) }
        }
        for name in ((try? fileManager.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        where name.hasSuffix(".swift") && !names.contains(name) {
            let path = (folder as NSString).appendingPathComponent(name)
            guard let handle = FileHandle(forReadingAtPath: path) else { continue }
            let head = (try? handle.read(upToCount: SwiftGenerator.headerPrefix.utf8.count)) ?? nil
            try? handle.close()
            if let head, String(decoding: head, as: UTF8.self) == SwiftGenerator.headerPrefix { plan.stale.append(name) }
        }
        return plan
    }

    public static func apply(_ plan: Plan, files: [SwiftGenerator.File], in folder: String) throws(OutputFiles.WriteError) {
        let toWrite = Set(plan.missing + plan.changed)
        try OutputFiles.write(files.filter { toWrite.contains($0.name) }.map { ($0.name, Array($0.contents.utf8)) }, under: folder)
        for name in plan.stale {
            let path = (folder as NSString).appendingPathComponent(name)
            do {
                try FileManager.default.removeItem(atPath: path)
            } catch {
                throw OutputFiles.WriteError(path: path, message: "cannot remove the stale generated file: \(error.localizedDescription)")
            }
        }
    }
}
