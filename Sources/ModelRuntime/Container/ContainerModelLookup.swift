#if !canImport(CoreData)
import ModelQuery

/// Finds the compiled model `NSPersistentContainer(name:)` loads: `<name>.momd` (or `<name>.mom`)
/// in `Bundle.main`, then in the SwiftPM resource bundles of the running program, then in
/// `Bundle.allBundles`.
///
/// On Linux SwiftPM copies a target's resources into a `<Package>_<Target>.resources` folder
/// beside the executable (and beside the test bundle for tests), and `Bundle.module` is that
/// folder; the modelgen build plugin's `<Name>.momd` is at its top level. `Bundle.main` is the
/// executable's folder, so the resource bundles are the `*.resources` folders in it, searched in
/// name order so the same model is found on every run.
package enum ContainerModelLookup {
    /// Where a model named `name` was looked for, and what was found.
    package struct Result {
        package let url: URL?
        package let searched: [URL]
    }

    package static func find(named name: String, mainBundle: URL = Bundle.main.bundleURL) -> Result {
        var searched: [URL] = []
        var seen: Set<String> = []
        func look(in folder: URL) -> URL? {
            let key = folder.standardizedFileURL.path
            guard seen.insert(key).inserted else { return nil }
            searched.append(folder)
            for suffix in ["momd", "mom"] {
                let candidate = folder.appendingPathComponent("\(name).\(suffix)")
                if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            }
            return nil
        }
        if let url = look(in: mainBundle) { return Result(url: url, searched: searched) }
        for bundle in resourceBundles(in: mainBundle) {
            if let url = look(in: bundle) { return Result(url: url, searched: searched) }
        }
        for bundle in Bundle.allBundles {
            if let resources = bundle.resourceURL, let url = look(in: resources) { return Result(url: url, searched: searched) }
            if let url = look(in: bundle.bundleURL) { return Result(url: url, searched: searched) }
        }
        return Result(url: nil, searched: searched)
    }

    /// The SwiftPM resource bundles beside the executable, in name order.
    static func resourceBundles(in folder: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".resources") }.sorted().map { folder.appendingPathComponent($0, isDirectory: true) }
            .filter { url in
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
            }
    }
}
#endif
