#if !canImport(CoreData)
import ModelQuery

/// Where `NSPersistentContainer.defaultDirectoryURL()` puts stores on Linux: the XDG data
/// directory (`$XDG_DATA_HOME`, or `~/.local/share` when it is unset, empty or not absolute, as
/// the XDG Base Directory specification says) with a folder named after the program, as apps
/// keep their own folder in Application Support on Apple platforms.
package enum DefaultDirectory {
    package static func url(
        environment: [String: String] = ProcessInfo.processInfo.environment, programName: String = ProcessInfo.processInfo.processName
    ) -> URL {
        let dataHome: URL
        if let value = environment["XDG_DATA_HOME"], value.hasPrefix("/") {
            dataHome = URL(fileURLWithPath: value, isDirectory: true)
        } else {
            let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()
            dataHome = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".local/share", isDirectory: true)
        }
        let folder =
            programName.isEmpty || programName == "." || programName == ".." || programName.contains("/") ? "CoreData" : programName
        return dataHome.appendingPathComponent(folder, isDirectory: true)
    }
}
#endif
