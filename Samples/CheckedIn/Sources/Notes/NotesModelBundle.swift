import Foundation

extension NotesModel {
    /// The compiled `Notes.momd` shipped as this module's resource.
    public static var compiledModelURL: URL? {
        Bundle.module.url(forResource: name, withExtension: "momd")
    }
}
